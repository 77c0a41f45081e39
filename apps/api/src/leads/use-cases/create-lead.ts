/**
 * POST /api/leads: the body is a vendor submission (as `ingestLead` takes it) plus `program` and
 * `vendor_id`. It is produced to leads.submitted for the user's organization (live) and answered
 * from the pipeline's decision, like vendor ingestion.
 */
import type { Dal } from '@leadstream/dal';
import { ensureManualEntryVendor, manualEntryVendorId } from '@leadstream/dal';
import { DomainError, type ErrorDetail, type LeadRecord, type TenantContext } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import { checkLeadSubmission, type LeadDecisionMessage } from '@leadstream/schemas';
import { submitLeads, type LeadSubmitDependencies } from '../../ingestion/lead-submit';
import { leadNotFound, type FindLeadDeps } from './find-lead';

export interface CreateLeadDeps {
  store: DocumentStore;
  vendors: Pick<Dal['vendors'], 'findById'>;
  queries: FindLeadDeps['queries'];
  submit: LeadSubmitDependencies;
  /** Told when the organization's manual-entry vendor is created (a configuration write). */
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export interface CreateLeadInput {
  tenant: TenantContext;
  /** The request body, checked here like a vendor submission. */
  body: unknown;
}

/** The decision on the new lead, or `pending` when the pipeline has not decided it in time. */
export type CreateLeadResult =
  | { kind: 'pending'; leadId: string }
  /** Accepted, or merged: the lead is the original one, which absorbed the submission (docs/decisions.md). */
  | { kind: 'stored'; lead: LeadRecord }
  | { kind: 'rejected'; decision: LeadDecisionMessage }
  | { kind: 'duplicate'; duplicateOf: string | null };

const invalid = (details: ErrorDetail[], message: string): DomainError =>
  new DomainError('VALIDATION_ERROR', message, details);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The manual-entry vendor's id, created (and announced as a configuration change) on first use. */
async function manualEntryVendor(deps: CreateLeadDeps, tenant: TenantContext): Promise<string> {
  const id = manualEntryVendorId(tenant.organizationId);
  if (await deps.vendors.findById(tenant, id)) return id;
  await ensureManualEntryVendor(deps.store, tenant, deps.clock());
  await deps.configCache.changed(tenant.organizationId, 'vendors');
  return id;
}

export async function createLead(deps: CreateLeadDeps, input: CreateLeadInput): Promise<CreateLeadResult> {
  const { tenant, body } = input;
  if (!isObject(body)) throw invalid([{ field: '(body)', message: 'body must be a JSON object' }], 'Invalid request');
  const { vendor_id: vendorId, program, ...submission } = body;
  const details: ErrorDetail[] = [...checkLeadSubmission(submission)];
  if (program !== undefined && program !== null && (typeof program !== 'string' || program.length > 200)) {
    details.push({ field: 'program', message: 'program must be a string of at most 200 characters' });
  }
  if (vendorId !== undefined && vendorId !== null && typeof vendorId !== 'string')
    details.push({ field: 'vendor_id', message: 'vendor_id must be a string' });
  else if (typeof vendorId === 'string' && !(await deps.vendors.findById(tenant, vendorId))) {
    details.push({ field: 'vendor_id', message: 'vendor_id is not a vendor of your organization' });
  }
  if (details.length > 0) throw invalid(details, 'Validation failed');
  const vendor = typeof vendorId === 'string' ? vendorId : await manualEntryVendor(deps, tenant);
  const item = { submission: typeof program === 'string' ? { ...submission, program } : submission, problems: [] };
  const [outcome] = await submitLeads(deps.submit, tenant, vendor, [item]);
  if (!outcome || outcome.kind === 'invalid') throw invalid(outcome?.details ?? [], 'Validation failed');
  if (outcome.kind === 'pending') return { kind: 'pending', leadId: outcome.leadId };
  const decision = outcome.decision;
  switch (decision.outcome) {
    case 'accepted':
    case 'merged': {
      const lead = await deps.queries.findVisible(tenant, decision.lead_id);
      if (!lead) throw leadNotFound();
      return { kind: 'stored', lead };
    }
    case 'invalid':
      throw invalid(decision.details ?? [], 'Validation failed');
    case 'rejected':
      return { kind: 'rejected', decision };
    case 'duplicate':
      return { kind: 'duplicate', duplicateOf: decision.duplicate_of ?? null };
  }
}
