/**
 * GET /api/leads/:id/timeline (leads:read, 200/min): the stages the lead passed, in order, with
 * their times and outcomes (docs/timeline.md). Takes `environment=sandbox` as the other lead reads.
 */
import type { LeadQueryRepository, SubmissionReceiptRepository, WebhookDeliveryRepository } from '@leadstream/dal';
import { DomainError, type TenantContext } from '@leadstream/domain';
import type { ParameterizedContext } from 'koa';
import { defineRoute, UserRouter, type SessionGuard, type UserSessionState } from '../auth';
import { getLeadTimeline } from './use-cases';

export interface LeadTimelineRoutesDependencies {
  guard: SessionGuard;
  queries: Pick<LeadQueryRepository, 'findVisible'>;
  receipts: Pick<SubmissionReceiptRepository, 'find'>;
  deliveries: Pick<WebhookDeliveryRepository, 'forLead'>;
}

function readTenant(ctx: ParameterizedContext<UserSessionState>): TenantContext {
  const environment = ctx.query['environment'];
  if (environment === undefined || environment === '' || environment === 'live') return ctx.state.tenant;
  if (environment === 'sandbox') return { ...ctx.state.tenant, environment: 'sandbox' };
  throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', [
    { field: 'environment', message: 'environment must be live or sandbox' },
  ]);
}

export function leadTimelineRouter(deps: LeadTimelineRoutesDependencies): UserRouter {
  const router = new UserRouter(deps.guard);
  const useCase = { find: { queries: deps.queries, receipts: deps.receipts }, deliveries: deps.deliveries };
  defineRoute(
    router,
    { method: 'GET', path: '/api/leads/:id/timeline', permission: 'leads:read', rateLimit: 'get_lead' },
    async (ctx) => {
      const entries = await getLeadTimeline(useCase, { tenant: readTenant(ctx), id: String(ctx.params['id']) });
      ctx.body = { data: entries };
    },
  );
  return router;
}
