/** POST /api/leads/inbound and /api/v1/leads/ingest (`ingestLead`): one submission, answered from the pipeline's decision. */
import type { TenantContext } from '@leadstream/domain';
import type { SubmitOutcome } from '../lead-submit';
import { submitVendorLeads, type SubmitVendorLeadsDeps } from './submit-vendor-leads';

export type IngestLeadDeps = SubmitVendorLeadsDeps;

export interface IngestLeadInput {
  tenant: TenantContext;
  vendorId: string;
  /** The request body: one submission. */
  body: unknown;
}

/** The submission's outcome: invalid, decided, or pending when the pipeline has not decided in time. */
export async function ingestLead(deps: IngestLeadDeps, input: IngestLeadInput): Promise<SubmitOutcome | undefined> {
  const [outcome] = await submitVendorLeads(deps, {
    tenant: input.tenant,
    vendorId: input.vendorId,
    bodies: [input.body],
  });
  return outcome;
}
