/** DELETE /api/leads/:id: a soft delete, with lead.deleted. */
import type { TenantContext } from '@leadstream/domain';
import { leadDeletedEvent } from '../lead-events';
import { missingLead, type FindLeadDeps } from './find-lead';
import { writeLead, type LeadWriteResult, type LeadWriterDeps } from './lead-writer';

export type DeleteLeadDeps = LeadWriterDeps & Pick<FindLeadDeps, 'receipts'>;

export interface DeleteLeadInput {
  tenant: TenantContext;
  id: string;
}

/** Marks one lead deleted; null when there is no visible lead of that id. */
export function writeLeadDeletion(
  deps: LeadWriterDeps,
  tenant: TenantContext,
  id: string,
): Promise<LeadWriteResult | null> {
  return writeLead(deps, tenant, id, (_lead, at) => ({
    set: { deleted_at: at, updated_at: at },
    event: (next) => leadDeletedEvent(next, at),
  }));
}

export async function deleteLead(deps: DeleteLeadDeps, input: DeleteLeadInput): Promise<void> {
  const outcome = await writeLeadDeletion(deps, input.tenant, input.id);
  if (!outcome) throw await missingLead(deps, input);
}
