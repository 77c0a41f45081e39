/**
 * Vendor lead ingestion (`ingestLead`, `bulkIngestLeads`, ...), both path families and the sandbox:
 *   POST /api/leads/inbound          POST /api/v1/leads/ingest
 *   POST /api/leads/inbound/batch    POST /api/v1/leads/bulk-ingest
 *   GET  /api/leads/:lead_id/status  GET  /api/vendor-portal/leads/:lead_id
 * and the same under /sandbox. A route authenticates the key, applies the rate limit, checks the
 * body, produces the submission to leads.submitted and waits for the pipeline's decision.
 */
import Router from '@koa/router';
import type { Dal, LeadRepository, SubmissionReceiptRepository, VendorRefusalRepository } from '@leadstream/dal';
import { describeDetail, type LeadRecord, type TenantContext } from '@leadstream/domain';
import type { LeadDecisionMessage } from '@leadstream/schemas';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { apiKeyAuth, ingestionRateLimit, type ApiKeyAuthState } from '../auth';
import type { CachedConfig } from '../config/cached-config';
import { inServerSpan, type Produce } from '@leadstream/runtime';
import type { DecisionWaiter } from './decision-waiter';
import type { SubmitOutcome } from './lead-submit';
import { bulkIngestLeads, getLeadStatus, ingestLead } from './use-cases';

export { SUBMITTED_TOPIC } from './lead-submit';

export interface IngestionDependencies {
  dal: Dal;
  /** Keys and vendors of authentication, from the configuration cache. */
  config: CachedConfig;
  leads: LeadRepository;
  receipts: SubmissionReceiptRepository;
  /** Counts of bodies refused at the edge, per vendor and hour, for the vendor's reports. */
  refusals: VendorRefusalRepository;
  /** Where lead commands go: the log, through the per-tick CoalescingProducer. */
  submissions: Produce;
  waiter: DecisionWaiter;
  decisionTimeoutMs: number;
  /** Where authentication reports what it cannot let fail a request (a failed last_used_at write). */
  logger: Logger;
  clock?: () => Date;
}

type IngestionContext = Context & { state: ApiKeyAuthState };

export function ingestionRouter(deps: IngestionDependencies): Router {
  const clock = deps.clock ?? (() => new Date());
  const router = new Router();
  const auth = (permission: 'read' | 'write') =>
    apiKeyAuth<object>(
      { apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger },
      permission,
    );
  const submit = {
    receipts: deps.receipts,
    log: deps.submissions,
    configCache: deps.config.cache,
    waiter: deps.waiter,
    decisionTimeoutMs: deps.decisionTimeoutMs,
    clock,
  };
  const useCaseDeps = {
    submit,
    refusals: deps.refusals,
    logger: deps.logger,
    leads: deps.leads,
    receipts: deps.receipts,
    clock,
  };

  const single = async (ctx: IngestionContext): Promise<void> => {
    const outcome = await ingestLead(useCaseDeps, {
      tenant: ctx.state.tenant,
      vendorId: ctx.state.vendorId,
      body: ctx.request.body,
    });
    const timestamp = clock().toISOString();
    if (!outcome) return;
    const sandbox = ctx.path.startsWith('/sandbox') ? '/sandbox' : '';
    const { status, body } =
      outcome.kind === 'decided'
        ? singleAnswer(outcome.decision, timestamp)
        : undecidedAnswer(outcome, sandbox, timestamp);
    ctx.status = status;
    ctx.body = body;
  };

  const batch = async (ctx: IngestionContext): Promise<void> => {
    const result = await bulkIngestLeads(useCaseDeps, {
      tenant: ctx.state.tenant,
      vendorId: ctx.state.vendorId,
      body: ctx.request.body,
    });
    if (result.kind === 'invalid') {
      ctx.status = 400;
      ctx.body = {
        success: false,
        error: 'Validation failed',
        code: 'VALIDATION_ERROR',
        details: result.problems.map(describeDetail),
      };
      return;
    }
    const results = result.outcomes.map((outcome, index) => batchResult(index, outcome));
    const accepted = results.filter((item) => item.success).length;
    ctx.status = 200;
    ctx.body = {
      success: true,
      total: results.length,
      accepted,
      rejected: results.length - accepted,
      results,
      timestamp: clock().toISOString(),
    };
  };

  const status = async (ctx: IngestionContext): Promise<void> => {
    const result = await getLeadStatus(useCaseDeps, {
      tenant: ctx.state.tenant,
      vendorId: ctx.state.vendorId,
      leadId: String(ctx.params['lead_id']),
    });
    if (result.kind === 'processing') {
      ctx.body = {
        id: result.leadId,
        status: 'processing',
        submitted_at: result.submittedAt,
        processed_at: null,
        validation_status: 'pending',
        enrichment_status: 'pending',
        crm_sync_status: 'pending',
        crm_id: null,
      };
    } else if (result.kind === 'not_found') {
      ctx.status = 404;
      ctx.body = { success: false, error: 'Lead not found', code: 'LEAD_NOT_FOUND' };
    } else {
      ctx.body = processingStatus(result.lead);
    }
  };

  for (const prefix of ['', '/sandbox']) {
    const write = [auth('write'), ingestionRateLimit('single', deps.dal.rateLimiter, { clock })] as const;
    const bulk = [auth('write'), ingestionRateLimit('bulk', deps.dal.rateLimiter, { clock })] as const;
    for (const path of ['/api/leads/inbound', '/api/v1/leads/ingest'])
      router.post(`${prefix}${path}`, traced(`${prefix}${path}`), ...write, single);
    for (const path of ['/api/leads/inbound/batch', '/api/v1/leads/bulk-ingest'])
      router.post(`${prefix}${path}`, traced(`${prefix}${path}`), ...bulk, batch);
    for (const path of ['/api/leads/:lead_id/status', '/api/vendor-portal/leads/:lead_id'])
      router.get(`${prefix}${path}`, auth('read'), status);
  }
  return router;
}

