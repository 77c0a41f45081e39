/**
 * The review queue of flagged leads (docs/review-queue.md), operations tagged Review queue:
 *   GET  /api/review-queue                     leads waiting, filters, oldest first, counts per flag (leads:read)
 *   POST /api/review-queue/:lead_id/approve    the lead goes on through route (leads:write)
 *   POST /api/review-queue/:lead_id/reject     {reason}: the lead is rejected (leads:write)
 *   POST /api/review-queue/decide              {lead_ids (≤100), decision, reason}, the leads API's bulk convention (leads:write)
 * Managers and above decide (leads:write); viewers read. A decision answers 202: the route stage
 * applies it (the lead's status and activity show it within moments). The review settings
 * (review_sla_hours, auto_decision_after_hours, auto_decision) are organization settings: GET and
 * PATCH /api/organization.
 */
import { DomainError, REVIEW_DECISIONS, type ErrorDetail, type ReviewDecision } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import type { ReviewQueueRepository } from './review-queue.repository';
import { decideReviews, listReviewQueue, type ReviewDecisionResult } from './use-cases';

export const MAX_REVIEW_IDS = 100;
const MAX_REASON = 1_000;

export interface ReviewQueueRoutesDependencies {
  guard: SessionGuard;
  queue: ReviewQueueRepository;
  log: Pick<EventLog, 'produce'>;
  clock?: () => Date;
}

const invalid = (details: ErrorDetail[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Invalid request', details);

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw invalid([{ field: '(body)', message: 'body must be a JSON object' }]);
  return body as Record<string, unknown>;
}

function reasonOf(body: Record<string, unknown>, required: boolean, details: ErrorDetail[]): string | null {
  const reason = body['reason'];
  if (reason === undefined || reason === null) {
    if (required) details.push({ field: 'reason', message: 'reason is required to reject' });
    return null;
  }
  if (typeof reason !== 'string' || reason.trim() === '' || reason.length > MAX_REASON) {
    details.push({ field: 'reason', message: `reason must be text of 1-${MAX_REASON} characters` });
    return null;
  }
  return reason.trim();
}

function onlyKnown(body: Record<string, unknown>, keys: readonly string[], details: ErrorDetail[]): void {
  for (const key of Object.keys(body))
    if (!keys.includes(key)) details.push({ field: key, message: `${key} is not a known field` });
}

export function reviewQueueRouter(deps: ReviewQueueRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const decide = { queue: deps.queue, log: deps.log };

  defineRoute(
    router,
    { method: 'GET', path: '/api/review-queue', permission: 'leads:read', rateLimit: 'list_leads' },
    async (ctx) => {
      ctx.body = await listReviewQueue({ queue: deps.queue, clock }, { tenant: ctx.state.tenant, query: ctx.query });
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/review-queue/decide', permission: 'leads:write', rateLimit: 'bulk_operations' },
    async (ctx) => {
      const body = objectBody(ctx.request.body as unknown);
      const details: ErrorDetail[] = [];
      onlyKnown(body, ['lead_ids', 'ids', 'decision', 'reason'], details);
      const key = 'ids' in body ? 'ids' : 'lead_ids';
      const ids = body[key];
      if ('ids' in body && 'lead_ids' in body)
        details.push({ field: 'ids', message: 'give ids or lead_ids, not both' });
      else if (
        !Array.isArray(ids) ||
        ids.length === 0 ||
        !ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 100)
      )
        details.push({ field: key, message: `${key} must be an array of 1-${MAX_REVIEW_IDS} lead ids` });
      else if (ids.length > MAX_REVIEW_IDS)
        details.push({ field: key, message: `at most ${MAX_REVIEW_IDS} leads per request (got ${ids.length})` });
      const decision = body['decision'];
      if (!(REVIEW_DECISIONS as readonly unknown[]).includes(decision))
        details.push({ field: 'decision', message: 'decision must be approve or reject' });
      const reason = reasonOf(body, decision === 'reject', details);
      if (details.length > 0) throw invalid(details);
      const result = await decideReviews(decide, {
        tenant: ctx.state.tenant,
        ids: [...new Set(ids as string[])],
        decision: decision as ReviewDecision,
        reviewer: ctx.state.user.id,
        reason,
      });
      ctx.status = 202;
      ctx.body = bulkBody(result);
    },
  );

  for (const decision of REVIEW_DECISIONS) {
    defineRoute(
      router,
      {
        method: 'POST',
        path: `/api/review-queue/:lead_id/${decision}`,
        permission: 'leads:write',
        rateLimit: 'update_lead',
      },
      async (ctx) => {
        const body = objectBody(ctx.request.body as unknown);
        const details: ErrorDetail[] = [];
        onlyKnown(body, ['reason'], details);
        const reason = reasonOf(body, decision === 'reject', details);
        if (details.length > 0) throw invalid(details);
        const id = String(ctx.params['lead_id']);
        const result = await decideReviews(decide, {
          tenant: ctx.state.tenant,
          ids: [id],
          decision,
          reviewer: ctx.state.user.id,
          reason,
        });
        const outcome = result.results[0];
        if (!outcome?.success) {
          const code = outcome?.error.code ?? 'LEAD_NOT_FOUND';
          if (code === 'LEAD_NOT_FOUND') throw new DomainError('LEAD_NOT_FOUND', 'Lead not found');
          throw new DomainError('LEAD_NOT_IN_REVIEW', outcome?.error.message ?? 'The lead is not waiting for review');
        }
        ctx.status = 202;
        ctx.body = { data: { lead_id: id, decision, reviewer: ctx.state.user.id, reason, status: 'deciding' } };
      },
    );
  }

  return router;
}

function bulkBody(result: ReviewDecisionResult): Record<string, unknown> {
  return { success: true, decided: result.succeeded, failed: result.failed, results: result.results };
}
