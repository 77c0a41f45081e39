import type { TenantContext } from '@leadstream/domain';
import { DuplicateKeyError, type Collection, type DocumentStore } from '@leadstream/ports';

export const SUBMISSION_RECEIPTS_COLLECTION = 'submission_receipts';

/**
 * A note that a submission was taken in and answered 202 before the pipeline created its lead,
 * so the status URL of that answer says "processing" instead of 404 while the pipeline catches
 * up. Written only on the slow path; gone after a day (TTL).
 */
export interface SubmissionReceipt {
  _id: string;
  organization_id: string;
  environment: string;
  vendor_id: string;
  submitted_at: string;
  expires_at: Date;
}

const RECEIPT_LIFETIME_MS = 24 * 3_600_000;

export class SubmissionReceiptRepository {
  private readonly receipts: Collection<SubmissionReceipt>;

  constructor(store: DocumentStore) {
    this.receipts = store.collection<SubmissionReceipt>(SUBMISSION_RECEIPTS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(SUBMISSION_RECEIPTS_COLLECTION)
      .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
  }

  async record(tenant: TenantContext, leadId: string, vendorId: string, submittedAt: string, now: Date): Promise<void> {
    try {
      await this.receipts.insertOne({
        _id: leadId,
        organization_id: tenant.organizationId,
        environment: tenant.environment,
        vendor_id: vendorId,
        submitted_at: submittedAt,
        expires_at: new Date(now.getTime() + RECEIPT_LIFETIME_MS),
      });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  async find(tenant: TenantContext, leadId: string): Promise<SubmissionReceipt | null> {
    return this.receipts.findOne({
      _id: leadId,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
    });
  }
}