/** The single-lead answer to a submission the pipeline has not decided: invalid at the edge (400), or still processing (202). */
function undecidedAnswer(
  outcome: Exclude<SubmitOutcome, { kind: 'decided' }>,
  sandbox: string,
  timestamp: string,
): { status: number; body: Record<string, unknown> } {
  if (outcome.kind === 'invalid')
    return {
      status: 400,
      body: {
        success: false,
        error: 'Validation failed',
        code: 'VALIDATION_ERROR',
        details: outcome.details.map(describeDetail),
      },
    };
  return {
    status: 202,
    body: {
      success: true,
      lead_id: outcome.leadId,
      status: 'processing',
      message: 'Lead received; its processing has not finished yet',
      status_url: `${sandbox}/api/leads/${outcome.leadId}/status`,
      timestamp,
    },
  };
}

/** Status and body of a single-lead answer (docs/api-conventions.md "Vendor ingestion answers"). */
/**
 * The request's server span (docs/operations.md, "Tracing"), continuing the caller's `traceparent` if it sent
 * one; the submissions it produces carry its trace context. Nothing but a check when tracing is off.
 */
function traced(route: string) {
  return (ctx: Context, next: () => Promise<unknown>): Promise<void> =>
    inServerSpan(
      `${ctx.method} ${route}`,
      ctx.request.headers,
      { 'http.request.method': ctx.method, 'http.route': route, 'url.path': ctx.path },
      async () => {
        await next();
      },
      () => ctx.status,
    );
}

export function singleAnswer(
  decision: LeadDecisionMessage,
  timestamp: string,
): { status: number; body: Record<string, unknown> } {
  switch (decision.outcome) {
    case 'accepted':
    case 'merged': {
      const body: Record<string, unknown> = {
        success: true,
        lead_id: decision.lead_id,
        message: decision.outcome === 'merged' ? `Lead merged into existing lead ${decision.lead_id}` : 'Lead accepted',
        timestamp,
      };
      if (decision.warnings?.length) body['warnings'] = decision.warnings.map(describeDetail);
      if (decision.flags?.length) body['flags'] = decision.flags;
      if (decision.duplicate_of) body['duplicate_of'] = decision.duplicate_of;
      return { status: 201, body };
    }
    case 'invalid':
      return {
        status: 400,
        body: {
          success: false,
          error: 'Validation failed',
          code: 'VALIDATION_ERROR',
          details: (decision.details ?? []).map(describeDetail),
        },
      };
    case 'rejected':
      return {
        status: 422,
        body: {
          success: false,
          error: 'Lead rejected',
          reason: decision.reason,
          rule_id: decision.rule_id,
          message: decision.message,
        },
      };
    case 'duplicate':
      return {
        status: 409,
        body: {
          success: false,
          error: 'Duplicate lead detected',
          duplicate_of: decision.duplicate_of,
          similarity_score: decision.similarity_score,
          matched_fields: decision.matched_fields ?? [],
        },
      };
  }
}

interface BatchResult {
  index: number;
  success: boolean;
  lead_id?: string;
  email?: string;
  error?: string;
  duplicate_of?: string;
  [key: string]: unknown;
}

function batchResult(index: number, outcome: SubmitOutcome): BatchResult {
  if (outcome.kind === 'invalid') {
    return {
      index,
      success: false,
      ...(outcome.email ? { email: outcome.email } : {}),
      error: 'Validation failed',
      details: outcome.details.map(describeDetail),
    };
  }
  if (outcome.kind === 'pending')
    return { index, success: true, lead_id: outcome.leadId, email: outcome.email, status: 'processing' };
  const { decision } = outcome;
  const email = decision.email;
  switch (decision.outcome) {
    case 'accepted':
    case 'merged':
      return {
        index,
        success: true,
        lead_id: decision.lead_id,
        email,
        ...(decision.flags?.length ? { flags: decision.flags } : {}),
      };
    case 'invalid':
      return {
        index,
        success: false,
        email,
        error: 'Validation failed',
        details: (decision.details ?? []).map(describeDetail),
      };
    case 'rejected':
      return {
        index,
        success: false,
        email,
        error: `Lead rejected: ${decision.reason ?? 'rule'}`,
        reason: decision.reason,
        rule_id: decision.rule_id,
        ...(decision.message ? { message: decision.message } : {}),
      };
    case 'duplicate':
      return { index, success: false, email, error: 'Duplicate lead detected', duplicate_of: decision.duplicate_of };
  }
}

/** Processing status of a lead (`leadProcessingStatus`). */
export function processingStatus(lead: LeadRecord): Record<string, unknown> {
  const status = lead.status === 'active' ? 'accepted' : lead.status === 'new' ? 'processing' : lead.status;
  return {
    id: lead._id,
    status,
    submitted_at: lead.submitted_at,
    processed_at: lead.processed_at,
    validation_status: lead.validation_status,
    enrichment_status: lead.enrichment_status,
    crm_sync_status: lead.crm_sync_status,
    crm_id: lead.crm_id,
    ...(lead.rejection_reason ? { rejection_reason: lead.rejection_reason, rule_id: lead.rule_id } : {}),
    ...(lead.duplicate_of ? { duplicate_of: lead.duplicate_of } : {}),
  };
}

export type { TenantContext };
