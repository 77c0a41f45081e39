/**
 * PATCH /api/leads/:id: a partial update of one lead, with lead.updated. Calculated fields that
 * read a changed field are computed again in the same write (docs/formula-language.md).
 */
import type { CustomFieldRepository, Dal } from '@leadstream/dal';
import {
  applyLeadPatch,
  changedPaths,
  DEFAULT_VALIDATION_SETTINGS,
  DomainError,
  fieldsAffectedBy,
  parseLeadPatch,
  recalculateLead,
  type EnrichmentConfig,
  type LeadPatch,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import { leadUpdatedEvent } from '../lead-events';
import { findLead, leadNotFound, type FindLeadDeps } from './find-lead';
import { writeLead, type LeadWriteResult, type LeadWriterDeps } from './lead-writer';

export interface LeadPatchContextDeps {
  customFields: Pick<CustomFieldRepository, 'list'>;
  organizations: Pick<Dal['organizations'], 'get'>;
}

export interface LeadPatchDeps extends LeadWriterDeps {
  /** The organization's calculated fields and lookup tables, to recompute values a patch makes stale. */
  calculations?: (organizationId: string) => Promise<Pick<EnrichmentConfig, 'calculatedFields' | 'lookupTables'>>;
}

export type UpdateLeadDeps = LeadPatchDeps & LeadPatchContextDeps & FindLeadDeps;

export interface UpdateLeadInput {
  tenant: TenantContext;
  id: string;
  /** The request body; parsing needs the organization's custom fields, so it happens here. */
  updates: unknown;
}

/** What parsing a patch needs: the organization's custom fields and its default phone country. */
export async function readLeadPatchContext(deps: LeadPatchContextDeps, tenant: TenantContext) {
  const [customFields, organization] = await Promise.all([
    deps.customFields.list(tenant.organizationId),
    deps.organizations.get(tenant),
  ]);
  return {
    customFields,
    defaultPhoneCountry: (organization?.settings.validation ?? DEFAULT_VALIDATION_SETTINGS).default_phone_country,
  };
}

/** Writes a parsed patch to one lead; null when there is no visible lead of that id. */
export async function writeLeadPatch(
  deps: LeadPatchDeps,
  tenant: TenantContext,
  id: string,
  patch: LeadPatch,
): Promise<LeadWriteResult | null> {
  const calculations = deps.calculations ? await deps.calculations(tenant.organizationId) : undefined;
  return writeLead(deps, tenant, id, (lead, at) => {
    const { set, changes } = applyLeadPatch(lead, patch);
    if (Object.keys(changes).length === 0) return null;
    const affected = calculations ? fieldsAffectedBy(changedPaths(changes), calculations.calculatedFields) : [];
    const recalculated =
      calculations && affected.length > 0
        ? recalculateLead({
            lead: { ...lead, ...set },
            fields: calculations.calculatedFields,
            lookupTables: calculations.lookupTables,
            only: affected,
            now: new Date(at),
          })
        : null;
    const allChanges = recalculated
      ? { ...changes, calculated_fields: { old: lead['calculated_fields'] ?? null, new: recalculated.values } }
      : changes;
    return {
      set: { ...set, ...(recalculated ? { calculated_fields: recalculated.values } : {}), updated_at: at },
      event: (next) => leadUpdatedEvent(next, allChanges, at),
    };
  });
}

export async function updateLead(deps: UpdateLeadDeps, input: UpdateLeadInput): Promise<LeadRecord> {
  const { tenant, id } = input;
  // A missing lead is 404 even when the body is also wrong: the caller cannot fix the body for it.
  await findLead(deps, { tenant, id });
  const parsed = parseLeadPatch(input.updates, await readLeadPatchContext(deps, tenant));
  if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Validation failed', parsed.details);
  const outcome = await writeLeadPatch(deps, tenant, id, parsed.patch);
  if (!outcome) throw leadNotFound();
  return outcome.lead;
}
