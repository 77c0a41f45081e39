/** POST /api/leads/bulk-update: one patch for up to 100 leads, each with lead.updated. */
import { DomainError, parseLeadPatch, type TenantContext } from '@leadstream/domain';
import { eachLead, type BulkLeadsResult } from './bulk-lead-outcomes';
import { readLeadPatchContext, writeLeadPatch, type LeadPatchContextDeps, type LeadPatchDeps } from './update-lead';

export type BulkUpdateLeadsDeps = LeadPatchDeps & LeadPatchContextDeps;

export interface BulkUpdateLeadsInput {
  tenant: TenantContext;
  /** Distinct lead ids, checked at the edge. */
  ids: readonly string[];
  /** The request's `updates`; parsing needs the organization's custom fields, so it happens here. */
  updates: unknown;
}

export async function bulkUpdateLeads(
  deps: BulkUpdateLeadsDeps,
  input: BulkUpdateLeadsInput,
): Promise<BulkLeadsResult> {
  const parsed = parseLeadPatch(input.updates, await readLeadPatchContext(deps, input.tenant));
  if (!parsed.ok)
    throw new DomainError(
      'VALIDATION_ERROR',
      'Invalid request',
      parsed.details.map((d) => ({ field: `updates.${d.field}`, message: d.message })),
    );
  return eachLead(input.ids, (id) => writeLeadPatch(deps, input.tenant, id, parsed.patch));
}
