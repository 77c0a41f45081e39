/**
 * GET /api/leads/:lead_id/status and /api/vendor-portal/leads/:lead_id (`leadProcessingStatus`):
 * a lead of the vendor, or its receipt while the pipeline has not stored it yet. Another vendor's
 * lead, or a deleted one, is not found.
 */
import type { LeadRepository, SubmissionReceiptRepository } from '@leadstream/dal';
import type { LeadRecord, TenantContext } from '@leadstream/domain';

export interface GetLeadStatusDeps {
  leads: Pick<LeadRepository, 'findById'>;
  receipts: Pick<SubmissionReceiptRepository, 'find'>;
}

export interface GetLeadStatusInput {
  tenant: TenantContext;
  vendorId: string;
  leadId: string;
}

export type GetLeadStatusResult =
  | { kind: 'stored'; lead: LeadRecord }
  /** Submitted (a 202 gave out its id) but not decided and stored yet. */
  | { kind: 'processing'; leadId: string; submittedAt: string }
  | { kind: 'not_found' };

export async function getLeadStatus(deps: GetLeadStatusDeps, input: GetLeadStatusInput): Promise<GetLeadStatusResult> {
  const { tenant, vendorId, leadId } = input;
  const lead = await deps.leads.findById(tenant, leadId);
  if (!lead) {
    const receipt = await deps.receipts.find(tenant, leadId);
    if (receipt && receipt.vendor_id === vendorId)
      return { kind: 'processing', leadId, submittedAt: receipt.submitted_at };
  }
  if (!lead || lead.vendor_id !== vendorId || lead.deleted_at) return { kind: 'not_found' };
  return { kind: 'stored', lead };
}
