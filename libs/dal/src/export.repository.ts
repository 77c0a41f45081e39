/**
 * Exports of one tenant (`exportLeads`, `getExport`) and the leads an export streams. Actor writes
 * are compare-and-set on `version` and carry the outputs of the transition (transactional outbox),
 * exactly like lead actors (docs/pipeline.md).
 */
import {
  parseLeadSearch,
  type ExportFilters,
  type ExportOutboxEntry,
  type ExportRecord,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { Collection, DocumentStore, Filter, Update } from '@leadstream/ports';
import { leadListFilter } from './lead-query.repository';
import { LEADS_COLLECTION } from './lead.repository';

export const EXPORTS_COLLECTION = 'exports';

/**
 * The leads an export streams: exactly those of the lead list (GET /leads) with the same filters,
 * search included, answered from the same indexes. Soft-deleted leads are never exported.
 */
export function leadExportFilter(tenant: TenantContext, filters: ExportFilters): Filter {
  return leadListFilter(tenant, {
    status: filters.status,
    source: filters.source,
    vendor_id: filters.vendor_id,
    program: filters.program,
    createdFrom: filters.start_date,
    createdBefore: filters.end_date,
    search: filters.search ? parseLeadSearch(filters.search) : undefined,
  });
}

export class ExportRepository {
  private readonly exports: Collection<ExportRecord>;
  private readonly leads: Collection<LeadRecord>;

  constructor(store: DocumentStore) {
    this.exports = store.collection<ExportRecord>(EXPORTS_COLLECTION);
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    const exports = store.collection(EXPORTS_COLLECTION);
    await exports.createIndex({
      keys: { organization_id: 1, environment: 1, created_at: -1 },
      name: 'tenant_created_at',
    });
    // The expiry sweep: completed exports whose download lifetime has ended.
    await exports.createIndex({ keys: { status: 1, expires_at: 1 }, name: 'status_expires_at' });
    // Recovery: processing exports whose generating process stopped renewing its lease.
    await exports.createIndex({ keys: { status: 1, lease_until: 1 }, name: 'status_lease_until' });
  }

  async insert(record: ExportRecord): Promise<void> {
    await this.exports.insertOne(record);
  }

  async findById(tenant: TenantContext, id: string): Promise<ExportRecord | null> {
    return this.exports.findOne({ _id: id, organization_id: tenant.organizationId, environment: tenant.environment });
  }

  /**
   * Applies an actor transition if nobody wrote the export since `expectedVersion`; the outputs
   * are stored with it. Returns the new document, or null when the version moved.
   */
  async applyTransition(
    tenant: TenantContext,
    id: string,
    expectedVersion: number,
    set: Partial<ExportRecord>,
    outbox: ExportOutboxEntry[],
  ): Promise<ExportRecord | null> {
    const update: Update = {
      $set: { ...(set as Record<string, never>), outbox: outbox as unknown as never },
      $inc: { version: 1 },
    };
    return this.exports.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment, version: expectedVersion },
      update,
    );
  }

  /** Marks the outbox of `version` as produced; a no-op when a later write moved on or the export is another tenant's. */
  async clearOutbox(tenant: TenantContext, id: string, version: number): Promise<void> {
    await this.exports.updateOne(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment, version },
      { $set: { outbox: [] } },
    );
  }

  /** Completed exports whose files are past their lifetime, oldest first. */
  async findExpired(now: Date, limit = 100): Promise<ExportRecord[]> {
    return this.exports.find({ status: 'completed', expires_at: { $lte: now } }, { sort: { expires_at: 1 }, limit });
  }

  /**
   * Moves the lease of the generation that holds `version`; false when the export moved on
   * (another process restarted it), which tells the holder to stop. Leaves the version alone.
   * Like every write here, it is filtered by the tenant: an id alone never reaches another's export.
   */
  async renewLease(tenant: TenantContext, id: string, version: number, until: Date): Promise<boolean> {
    const result = await this.exports.updateOne(
      {
        _id: id,
        organization_id: tenant.organizationId,
        environment: tenant.environment,
        version,
        status: 'processing',
      },
      { $set: { lease_until: until } },
    );
    return result.matchedCount === 1;
  }

  /** Processing exports whose lease ran out (the process generating them died or stopped). */
  async findAbandoned(now: Date, limit = 100): Promise<ExportRecord[]> {
    return this.exports.find({ status: 'processing', lease_until: { $lt: now } }, { sort: { lease_until: 1 }, limit });
  }

  /** Streams the tenant's leads that match, newest first, without holding them all. */
  iterateLeads(tenant: TenantContext, filters: ExportFilters, batchSize = 500): AsyncIterable<LeadRecord> {
    return this.leads.iterate(leadExportFilter(tenant, filters), { sort: { created_at: -1 }, batchSize });
  }
}
