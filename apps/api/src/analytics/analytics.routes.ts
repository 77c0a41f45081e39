/**
 * General analytics (the bodies are ours, docs/analytics.md), user API
 * convention, session token with `analytics:read`:
 *   GET /api/analytics                          totals, rejection reasons, vendors
 *   GET /api/analytics/executive-summary        this period against the previous one
 *   GET /api/analytics/source-performance       ?groupBy=source|utm_source|utm_medium|utm_campaign|program|vendor
 *   GET /api/analytics/conversion-funnel        submitted → valid → accepted → converted
 *   GET /api/analytics/lead-volume-trend        ?interval=day|week|month
 *   GET /api/analytics/vendor-roi               spend (cost per lead × accepted) against conversions
 * Every one takes startDate and endDate as the funnel reports do (default the last 30 days).
 */
import type { FunnelLinkRepository, VendorRepository } from '@leadstream/dal';
import { DomainError, parseAnalyticsQuery, type AnalyticsQuery } from '@leadstream/domain';
import type { Analytics } from '@leadstream/ports';
import type { Context } from 'koa';
import { defineRoute, UserRouter, type SessionGuard, type UserSessionState } from '../auth';
import { FunnelQueries } from '../funnel/funnel.queries';
import { funnelScope } from '../funnel/funnel.scope';
import { AnalyticsQueries } from './analytics.queries';
import { AnalyticsReports, type AnalyticsScope } from './analytics.reports';

export interface AnalyticsRoutesDependencies {
  guard: SessionGuard;
  vendors: Pick<VendorRepository, 'list'>;
  links: Pick<FunnelLinkRepository, 'list'>;
  analytics: Analytics;
  clock?: () => Date;
}

type AnalyticsContext = Context & { state: UserSessionState };

export function analyticsRouter(deps: AnalyticsRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const reports = new AnalyticsReports(new AnalyticsQueries(deps.analytics), new FunnelQueries(deps.analytics));
  const router = new UserRouter(deps.guard);

  const scopeOf = (ctx: AnalyticsContext): Promise<AnalyticsScope> =>
    funnelScope(deps.vendors, deps.links, ctx.state.tenant, null);

  const report = (
    path: string,
    build: (scope: AnalyticsScope, query: AnalyticsQuery) => Promise<Record<string, unknown>>,
  ): void => {
    defineRoute(router, { method: 'GET', path, permission: 'analytics:read' }, async (ctx) => {
      const query = parseAnalyticsQuery(ctx.query, clock());
      if (!query.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid query parameters', query.details);
      ctx.body = { data: await build(await scopeOf(ctx), query.value) };
    });
  };

  report('/api/analytics', (scope, { period }) => reports.overview(scope, period));
  report('/api/analytics/executive-summary', (scope, { period }) => reports.executiveSummary(scope, period));
  report('/api/analytics/source-performance', (scope, { period, groupBy }) =>
    reports.sourcePerformance(scope, period, groupBy),
  );
  report('/api/analytics/conversion-funnel', (scope, { period }) => reports.conversionFunnel(scope, period));
  report('/api/analytics/lead-volume-trend', (scope, { period, interval }) =>
    reports.leadVolumeTrend(scope, period, interval),
  );
  report('/api/analytics/vendor-roi', (scope, { period }) => reports.vendorRoi(scope, period));
  return router;
}
