/** GET /api/leads/:id (and the checks of PATCH, DELETE and the activity log): a visible lead, or why not. */
import type { LeadQueryRepository, SubmissionReceiptRepository } from '@leadstream/dal';
import { DomainError, type LeadRecord, type TenantContext } from '@leadstream/domain';

export interface FindLeadDeps {
  queries: Pick<LeadQueryRepository, 'findVisible'>;
  /** Receipts of submissions still in the pipeline: such a lead is LEAD_PROCESSING, not LEAD_NOT_FOUND. */
  receipts: Pick<SubmissionReceiptRepository, 'find'>;
}

export interface FindLeadInput {
  tenant: TenantContext;
  id: string;
}

export const leadNotFound = (): DomainError => new DomainError('LEAD_NOT_FOUND', 'Lead not found');

/**
 * Why a lead cannot be found: still in the pipeline (a 202 gave out its id and status_url; the
 * lead is stored once it is decided), or not there at all.
 */
export async function missingLead(deps: Pick<FindLeadDeps, 'receipts'>, input: FindLeadInput): Promise<DomainError> {
  return (await deps.receipts.find(input.tenant, input.id))
    ? new DomainError('LEAD_PROCESSING', 'The lead is still being processed; follow its status_url until it is decided')
    : leadNotFound();
}

export async function findLead(deps: FindLeadDeps, input: FindLeadInput): Promise<LeadRecord> {
  const lead = await deps.queries.findVisible(input.tenant, input.id);
  if (!lead) throw await missingLead(deps, input);
  return lead;
}
