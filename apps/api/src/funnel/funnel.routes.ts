/**
 * The funnel API (docs/analytics.md "Funnel"), in its own convention (docs/api-conventions.md):
 * success `{success:true, data}`, errors `{success:false, error, details?, requestId?}` (libs/http
 * picks it by path).
 *
 *   GET    /api/vendor-funnel-links                {data:[link with vendor names]}
 *   POST   /api/vendor-funnel-links                201 {data: link}; 400 wrong vendor type or pair linked already; 404 unknown vendor
 *   DELETE /api/vendor-funnel-links/:id            {success, message}
 *   GET    /api/vendor-funnel-links/has-links      {success, hasLinks}
 *   GET    /api/analytics/funnel/overview | time-to-convert | drop-offs | by-vendor | daily
 *
 * Reachable with a session token (reads need `analytics:read`, link changes `vendors:write`) or a
 * vendor API key (`read`, `write`): a key sees only the links its vendor is part of and the
 * numbers of those vendors, and changes only such links. The same paths under /sandbox answer
 * for the sandbox environment. Requests count against the funnel limit of the organization's plan
 * (500 or 1,000 a minute), per user or key, and a user's also against the general API limit.
 */
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import { FunnelLinkExistsError, type Dal, type FunnelLinkRepository } from '@leadstream/dal';
import { DomainError, RATE_LIMITS, parseFunnelLinkCreate, parseFunnelPeriod, parseMinAgeHours, type ErrorDetail, type FunnelPeriod, type TenantContext } from '@leadstream/domain';
import type { Analytics } from '@leadstream/ports';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { apiKeyAuth, environmentOfPath, rateLimit, type ApiKeyAuthState, type SessionGuard } from '../auth';
import type { CachedConfig } from '../config/cached-config';
import { FunnelQueries } from './funnel.queries';
import { FunnelReports, type NamedFunnelScope } from './funnel.reports';
import { funnelScope, type ScopeWithLinks } from './funnel.scope';

export interface FunnelRoutesDependencies {
  guard: SessionGuard;
  dal: Dal;
  /** Keys, vendors and organizations of authentication, from the configuration cache. */
  config: CachedConfig;
  links: FunnelLinkRepository;
  analytics: Analytics;
  /** Where API key authentication reports what it cannot let fail a request (a failed last_used_at write). */
  logger: Logger;
  clock?: () => Date;
}

/** Who is asking, however they authenticated. */
interface FunnelCaller {
  tenant: TenantContext;
  /** The rate-limit counter: `user:<id>` or `key:<id>`. */
  subject: string;
  /** An API key's vendor: the caller sees only links this vendor is part of. */
  vendorId: string | null;
  /** An API key's own limit, replacing the plan's. */
  rateLimit: number | null;
  plan: string;
}

type FunnelState = Partial<ApiKeyAuthState> & { funnel: FunnelCaller };
type FunnelContext = Context & { state: FunnelState };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

const invalid = (message: string, details: ErrorDetail[]): DomainError => new DomainError('VALIDATION_ERROR', message, details);

