import type { TenantContext } from '@leadstream/domain';
import {
  DuplicateKeyError,
  type BulkWriteOperation,
  type Collection,
  type DocumentStore,
  type BaseDocument,
} from '@leadstream/ports';
import { RETENTION_TTL_INDEX, retentionExpiry } from './retention';

export const LEAD_ACTIVITY_COLLECTION = 'lead_activity';

/** A lead activity entry (`leadActivity`); `_id` is the id of the event it records. */
export interface LeadActivityEntry {
  _id: string;
  organization_id: string;
  environment: string;
  lead_id: string;
  event: string;
  timestamp: string;
  /** Orders entries that share a timestamp (the event's log offset; one lead's events share a partition). */
  sequence: number;
  description: string;
  metadata: Record<string, unknown>;
  /** When the entry is deleted (ACTIVITY_RETENTION_DAYS, 24 h in the sandbox; retention.ts); set at its first write. */
  expires_at?: Date;
}

/** The entry with its expiry, as every write stores it. */
function withExpiry(entry: LeadActivityEntry): LeadActivityEntry {
  const expiresAt = entry.expires_at ?? retentionExpiry('activityDays', entry.environment, entry.timestamp);
  return expiresAt ? { ...entry, expires_at: expiresAt } : entry;
}

export class LeadActivityRepository {
  static readonly COLLECTION = LEAD_ACTIVITY_COLLECTION;

  /** Recording an entry as a bulk operation: an upsert keyed by the event id, so a repeat changes nothing. */
  static recordOperation(entry: LeadActivityEntry): BulkWriteOperation<BaseDocument> {
    const { _id, ...rest } = withExpiry(entry);
    return {
      updateOne: {
        filter: { _id, organization_id: entry.organization_id, environment: entry.environment },
        update: { $setOnInsert: rest as unknown as Record<string, never> },
        upsert: true,
      },
    };
  }

  private readonly entries: Collection<LeadActivityEntry>;

  constructor(store: DocumentStore) {
    this.entries = store.collection<LeadActivityEntry>(LEAD_ACTIVITY_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(LEAD_ACTIVITY_COLLECTION)
      .createIndex({ keys: { organization_id: 1, lead_id: 1, timestamp: 1 }, name: 'tenant_lead_timestamp' });
    await store
      .collection(LEAD_ACTIVITY_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: RETENTION_TTL_INDEX, expireAfterSeconds: 0, sparse: true });
  }

  /** Records an entry once: the same event delivered again is ignored. Returns whether it was new. */
  async record(entry: LeadActivityEntry): Promise<boolean> {
    try {
      await this.entries.insertOne(withExpiry(entry));
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  async forLead(tenant: TenantContext, leadId: string): Promise<LeadActivityEntry[]> {
    return this.entries.find(
      { organization_id: tenant.organizationId, environment: tenant.environment, lead_id: leadId },
      { sort: { timestamp: 1, sequence: 1 } },
    );
  }
}
