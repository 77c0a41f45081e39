/**
 * Vendor reporting (`vendorDailyStats`, `vendorMonthlySummary`, `vendorExport`): a vendor's own
 * leads in one environment over a range of creation times, counted by outcome or streamed for
 * export. Every query starts with the equality prefix `organization_id, environment, vendor_id` and
 * a range on `created_at`, so it is answered from the `tenant_vendor_created_at` index
 * (LeadRepository.ensureIndexes), never from a scan.
 */
import type { LeadRecord, LeadStatus, RejectionReason, TenantContext } from '@leadstream/domain';
import type { Collection, DocumentStore, Filter } from '@leadstream/ports';
import { LEADS_COLLECTION } from './lead.repository';
import { VendorRefusalRepository } from './vendor-refusal.repository';

/** Statuses a lead reaches once it passed validation and deduplication. */
export const ACCEPTED_STATUSES: readonly LeadStatus[] = ['active', 'contacted', 'qualified', 'converted', 'archived'];
/** Statuses of leads the pipeline turned down (a merged duplicate is a `duplicate` too). */
export const REJECTED_STATUSES: readonly LeadStatus[] = ['rejected', 'duplicate'];

/** A half-open range of creation times `[from, to)`, ISO 8601 UTC strings. */
export interface CreatedRange {
  from: string;
  to: string;
}

export interface VendorOutcomeCounts {
  /** Submissions in the range, whatever their state: leads received, and bodies the edge refused. */
  submitted: number;
  accepted: number;
  rejected: number;
  /** Still `new`: received but not decided yet (in flight through the pipeline). */
  pending: number;
  rejection_breakdown: { invalid_email: number; duplicate: number; missing_field: number; other: number };
}

/** The export's view of a lead: only what the CSV shows. */
export type VendorExportRow = Pick<LeadRecord, '_id' | 'email' | 'status' | 'submitted_at' | 'rejection_reason'>;

export class VendorReportRepository {
  private readonly leads: Collection<LeadRecord>;
  private readonly refusals: VendorRefusalRepository;

  constructor(store: DocumentStore) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
    this.refusals = new VendorRefusalRepository(store);
  }

  /** The index-backed filter every report query starts from. */
  static rangeFilter(tenant: TenantContext, vendorId: string, range: CreatedRange): Filter {
    return {
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      vendor_id: vendorId,
      created_at: { $gte: range.from, $lt: range.to },
    };
  }

  /**
   * Counts by outcome with six index range counts (no documents are loaded), plus the bodies the
   * ingestion edge refused (VendorRefusalRepository). Breakdown:
   * `duplicate` = status duplicate or reason duplicate; `invalid_email`; `missing_field` =
   * reason missing_required; `other` = every other rejection (disposable_email, bot_detected,
   * failed_custom_rule, rate_limited, unknown).
   */
  async countOutcomes(tenant: TenantContext, vendorId: string, range: CreatedRange): Promise<VendorOutcomeCounts> {
    const base = VendorReportRepository.rangeFilter(tenant, vendorId, range);
    const rejectedBy = (reason: RejectionReason): Filter => ({ ...base, status: 'rejected', rejection_reason: reason });
    const [stored, accepted, storedRejected, duplicate, storedInvalidEmail, storedMissingField, refused] =
      await Promise.all([
        this.leads.countDocuments(base),
        this.leads.countDocuments({ ...base, status: { $in: [...ACCEPTED_STATUSES] } }),
        this.leads.countDocuments({ ...base, status: { $in: [...REJECTED_STATUSES] } }),
        this.leads.countDocuments({
          ...base,
          $or: [{ status: 'duplicate' }, { status: 'rejected', rejection_reason: 'duplicate' }],
        }),
        this.leads.countDocuments(rejectedBy('invalid_email')),
        this.leads.countDocuments(rejectedBy('missing_required')),
        this.refusals.countInRange(tenant, vendorId, range),
      ]);
    // Bodies the edge refused never became leads; they are submissions and rejections all the same.
    const submitted = stored + refused.submitted;
    const rejected = storedRejected + refused.submitted;
    const invalidEmail = storedInvalidEmail + refused.invalid_email;
    const missingField = storedMissingField + refused.missing_field;
    return {
      submitted,
      accepted,
      rejected,
      pending: Math.max(0, submitted - accepted - rejected),
      rejection_breakdown: {
        invalid_email: invalidEmail,
        duplicate,
        missing_field: missingField,
        other: Math.max(0, rejected - duplicate - invalidEmail - missingField),
      },
    };
  }

  /** Streams the vendor's leads in the range, oldest first, without holding them all. */
  async *iterateForExport(
    tenant: TenantContext,
    vendorId: string,
    range: CreatedRange,
    batchSize = 500,
  ): AsyncGenerator<VendorExportRow> {
    const filter = { ...VendorReportRepository.rangeFilter(tenant, vendorId, range), deleted_at: null };
    for await (const lead of this.leads.iterate(filter, { sort: { created_at: 1 }, batchSize })) {
      yield {
        _id: lead._id,
        email: lead.email,
        status: lead.status,
        submitted_at: lead.submitted_at,
        rejection_reason: lead.rejection_reason,
      };
    }
  }

  /** Index names the engine would use for the count filter (tests and docs). */
  explainCount(tenant: TenantContext, vendorId: string, range: CreatedRange): Promise<string[]> {
    return this.leads.explainIndexes(VendorReportRepository.rangeFilter(tenant, vendorId, range));
  }
}
