import type { LeadRecord, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore, Filter, Update } from '@leadstream/ports';

export const LEADS_COLLECTION = 'leads';

/** One output of a stage, kept with the lead's state until it is produced (transactional outbox). */
export interface OutboxEntry {
  topic: string;
  key: string;
  value: string;
}

/**
 * Leads of one tenant. Stage writes are compare-and-set on `version` and record the id of the
 * message they apply, so a redelivered message is recognised and changes nothing.
 */
export class LeadRepository {
  private readonly leads: Collection<LeadRecord>;

  constructor(store: DocumentStore) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    const leads = store.collection(LEADS_COLLECTION);
    // Listing and reporting: a tenant's leads newest first, per vendor, per status.
    await leads.createIndex({ keys: { organization_id: 1, environment: 1, created_at: -1 }, name: 'tenant_created_at' });
    await leads.createIndex({ keys: { organization_id: 1, environment: 1, vendor_id: 1, created_at: -1 }, name: 'tenant_vendor_created_at' });
    // Deduplication candidates come from blocking keys, never from a scan (issue 3).
    await leads.createIndex({ keys: { bk_email: 1 }, name: 'bk_email' });
    await leads.createIndex({ keys: { bk_phone: 1 }, name: 'bk_phone' });
    await leads.createIndex({ keys: { bk_name: 1 }, name: 'bk_name' });
    // Sandbox leads disappear 24 h after creation.
    await leads.createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  }

  /** Inserts a lead just received. A redelivered submission finds the lead already there. */
  async insert(lead: LeadRecord): Promise<void> {
    await this.leads.insertOne(lead);
  }

  async findById(tenant: TenantContext, id: string): Promise<LeadRecord | null> {
    return this.leads.findOne({ _id: id, organization_id: tenant.organizationId, environment: tenant.environment });
  }

  /**
   * Applies a stage's transition if nobody wrote the lead since `expectedVersion`. Returns the new
   * document, or null when the version moved (the caller reloads and decides again).
   */
  async applyStageWrite(
    tenant: TenantContext,
    id: string,
    expectedVersion: number,
    messageId: string,
    set: Partial<LeadRecord>,
    outbox: OutboxEntry[],
  ): Promise<LeadRecord | null> {
    const update: Update = {
      $set: { ...(set as Record<string, never>), outbox: outbox as unknown as never },
      $inc: { version: 1 },
      $push: { applied_messages: messageId },
    };
    return this.leads.findOneAndUpdate(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment, version: expectedVersion },
      update,
    );
  }

  /** Marks the outbox of `version` as produced; a no-op when a later stage already moved on. */
  async clearOutbox(id: string, version: number): Promise<void> {
    await this.leads.updateOne({ _id: id, version }, { $set: { outbox: [] } });
  }

  /**
   * Applies a merge patch (dedup action `merge`) to the original lead. Not a stage write of the
   * original's actor: it changes data fields only, so it bumps the version to keep stage writes honest.
   */
  async mergeInto(tenant: TenantContext, id: string, patch: Record<string, unknown>, at: string): Promise<void> {
    await this.leads.updateOne(
      { _id: id, organization_id: tenant.organizationId, environment: tenant.environment },
      { $set: { ...(patch as Record<string, never>), updated_at: at }, $inc: { version: 1 } },
    );
  }

  /** Leads that passed deduplication, share a blocking key and were created since `since` (null: all time). */
  async findDedupCandidates(
    tenant: TenantContext,
    keys: { bk_email: string | null; bk_phone: string | null; bk_name: string | null },
    since: string | null,
    excludeId: string,
    limit = 50,
  ): Promise<LeadRecord[]> {
    const anyKey: Filter[] = [];
    if (keys.bk_email) anyKey.push({ bk_email: keys.bk_email });
    if (keys.bk_phone) anyKey.push({ bk_phone: keys.bk_phone });
    if (keys.bk_name) anyKey.push({ bk_name: keys.bk_name });
    if (anyKey.length === 0) return [];
    const filter: Filter = {
      $or: anyKey,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      dedup_status: 'unique',
      deleted_at: null,
      _id: { $ne: excludeId },
    };
    if (since) filter['created_at'] = { $gte: since };
    return this.leads.find(filter, { sort: { created_at: 1 }, limit });
  }
}
