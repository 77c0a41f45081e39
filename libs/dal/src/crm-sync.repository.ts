/**
 * CRM syncs (collection `crm_syncs`): one actor per (lead, connection), id
 * `crmsync_<lead id>_<connection id>`. The actors live in their lead (`crm_syncs`, written with
 * the lead's compare-and-set); the crm-sync stage also writes them here with its batch (upserts
 * keyed by id, so a repeated write changes nothing) for the API's reads and counts.
 */
import type { CrmSyncRecord, TenantContext } from '@leadstream/domain';
import type { BaseDocument, BulkWriteOperation, Collection, DocumentStore } from '@leadstream/ports';

export const CRM_SYNCS_COLLECTION = 'crm_syncs';

export class CrmSyncRepository {
  static readonly COLLECTION = CRM_SYNCS_COLLECTION;
  private readonly syncs: Collection<CrmSyncRecord>;

  constructor(store: DocumentStore) {
    this.syncs = store.collection<CrmSyncRecord>(CRM_SYNCS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(CRM_SYNCS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, environment: 1, lead_id: 1 }, name: 'tenant_lead' });
    // A connection's stats: its syncs by status, the newest first.
    await store.collection(CRM_SYNCS_COLLECTION).createIndex({
      keys: { organization_id: 1, environment: 1, connection_id: 1, status: 1, synced_at: -1 },
      name: 'tenant_connection_status',
    });
  }

  /** The whole sync as one `$set` upsert (every field named, nulls included: `$setOnInsert` would drop them on FerretDB). */
  static saveOperation(sync: CrmSyncRecord): BulkWriteOperation<BaseDocument> {
    const { _id, ...rest } = sync;
    return {
      updateOne: {
        filter: { _id, organization_id: sync.organization_id, environment: sync.environment },
        update: { $set: rest as unknown as Record<string, never> },
        upsert: true,
      },
    };
  }

  async findById(tenant: TenantContext, id: string): Promise<CrmSyncRecord | null> {
    return this.syncs.findOne({ _id: id, organization_id: tenant.organizationId, environment: tenant.environment });
  }

  /** A connection's syncs that ended synced and failed, and its newest success (the API's `stats` and `last_sync_at`). */
  async connectionStats(
    tenant: TenantContext,
    connectionId: string,
  ): Promise<{ synced: number; failed: number; last_sync_at: string | null }> {
    const base = {
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      connection_id: connectionId,
    };
    const [synced, failed, newest] = await Promise.all([
      this.syncs.countDocuments({ ...base, status: 'synced' }),
      this.syncs.countDocuments({ ...base, status: 'failed' }),
      this.syncs.findOne({ ...base, status: 'synced' }, { sort: { synced_at: -1 } }),
    ]);
    return { synced, failed, last_sync_at: newest?.synced_at ?? null };
  }
}
