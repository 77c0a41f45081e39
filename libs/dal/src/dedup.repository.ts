import { DEFAULT_DEDUP_CONFIG, type DedupConfig, type DedupLogEntry, type TenantContext } from '@leadstream/domain';
import type { BaseDocument, BulkWriteOperation, Collection, DocumentStore } from '@leadstream/ports';
import { RETENTION_TTL_INDEX, retentionExpiry } from './retention';

export const DEDUP_CONFIGS_COLLECTION = 'dedup_configs';
export const DEDUP_LOG_COLLECTION = 'dedup_log';

interface DedupConfigDocument {
  _id: string;
  organization_id: string;
  environment: string;
  config: DedupConfig;
  updated_at: string;
}

export interface DedupLogDocument extends DedupLogEntry {
  _id: string;
  organization_id: string;
  environment: string;
  lead_id: string;
  /** When the entry is deleted (DEDUP_LOG_RETENTION_DAYS, 24 h in the sandbox; retention.ts). */
  expires_at?: Date;
}

/** The deduplication configuration of a tenant (`getDedupConfig`) and its decision log (`dedupLog`). */
export class DedupRepository {
  static readonly LOG_COLLECTION = DEDUP_LOG_COLLECTION;

  /** The write of `record` as a bulk operation, for a stage batch that writes everything at once. */
  static recordOperation(
    tenant: TenantContext,
    leadId: string,
    entry: DedupLogEntry,
  ): BulkWriteOperation<BaseDocument> {
    const expiresAt = retentionExpiry('dedupLogDays', tenant.environment, entry.timestamp);
    return {
      updateOne: {
        filter: { _id: `dedup_${leadId}`, organization_id: tenant.organizationId, environment: tenant.environment },
        update: {
          $setOnInsert: {
            ...(entry as unknown as Record<string, never>),
            organization_id: tenant.organizationId,
            environment: tenant.environment,
            lead_id: leadId,
            ...(expiresAt ? { expires_at: expiresAt } : {}),
          },
        },
        upsert: true,
      },
    };
  }

  private readonly configs: Collection<DedupConfigDocument>;
  private readonly log: Collection<DedupLogDocument>;

  constructor(store: DocumentStore) {
    this.configs = store.collection<DedupConfigDocument>(DEDUP_CONFIGS_COLLECTION);
    this.log = store.collection<DedupLogDocument>(DEDUP_LOG_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(DEDUP_LOG_COLLECTION)
      .createIndex({ keys: { organization_id: 1, environment: 1, timestamp: -1 }, name: 'tenant_timestamp' });
    await store
      .collection(DEDUP_LOG_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: RETENTION_TTL_INDEX, expireAfterSeconds: 0, sparse: true });
  }

  /** One configuration per organization: the sandbox applies the same rules as production. */
  private static idOf(tenant: TenantContext): string {
    return tenant.organizationId;
  }

  async getConfig(tenant: TenantContext): Promise<DedupConfig> {
    const document = await this.configs.findOne({ _id: DedupRepository.idOf(tenant) });
    return document?.config ?? DEFAULT_DEDUP_CONFIG;
  }

  async saveConfig(tenant: TenantContext, config: DedupConfig, now: Date): Promise<void> {
    await this.configs.updateOne(
      { _id: DedupRepository.idOf(tenant) },
      {
        $set: { config: config as unknown as never, updated_at: now.toISOString() },
        $setOnInsert: { organization_id: tenant.organizationId, environment: tenant.environment },
      },
      { upsert: true },
    );
  }

  /** One entry per decision; keyed by the lead so a redelivered message does not log twice. */
  async record(tenant: TenantContext, leadId: string, entry: DedupLogEntry): Promise<void> {
    await this.log.bulkWrite([
      DedupRepository.recordOperation(tenant, leadId, entry) as BulkWriteOperation<DedupLogDocument>,
    ]);
  }

  async recent(tenant: TenantContext, limit: number): Promise<DedupLogDocument[]> {
    return this.log.find(
      { organization_id: tenant.organizationId, environment: tenant.environment },
      { sort: { timestamp: -1 }, limit },
    );
  }
}
