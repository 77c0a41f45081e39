/** POST /api/leads/bulk-delete: a soft delete of up to 100 leads, each with lead.deleted. */
import type { TenantContext } from '@leadstream/domain';
import { eachLead, type BulkLeadsResult } from './bulk-lead-outcomes';
import { writeLeadDeletion } from './delete-lead';
import type { LeadWriterDeps } from './lead-writer';

export interface BulkDeleteLeadsInput {
  tenant: TenantContext;
  ids: readonly string[];
}

export function bulkDeleteLeads(deps: LeadWriterDeps, input: BulkDeleteLeadsInput): Promise<BulkLeadsResult> {
  return eachLead(input.ids, (id) => writeLeadDeletion(deps, input.tenant, id));
}
