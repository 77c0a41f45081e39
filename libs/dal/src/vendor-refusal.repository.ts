/**
 * Submissions a vendor made with a valid API key that the ingestion edge refused before they became
 * leads (a body that fails the lead schema: a missing email, a wrong type, an unknown field). They
 * are counted per vendor and UTC hour, so the vendor's reports (daily stats, monthly summary)
 * count every submission, whether the edge or the validate stage refused it. Counts only: the
 * refused body is not kept.
 */
import type { TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore } from '@leadstream/ports';

/** Why the edge refused a body, in the vendor report's breakdown. */
export type EdgeRefusalReason = 'invalid_email' | 'missing_field' | 'other';

interface RefusalHour {
  _id: string;
  organization_id: string;
  environment: string;
  vendor_id: string;
  /** The hour's start, ISO 8601 UTC. */
  hour: string;
  submitted: number;
  invalid_email: number;
  missing_field: number;
  other: number;
}

export interface EdgeRefusalCounts {
  submitted: number;
  invalid_email: number;
  missing_field: number;
  other: number;
}

/**
 * The breakdown reason of a refused body from its problems (field and message, as answered): a
 * missing field first, then the email, then anything else.
 */
export function edgeRefusalReason(problems: ReadonlyArray<{ field: string; message: string }>): EdgeRefusalReason {
  if (problems.some((problem) => problem.message.endsWith(' is required'))) return 'missing_field';
  if (problems.some((problem) => problem.field === 'email')) return 'invalid_email';
  return 'other';
}

const HOUR_MS = 3_600_000;

export class VendorRefusalRepository {
  static readonly COLLECTION = 'vendor_refusals';
  private readonly hours: Collection<RefusalHour>;

  constructor(store: DocumentStore) {
    this.hours = store.collection<RefusalHour>(VendorRefusalRepository.COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(VendorRefusalRepository.COLLECTION)
      .createIndex({ keys: { organization_id: 1, environment: 1, vendor_id: 1, hour: 1 }, name: 'tenant_vendor_hour' });
  }

  /** Counts refused submissions of one request (one, or the refused items of a batch) in the hour of `at`. */
  async record(
    tenant: TenantContext,
    vendorId: string,
    at: Date,
    reasons: readonly EdgeRefusalReason[],
  ): Promise<void> {
    if (reasons.length === 0) return;
    const hour = new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS).toISOString();
    const increments: Record<string, number> = { submitted: reasons.length };
    for (const reason of reasons) increments[reason] = (increments[reason] ?? 0) + 1;
    await this.hours.updateOne(
      { _id: `${tenant.organizationId}|${tenant.environment}|${vendorId}|${hour}` },
      {
        $inc: increments,
        $setOnInsert: {
          organization_id: tenant.organizationId,
          environment: tenant.environment,
          vendor_id: vendorId,
          hour,
        },
      },
      { upsert: true },
    );
  }

  /** Refused submissions whose hour starts in `[from, to)` (day and month ranges start on an hour). */
  async countInRange(
    tenant: TenantContext,
    vendorId: string,
    range: { from: string; to: string },
  ): Promise<EdgeRefusalCounts> {
    const rows = await this.hours.find({
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      vendor_id: vendorId,
      hour: { $gte: range.from, $lt: range.to },
    });
    const counts: EdgeRefusalCounts = { submitted: 0, invalid_email: 0, missing_field: 0, other: 0 };
    for (const row of rows) {
      counts.submitted += row.submitted ?? 0;
      counts.invalid_email += row.invalid_email ?? 0;
      counts.missing_field += row.missing_field ?? 0;
      counts.other += row.other ?? 0;
    }
    return counts;
  }
}
