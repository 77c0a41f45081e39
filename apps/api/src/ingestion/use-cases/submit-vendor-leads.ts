/**
 * What both ingest use cases do: submit a vendor's bodies to the pipeline (lead-submit.ts) and
 * count the bodies the edge refused in the vendor's reports. A failure to count is logged and does
 * not change the outcomes.
 */
import { edgeRefusalReason, type EdgeRefusalReason, type VendorRefusalRepository } from '@leadstream/dal';
import { describeDetail, type TenantContext } from '@leadstream/domain';
import { checkLeadSubmission } from '@leadstream/schemas';
import type { Logger } from 'pino';
import { submitLeads, type LeadSubmitDependencies, type SubmitOutcome } from '../lead-submit';

export interface SubmitVendorLeadsDeps {
  submit: LeadSubmitDependencies;
  /** Counts of bodies refused at the edge, per vendor and hour, for the vendor's reports. */
  refusals: Pick<VendorRefusalRepository, 'record'>;
  logger: Pick<Logger, 'warn'>;
  clock: () => Date;
}

export interface SubmitVendorLeadsInput {
  tenant: TenantContext;
  vendorId: string;
  /** The submissions as the vendor sent them, checked here. */
  bodies: unknown[];
}

export async function submitVendorLeads(
  deps: SubmitVendorLeadsDeps,
  input: SubmitVendorLeadsInput,
): Promise<SubmitOutcome[]> {
  const { tenant, vendorId } = input;
  const outcomes = await submitLeads(
    deps.submit,
    tenant,
    vendorId,
    input.bodies.map((body) => ({ submission: body, problems: checkLeadSubmission(body) })),
  );
  const reasons: EdgeRefusalReason[] = outcomes.flatMap((outcome) =>
    outcome.kind === 'invalid' ? [edgeRefusalReason(outcome.details.map(describeDetail))] : [],
  );
  if (reasons.length === 0) return outcomes;
  try {
    await deps.refusals.record(tenant, vendorId, deps.clock(), reasons);
  } catch (error) {
    deps.logger.warn(
      { err: error, code: 'vendor_refusal_count_failed', organization_id: tenant.organizationId, vendor_id: vendorId },
      'could not count refused submissions',
    );
  }
  return outcomes;
}