export function funnelRouter(deps: FunnelRoutesDependencies): Router {
  const clock = deps.clock ?? (() => new Date());
  const reports = new FunnelReports(new FunnelQueries(deps.analytics));
  const keyAuth = {
    read: apiKeyAuth<object>({ apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger }, 'read'),
    write: apiKeyAuth<object>({ apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger }, 'write'),
  };
  const limit = rateLimit<FunnelState>(
    (ctx) => (ctx.state.funnel.plan === 'enterprise' ? 'funnel_enterprise' : 'funnel_education'),
    deps.dal.rateLimiter,
    (ctx, scope) => ({ subject: ctx.state.funnel.subject, limit: ctx.state.funnel.rateLimit ?? RATE_LIMITS[scope] }),
    { clock },
  );

  async function admit(ctx: FunnelContext, caller: Omit<FunnelCaller, 'plan'>, next: Next): Promise<void> {
    const organization = await deps.config.organization(caller.tenant);
    if (!organization) throw new DomainError('TOKEN_INVALID', 'Authentication required');
    ctx.state.funnel = { ...caller, plan: organization.plan };
    await limit(ctx, next);
  }

  /** A session token (with the permission) or an API key (with the key permission). */
  const access = (kind: 'read' | 'write'): Middleware<FunnelState> => {
    return async (ctx, next) => {
      const token = BEARER.exec(ctx.get('Authorization'))?.[1];
      if (token?.startsWith('vk_')) {
        await keyAuth[kind](ctx as never, async () => {
          const { apiKey, tenant } = ctx.state as ApiKeyAuthState;
          await admit(ctx, { tenant, subject: `key:${apiKey.id}`, vendorId: apiKey.vendor_id, rateLimit: apiKey.rate_limit }, next);
        });
        return;
      }
      const session = await deps.guard.authenticate(ctx);
      // A user's request counts against the general API limit too, as on every user-API route.
      await deps.guard.countRequest(ctx, session.user.id);
      deps.guard.authorize(session, kind === 'read' ? 'analytics:read' : 'vendors:write');
      const tenant: TenantContext = { organizationId: session.user.organization_id, environment: environmentOfPath(ctx.path) };
      await admit(ctx, { tenant, subject: `user:${session.user.id}`, vendorId: null, rateLimit: null }, next);
    };
  };

  const scopeOf = (caller: FunnelCaller): Promise<ScopeWithLinks> => funnelScope(deps.dal.vendors, deps.links, caller.tenant, caller.vendorId);

  /** The report's period (and, for drop-offs, minAgeHours): every problem of the query at once. */
  const reportQuery = (ctx: FunnelContext, withMinAge: boolean): { period: FunnelPeriod; minAgeHours: number } => {
    const period = parseFunnelPeriod(ctx.query, clock());
    const minAge = withMinAge ? parseMinAgeHours(ctx.query) : ({ ok: true, value: 0 } as const);
    const details = [...(period.ok ? [] : period.details), ...(minAge.ok ? [] : minAge.details)];
    if (!period.ok || !minAge.ok) throw invalid('Invalid query parameters', details);
    return { period: period.value, minAgeHours: minAge.value };
  };

  const router = new Router<FunnelState>();
  for (const prefix of ['', '/sandbox']) {
    router.get(`${prefix}/api/vendor-funnel-links`, access('read'), async (ctx) => {
      const scope = await scopeOf(ctx.state.funnel);
      ctx.body = {
        success: true,
        data: scope.links.map((link) => ({
          id: link.id,
          inquiryVendorId: link.inquiryVendorId,
          inquiryVendorName: scope.vendorNames.get(link.inquiryVendorId),
          applicationVendorId: link.applicationVendorId,
          applicationVendorName: scope.vendorNames.get(link.applicationVendorId),
          timeWindowHours: link.timeWindowHours,
          createdAt: link.createdAt,
        })),
      };
    });

    router.get(`${prefix}/api/vendor-funnel-links/has-links`, access('read'), async (ctx) => {
      ctx.body = { success: true, hasLinks: (await scopeOf(ctx.state.funnel)).links.length > 0 };
    });

    router.post(`${prefix}/api/vendor-funnel-links`, access('write'), async (ctx) => {
      const parsed = parseFunnelLinkCreate(ctx.request.body);
      if (!parsed.ok) throw invalid('Invalid funnel link', parsed.details);
      const input = parsed.value;
      const caller = ctx.state.funnel;
      const [inquiry, application] = await Promise.all([deps.dal.vendors.findById(caller.tenant, input.inquiryVendorId), deps.dal.vendors.findById(caller.tenant, input.applicationVendorId)]);
      if (!inquiry || !application) throw new DomainError('NOT_FOUND', `Vendor ${!inquiry ? input.inquiryVendorId : input.applicationVendorId} not found`);
      const wrongTypes: ErrorDetail[] = [
        ...(inquiry.type === 'inquiry' ? [] : [{ field: 'inquiryVendorId', message: `vendor ${inquiry.name} is not of type inquiry` }]),
        ...(application.type === 'application' ? [] : [{ field: 'applicationVendorId', message: `vendor ${application.name} is not of type application` }]),
      ];
      if (wrongTypes.length > 0) throw invalid(wrongTypes.map((detail) => detail.message).join('; '), wrongTypes);
      if (caller.vendorId !== null && caller.vendorId !== inquiry.id && caller.vendorId !== application.id) {
        throw new DomainError('INSUFFICIENT_PERMISSIONS', "An API key may link only its own vendor");
      }
      try {
        ctx.body = { success: true, data: await deps.links.create(caller.tenant.organizationId, randomUUID(), input, clock()) };
        ctx.status = 201;
      } catch (error) {
        if (error instanceof FunnelLinkExistsError) throw invalid('A funnel link for this vendor pair already exists', [{ field: 'applicationVendorId', message: 'this vendor pair is linked already' }]);
        throw error;
      }
    });

    router.delete(`${prefix}/api/vendor-funnel-links/:id`, access('write'), async (ctx) => {
      const caller = ctx.state.funnel;
      const link = await deps.links.find(caller.tenant.organizationId, String(ctx.params['id']));
      const visible = link !== null && (caller.vendorId === null || caller.vendorId === link.inquiryVendorId || caller.vendorId === link.applicationVendorId);
      if (!visible || !(await deps.links.delete(caller.tenant.organizationId, link.id))) throw new DomainError('NOT_FOUND', 'Funnel link not found');
      ctx.body = { success: true, message: 'Funnel link deleted' };
    });

    const report = (path: string, build: (scope: NamedFunnelScope, query: { period: FunnelPeriod; minAgeHours: number }) => Promise<Record<string, unknown>>): void => {
      router.get(`${prefix}/api/analytics/funnel/${path}`, access('read'), async (ctx) => {
        const query = reportQuery(ctx, path === 'drop-offs');
        ctx.body = { success: true, data: await build(await scopeOf(ctx.state.funnel), query) };
      });
    };
    report('overview', (scope, { period }) => reports.overview(scope, period));
    report('time-to-convert', (scope, { period }) => reports.timeToConvert(scope, period));
    report('drop-offs', (scope, { period, minAgeHours }) => reports.dropOffs(scope, period, minAgeHours, clock()));
    report('by-vendor', (scope, { period }) => reports.byVendor(scope, period));
    report('daily', (scope, { period }) => reports.daily(scope, period));
  }
  return router;
}
