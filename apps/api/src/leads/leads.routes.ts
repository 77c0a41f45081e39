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
import type {
  CustomFieldRepository,
  Dal,
  LeadActivityRepository,
  LeadQueryRepository,
  SubmissionReceiptRepository,
} from '@leadstream/dal';
import {
  DomainError,
  parseLeadListQuery,
  type EnrichmentConfig,
  type ErrorDetail,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import type { ParameterizedContext } from 'koa';
import { defineRoute, UserRouter, type SessionGuard, type UserSessionState } from '../auth';
import type { LeadSubmitDependencies } from '../ingestion/lead-submit';
import { leadDetail, leadListItem } from './lead-view';
import type { LeadChangeCommitter } from './use-cases/lead-writer';
import {
  bulkDeleteLeads,
  bulkUpdateLeads,
  createLead,
  deleteLead,
  findLead,
  updateLead,
  type CreateLeadResult,
} from './use-cases';

export const MAX_BULK_IDS = 100;

export interface LeadsRoutesDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  /** Organizations and vendors are read through the configuration cache (leads.app). */
  dal: {
    organizations: Pick<Dal['organizations'], 'get'>;
    vendors: Pick<Dal['vendors'], 'findById'>;
    rateLimiter: Dal['rateLimiter'];
  };
  queries: LeadQueryRepository;
  /** The engines' unit of work for the API's lead changes, where they have one (lead-writer.ts). */
  leadChanges?: LeadChangeCommitter;
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

const invalid = (details: ErrorDetail[], message = 'Invalid request'): DomainError =>
  new DomainError('VALIDATION_ERROR', message, details);

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
  const writer = {
    queries: deps.queries,
    log: deps.log,
    clock,
    ...(deps.leadChanges ? { changes: deps.leadChanges } : {}),
  };
  const useCases = {
    find: { queries: deps.queries, receipts: deps.receipts },
    create: {
      store: deps.store,
      vendors: deps.dal.vendors,
      queries: deps.queries,
      submit: { ...deps.submit, clock },
      configCache: deps.configCache,
      clock,
    },
    update: {
      ...writer,
      receipts: deps.receipts,
      customFields: deps.customFields,
      organizations: deps.dal.organizations,
      ...(deps.calculations ? { calculations: deps.calculations } : {}),
    },
    remove: { ...writer, receipts: deps.receipts },
  };

  const vendorName = async (tenant: TenantContext, vendorId: string): Promise<string | null> =>
    (await deps.dal.vendors.findById(tenant, vendorId))?.name ?? null;
  const detail = async (tenant: TenantContext, lead: LeadRecord): Promise<Record<string, unknown>> =>
    leadDetail(lead, await vendorName(tenant, lead.vendor_id));

  defineRoute(
    router,
    { method: 'GET', path: '/api/leads', permission: 'leads:read', rateLimit: 'list_leads' },
    async (ctx) => {
      const tenant = readTenant(ctx);
      const { environment: _environment, ...filters } = ctx.query;
      const parsed = parseLeadListQuery(filters);
      if (!parsed.ok) throw invalid(parsed.details, 'Invalid query parameters');
      const { query } = parsed;
      const { leads, total } = await deps.queries.list(tenant, query);
      ctx.body = {
        data: leads.map(leadListItem),
        meta: { page: query.page, limit: query.limit, total, totalPages: Math.ceil(total / query.limit) },
      };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/leads', permission: 'leads:write', rateLimit: 'create_lead' },
    async (ctx) => {
      const tenant = ctx.state.tenant;
      await answerCreated(
        ctx,
        await createLead(useCases.create, { tenant, body: ctx.request.body as unknown }),
        (lead) => detail(tenant, lead),
      );
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/leads/bulk-update', permission: 'leads:write', rateLimit: 'bulk_operations' },
    async (ctx) => {
      const body = ctx.request.body as unknown;
      const ids = bulkIds(body, ['updates']);
      const result = await bulkUpdateLeads(useCases.update, {
        tenant: ctx.state.tenant,
        ids,
        updates: (body as Record<string, unknown>)['updates'],
      });
      // The documented bulk body: a processed request is `success: true`; each id reports its own
      // outcome.
      ctx.body = { success: true, updated: result.succeeded, failed: result.failed, results: result.results };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/leads/bulk-delete', permission: 'leads:write', rateLimit: 'bulk_operations' },
    async (ctx) => {
      const ids = bulkIds(ctx.request.body as unknown, []);
      const result = await bulkDeleteLeads(useCases.remove, { tenant: ctx.state.tenant, ids });
      ctx.body = { success: true, deleted: result.succeeded, failed: result.failed, results: result.results };
    },
  );

  defineRoute(
    router,
    { method: 'GET', path: '/api/leads/:id', permission: 'leads:read', rateLimit: 'get_lead' },
    async (ctx) => {
      const tenant = readTenant(ctx);
      const lead = await findLead(useCases.find, { tenant, id: String(ctx.params['id']) });
      ctx.body = { data: await detail(tenant, lead) };
    },
  );

  defineRoute(
    router,
    { method: 'PATCH', path: '/api/leads/:id', permission: 'leads:write', rateLimit: 'update_lead' },
    async (ctx) => {
      const tenant = ctx.state.tenant;
      const lead = await updateLead(useCases.update, {
        tenant,
        id: String(ctx.params['id']),
        updates: ctx.request.body as unknown,
      });
      ctx.body = { data: await detail(tenant, lead) };
    },
  );

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/leads/:id', permission: 'leads:write', rateLimit: 'update_lead' },
    async (ctx) => {
      await deleteLead(useCases.remove, { tenant: ctx.state.tenant, id: String(ctx.params['id']) });
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    { method: 'GET', path: '/api/leads/:id/activity', permission: 'leads:read', rateLimit: 'get_lead' },
    async (ctx) => {
      const tenant = readTenant(ctx);
      const id = String(ctx.params['id']);
      await findLead(useCases.find, { tenant, id });
      const entries = await deps.activity.forLead(tenant, id);
      ctx.body = {
        data: entries.map((entry) => ({
          id: entry._id,
          event: entry.event,
          timestamp: entry.timestamp,
          description: entry.description,
          metadata: entry.metadata,
        })),
      };
    },
  );

  return router;
}

/** The answer to POST /api/leads: 202 while the pipeline decides, else from its decision. */
async function answerCreated(
  ctx: UserContext,
  result: CreateLeadResult,
  detail: (lead: LeadRecord) => Promise<Record<string, unknown>>,
): Promise<void> {
  switch (result.kind) {
    case 'pending':
      ctx.status = 202;
      ctx.body = { data: { id: result.leadId, status: 'processing', status_url: `/api/leads/${result.leadId}` } };
      return;
    case 'stored':
      ctx.status = 201;
      ctx.body = { data: await detail(result.lead) };
      return;
    case 'rejected': {
      const { decision } = result;
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
    }
    case 'duplicate':
      ctx.status = 409;
      ctx.body = {
        error: { code: 'DUPLICATE_LEAD', message: 'Duplicate lead detected', duplicate_of: result.duplicateOf },
      };
      return;
  }
}

/** `ids` (or `lead_ids`, the documented name): 1-100 distinct strings; duplicates are handled once. */
function bulkIds(body: unknown, otherKeys: readonly string[]): string[] {
  if (!isObject(body)) throw invalid([{ field: '(body)', message: 'body must be a JSON object' }]);
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'ids' && key !== 'lead_ids' && !otherKeys.includes(key))
      details.push({ field: key, message: `${key} is not a known field` });
  }
  const key = 'ids' in body ? 'ids' : 'lead_ids';
  const ids = body[key];
  if ('ids' in body && 'lead_ids' in body) details.push({ field: 'ids', message: 'give ids or lead_ids, not both' });
  else if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 100)
  ) {
    details.push({ field: key, message: `${key} must be an array of 1-${MAX_BULK_IDS} lead ids` });
  } else if (ids.length > MAX_BULK_IDS) {
    details.push({ field: key, message: `at most ${MAX_BULK_IDS} leads per request (got ${ids.length})` });
  }
  for (const required of otherKeys)
    if (!(required in body)) details.push({ field: required, message: `${required} is required` });
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
