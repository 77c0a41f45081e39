/**
 * Leads in the user API (operations tagged Leads; exports are elsewhere):
 *   GET    /api/leads                  list: filters, search, sort, pages (leads:read, 100/min)
 *   GET    /api/leads/:id              every field of the lead (leads:read, 200/min)
 *   POST   /api/leads                  create through the ingestion pipeline (leads:write, 50/min)
 *   PATCH  /api/leads/:id              partial update, emits lead.updated (leads:write, 100/min)
 *   DELETE /api/leads/:id              soft delete, emits lead.deleted (leads:write, 100/min)
 *   GET    /api/leads/:id/activity     the lead's activity log (leads:read, 200/min)
 *   POST   /api/leads/bulk-update      up to 100 leads (leads:write, bulk 20/min)
 *   POST   /api/leads/bulk-delete      up to 100 leads (leads:write, bulk 20/min)
 * A lead of another organization, or a deleted one, is LEAD_NOT_FOUND everywhere. The three reads
 * (list, one lead, activity) take `environment=sandbox` for the leads sent with vk_test_ keys.
 */
import type { CustomFieldRepository, Dal, LeadActivityRepository, LeadQueryRepository, OutboxEntry, SubmissionReceiptRepository } from '@leadstream/dal';
import { ensureManualEntryVendor, manualEntryVendorId } from '@leadstream/dal';
import {
  changedPaths,
  fieldsAffectedBy,
  recalculateLead,
  type EnrichmentConfig,
  applyLeadPatch,
  DEFAULT_VALIDATION_SETTINGS,
  DomainError,
  parseLeadListQuery,
  parseLeadPatch,
  type ErrorDetail,
  type LeadPatch,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import { checkLeadSubmission, type LeadDecisionMessage } from '@leadstream/schemas';
import type { ParameterizedContext } from 'koa';
import { defineRoute, UserRouter, type SessionGuard, type UserSessionState } from '../auth';
import { submitLeads, type LeadSubmitDependencies } from '../ingestion/lead-submit';
import { leadDeletedEvent, leadUpdatedEvent } from './lead-events';
import { leadDetail, leadListItem } from './lead-view';

export const MAX_BULK_IDS = 100;

export interface LeadsRoutesDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  /** Organizations and vendors are read through the configuration cache (leads.app). */
  dal: { organizations: Pick<Dal['organizations'], 'get'>; vendors: Pick<Dal['vendors'], 'findById'>; rateLimiter: Dal['rateLimiter'] };
  queries: LeadQueryRepository;
  activity: Pick<LeadActivityRepository, 'forLead'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
  log: EventLog;
  submit: Omit<LeadSubmitDependencies, 'clock'>;
  /** Receipts of submissions still in the pipeline: such a lead is 409 LEAD_PROCESSING, not 404. */
  receipts: Pick<SubmissionReceiptRepository, 'find'>;
  /** Told when the route creates the organization's manual-entry vendor (a configuration write). */
  configCache: Pick<ConfigCache, 'changed'>;
  /** The organization's calculated fields and lookup tables, to recompute values a patch makes stale. */
  calculations?: (organizationId: string) => Promise<Pick<EnrichmentConfig, 'calculatedFields' | 'lookupTables'>>;
  clock?: () => Date;
}

type UserContext = ParameterizedContext<UserSessionState>;

