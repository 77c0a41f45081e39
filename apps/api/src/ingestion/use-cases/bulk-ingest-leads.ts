/**
 * POST /api/leads/inbound/batch and /api/v1/leads/bulk-ingest (`bulkIngestLeads`): the batch is
 * checked as a whole, then each lead is submitted and answered on its own.
 */
import type { TenantContext } from '@leadstream/domain';
import { checkLeadBatch, type BodyProblem } from '@leadstream/schemas';
import type { SubmitOutcome } from '../lead-submit';
import { submitVendorLeads, type SubmitVendorLeadsDeps } from './submit-vendor-leads';

export type BulkIngestLeadsDeps = SubmitVendorLeadsDeps;

export interface BulkIngestLeadsInput {
  tenant: TenantContext;
  vendorId: string;
  /** The request body: `{leads: [...]}`, checked here. */
  body: unknown;
}

/** `invalid` when the batch itself is refused (nothing is submitted), else one outcome per lead, in order. */
export type BulkIngestLeadsResult =
  { kind: 'invalid'; problems: BodyProblem[] } | { kind: 'submitted'; outcomes: SubmitOutcome[] };

export async function bulkIngestLeads(
  deps: BulkIngestLeadsDeps,
  input: BulkIngestLeadsInput,
): Promise<BulkIngestLeadsResult> {
  const problems = checkLeadBatch(input.body);
  if (problems.length > 0) return { kind: 'invalid', problems };
  const leads = (input.body as { leads: unknown[] }).leads;
  return {
    kind: 'submitted',
    outcomes: await submitVendorLeads(deps, { tenant: input.tenant, vendorId: input.vendorId, bodies: leads }),
  };
}