const notFound = (): DomainError => new DomainError('LEAD_NOT_FOUND', 'Lead not found');
const invalid = (details: ErrorDetail[], message = 'Invalid request'): DomainError => new DomainError('VALIDATION_ERROR', message, details);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The tenant a read of leads looks at: live, or with `environment=sandbox` the leads sent with
 * vk_test_ keys (the console's environment switch). Changes stay on the live side.
 */
function readTenant(ctx: UserContext): TenantContext {
  const environment = ctx.query['environment'];
  if (environment === undefined || environment === '' || environment === 'live') return ctx.state.tenant;
  if (environment === 'sandbox') return { ...ctx.state.tenant, environment: 'sandbox' };
  throw invalid([{ field: 'environment', message: 'environment must be live or sandbox' }], 'Invalid query parameters');
}

export function leadsRouter(deps: LeadsRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const submitDeps: LeadSubmitDependencies = { ...deps.submit, clock };

  /** The manual-entry vendor's id, created (and announced as a configuration change) on first use. */
  const manualEntryVendor = async (tenant: TenantContext): Promise<string> => {
    const id = manualEntryVendorId(tenant.organizationId);
    if (await deps.dal.vendors.findById(tenant, id)) return id;
    await ensureManualEntryVendor(deps.store, tenant, clock());
    await deps.configCache.changed(tenant.organizationId, 'vendors');
    return id;
  };
  const vendorName = async (tenant: TenantContext, vendorId: string): Promise<string | null> => (await deps.dal.vendors.findById(tenant, vendorId))?.name ?? null;
  const detail = async (tenant: TenantContext, lead: LeadRecord): Promise<Record<string, unknown>> => leadDetail(lead, await vendorName(tenant, lead.vendor_id));

  /** Produces what a write put in the lead's outbox, then marks it produced. */
  const flush = async (lead: LeadRecord): Promise<void> => {
    if (lead.outbox.length === 0) return;
    const byTopic = new Map<string, OutboxEntry[]>();
    for (const entry of lead.outbox) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
    for (const [topic, records] of byTopic) await deps.log.produce(topic, records.map(({ key, value }) => ({ key, value })));
    await deps.queries.clearOutbox({ organizationId: lead.organization_id, environment: lead.environment }, lead._id, lead.version);
  };

  /**
   * A compare-and-set write of a user change with its event. The event joins whatever the lead's
   * outbox still holds (a stage's outputs not yet confirmed), so nothing queued there is lost;
   * producing those again is harmless, since every output has a stable id.
   */
  const write = async (
    tenant: TenantContext,
    id: string,
    change: (lead: LeadRecord, at: string) => { set: Partial<LeadRecord>; event: (written: LeadRecord) => OutboxEntry } | null,
  ): Promise<{ lead: LeadRecord; changed: boolean } | null> => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const lead = await deps.queries.findVisible(tenant, id);
      if (!lead) return null;
      const at = clock().toISOString();
      const planned = change(lead, at);
      if (!planned) return { lead, changed: false };
      const next = { ...lead, ...planned.set };
      const written = await deps.queries.writeIfUnchanged(tenant, id, lead.version, planned.set, [...lead.outbox, planned.event(next)]);
      if (written) {
        await flush(written);
        return { lead: written, changed: true };
      }
    }
    throw new DomainError('SERVICE_UNAVAILABLE', 'The lead is being changed by others; try again');
  };

  const updateLead = async (tenant: TenantContext, id: string, patch: LeadPatch) => {
    // Calculated fields that read a changed field are computed again in the same write
    // (docs/formula-language.md).
    const calculations = deps.calculations ? await deps.calculations(tenant.organizationId) : undefined;
    return write(tenant, id, (lead, at) => {
      const { set, changes } = applyLeadPatch(lead, patch);
      if (Object.keys(changes).length === 0) return null;
      const affected = calculations ? fieldsAffectedBy(changedPaths(changes), calculations.calculatedFields) : [];
      const recalculated = calculations && affected.length > 0 ? recalculateLead({ lead: { ...lead, ...set }, fields: calculations.calculatedFields, lookupTables: calculations.lookupTables, only: affected, now: new Date(at) }) : null;
      const allChanges = recalculated ? { ...changes, calculated_fields: { old: lead['calculated_fields'] ?? null, new: recalculated.values } } : changes;
      return { set: { ...set, ...(recalculated ? { calculated_fields: recalculated.values } : {}), updated_at: at }, event: (next) => leadUpdatedEvent(next, allChanges, at) };
    });
  };

  const deleteLead = (tenant: TenantContext, id: string) =>
    write(tenant, id, (_lead, at) => ({ set: { deleted_at: at, updated_at: at }, event: (next) => leadDeletedEvent(next, at) }));

  const patchContext = async (tenant: TenantContext) => {
    const [customFields, organization] = await Promise.all([deps.customFields.list(tenant.organizationId), deps.dal.organizations.get(tenant)]);
    return { customFields, defaultPhoneCountry: (organization?.settings.validation ?? DEFAULT_VALIDATION_SETTINGS).default_phone_country };
  };

  defineRoute(router, { method: 'GET', path: '/api/leads', permission: 'leads:read', rateLimit: 'list_leads' }, async (ctx) => {
    const tenant = readTenant(ctx);
    const { environment: _environment, ...filters } = ctx.query;
    const parsed = parseLeadListQuery(filters);
    if (!parsed.ok) throw invalid(parsed.details, 'Invalid query parameters');
    const { query } = parsed;
    const { leads, total } = await deps.queries.list(tenant, query);
    ctx.body = { data: leads.map(leadListItem), meta: { page: query.page, limit: query.limit, total, totalPages: Math.ceil(total / query.limit) } };
  });

  defineRoute(router, { method: 'POST', path: '/api/leads', permission: 'leads:write', rateLimit: 'create_lead' }, async (ctx) => {
    await createLead(ctx);
  });

  defineRoute(router, { method: 'POST', path: '/api/leads/bulk-update', permission: 'leads:write', rateLimit: 'bulk_operations' }, async (ctx) => {
    const body = ctx.request.body as unknown;
    const ids = bulkIds(body, ['updates']);
    const parsed = parseLeadPatch((body as Record<string, unknown>)['updates'], await patchContext(ctx.state.tenant));
    if (!parsed.ok) throw invalid(parsed.details.map((d) => ({ field: `updates.${d.field}`, message: d.message })));
    const results: BulkResult[] = [];
    for (const id of ids) {
      const outcome = await updateLead(ctx.state.tenant, id, parsed.patch);
      results.push(outcome ? { id, success: true } : { id, success: false, error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } });
    }
    const updated = results.filter((result) => result.success).length;
    // The documented bulk body: a processed request is `success: true`; each id reports its own
    // outcome.
    ctx.body = { success: true, updated, failed: results.length - updated, results };
  });

  defineRoute(router, { method: 'POST', path: '/api/leads/bulk-delete', permission: 'leads:write', rateLimit: 'bulk_operations' }, async (ctx) => {
    const ids = bulkIds(ctx.request.body as unknown, []);
    const results: BulkResult[] = [];
    for (const id of ids) {
      const outcome = await deleteLead(ctx.state.tenant, id);
      results.push(outcome ? { id, success: true } : { id, success: false, error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } });
    }
    const deleted = results.filter((result) => result.success).length;
    ctx.body = { success: true, deleted, failed: results.length - deleted, results };
  });

  /**
   * Why a lead cannot be found: still in the pipeline (a 202 gave out its id and status_url; the
   * lead is stored once it is decided), or not there at all.
   */
  const missing = async (tenant: TenantContext, id: string): Promise<DomainError> =>
    (await deps.receipts.find(tenant, id))
      ? new DomainError('LEAD_PROCESSING', 'The lead is still being processed; follow its status_url until it is decided')
      : notFound();

  defineRoute(router, { method: 'GET', path: '/api/leads/:id', permission: 'leads:read', rateLimit: 'get_lead' }, async (ctx) => {
    const tenant = readTenant(ctx);
    const lead = await deps.queries.findVisible(tenant, String(ctx.params['id']));
    if (!lead) throw await missing(tenant, String(ctx.params['id']));
    ctx.body = { data: await detail(tenant, lead) };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/leads/:id', permission: 'leads:write', rateLimit: 'update_lead' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const id = String(ctx.params['id']);
    // A missing lead is 404 even when the body is also wrong: the caller cannot fix the body for it.
    if (!(await deps.queries.findVisible(tenant, id))) throw await missing(tenant, id);
    const parsed = parseLeadPatch(ctx.request.body, await patchContext(tenant));
    if (!parsed.ok) throw invalid(parsed.details, 'Validation failed');
    const outcome = await updateLead(tenant, id, parsed.patch);
    if (!outcome) throw notFound();
    ctx.body = { data: await detail(tenant, outcome.lead) };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/leads/:id', permission: 'leads:write', rateLimit: 'update_lead' }, async (ctx) => {
    const outcome = await deleteLead(ctx.state.tenant, String(ctx.params['id']));
    if (!outcome) throw await missing(ctx.state.tenant, String(ctx.params['id']));
    ctx.status = 204;
  });

  defineRoute(router, { method: 'GET', path: '/api/leads/:id/activity', permission: 'leads:read', rateLimit: 'get_lead' }, async (ctx) => {
    const tenant = readTenant(ctx);
    const id = String(ctx.params['id']);
    if (!(await deps.queries.findVisible(tenant, id))) throw await missing(tenant, id);
    const entries = await deps.activity.forLead(tenant, id);
    ctx.body = { data: entries.map((entry) => ({ id: entry._id, event: entry.event, timestamp: entry.timestamp, description: entry.description, metadata: entry.metadata })) };
  });

  /**
   * POST /leads: the body is a vendor submission (as `ingestLead` takes it) plus `program` and
   * `vendor_id`. It is produced to leads.submitted for the user's organization (live) and answered
   * from the pipeline's decision, like vendor ingestion.
   */
  async function createLead(ctx: UserContext): Promise<void> {
    const tenant = ctx.state.tenant;
    const body = ctx.request.body as unknown;
    if (!isObject(body)) throw invalid([{ field: '(body)', message: 'body must be a JSON object' }]);
    const { vendor_id: vendorId, program, ...submission } = body;
    const details: ErrorDetail[] = [...checkLeadSubmission(submission)];
    if (program !== undefined && program !== null && (typeof program !== 'string' || program.length > 200)) {
      details.push({ field: 'program', message: 'program must be a string of at most 200 characters' });
    }
    if (vendorId !== undefined && vendorId !== null && typeof vendorId !== 'string') details.push({ field: 'vendor_id', message: 'vendor_id must be a string' });
    else if (typeof vendorId === 'string' && !(await deps.dal.vendors.findById(tenant, vendorId))) {
      details.push({ field: 'vendor_id', message: 'vendor_id is not a vendor of your organization' });
    }
    if (details.length > 0) throw invalid(details, 'Validation failed');
    const vendor = typeof vendorId === 'string' ? vendorId : await manualEntryVendor(tenant);
    const item = { submission: typeof program === 'string' ? { ...submission, program } : submission, problems: [] };
    const [outcome] = await submitLeads(submitDeps, tenant, vendor, [item]);
    if (!outcome || outcome.kind === 'invalid') throw invalid(outcome?.details ?? [], 'Validation failed');
    if (outcome.kind === 'pending') {
      ctx.status = 202;
      ctx.body = { data: { id: outcome.leadId, status: 'processing', status_url: `/api/leads/${outcome.leadId}` } };
      return;
    }
    await answerDecision(ctx, outcome.decision);
  }

  async function answerDecision(ctx: UserContext, decision: LeadDecisionMessage): Promise<void> {
    const tenant = ctx.state.tenant;
    switch (decision.outcome) {
      case 'accepted':
      case 'merged': {
        // Merged: the answer is the original lead, which absorbed the submission (docs/decisions.md).
        const lead = await deps.queries.findVisible(tenant, decision.lead_id);
        if (!lead) throw notFound();
        ctx.status = 201;
        ctx.body = { data: await detail(tenant, lead) };
        return;
      }
      case 'invalid':
        throw invalid(decision.details ?? [], 'Validation failed');
      case 'rejected':
        ctx.status = 422;
        // Like the ingestion 409 body carries duplicate_of, the 422 carries the reason and rule id.
        ctx.body = {
          error: {
            code: 'LEAD_REJECTED',
            message: decision.message ?? 'Lead rejected by a validation rule',
            details: [{ field: fieldOfRule(decision.rule_id), message: decision.message ?? 'rejected' }],
            reason: decision.reason ?? null,
            rule_id: decision.rule_id ?? null,
          },
        };
        return;
      case 'duplicate':
        ctx.status = 409;
        ctx.body = { error: { code: 'DUPLICATE_LEAD', message: 'Duplicate lead detected', duplicate_of: decision.duplicate_of ?? null } };
        return;
    }
  }

  return router;
}

interface BulkResult {
  id: string;
  success: boolean;
  error?: { code: string; message: string };
}

/** `ids` (or `lead_ids`, the documented name): 1-100 distinct strings; duplicates are handled once. */
function bulkIds(body: unknown, otherKeys: readonly string[]): string[] {
  if (!isObject(body)) throw invalid([{ field: '(body)', message: 'body must be a JSON object' }]);
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'ids' && key !== 'lead_ids' && !otherKeys.includes(key)) details.push({ field: key, message: `${key} is not a known field` });
  }
  const key = 'ids' in body ? 'ids' : 'lead_ids';
  const ids = body[key];
  if ('ids' in body && 'lead_ids' in body) details.push({ field: 'ids', message: 'give ids or lead_ids, not both' });
  else if (!Array.isArray(ids) || ids.length === 0 || !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 100)) {
    details.push({ field: key, message: `${key} must be an array of 1-${MAX_BULK_IDS} lead ids` });
  } else if (ids.length > MAX_BULK_IDS) {
    details.push({ field: key, message: `at most ${MAX_BULK_IDS} leads per request (got ${ids.length})` });
  }
  for (const required of otherKeys) if (!(required in body)) details.push({ field: required, message: `${required} is required` });
  if (details.length > 0) throw invalid(details);
  return [...new Set(ids as string[])];
}

/** The field a validation rule is about, for the 422 body's details. */
function fieldOfRule(ruleId: string | undefined): string {
  switch (ruleId) {
    case 'validation.disposable_email':
    case 'validation.mx':
      return 'email';
    case 'validation.high_risk_ip':
      return 'ip_address';
    case 'validation.bot_honeypot':
      return 'website';
    case 'validation.bot_timing':
      return 'form_started_at';
    default:
      return '(lead)';
  }
}
