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
import Router from '@koa/router';
import type { Dal, FunnelLinkRepository } from '@leadstream/dal';
import { DomainError, RATE_LIMITS, type TenantContext } from '@leadstream/domain';
import type { Analytics } from '@leadstream/ports';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { apiKeyAuth, environmentOfPath, rateLimit, type ApiKeyAuthState, type SessionGuard } from '../auth';
import type { CachedConfig } from '../config/cached-config';
import { FunnelQueries } from './funnel.queries';
import { FunnelReports } from './funnel.reports';
import {
  createFunnelLink,
  deleteFunnelLink,
  FUNNEL_REPORTS,
  getFunnelReport,
  hasFunnelLinks,
  listFunnelLinks,
  parseFunnelReportQuery,
} from './use-cases';

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

/** A session token (with the permission) or an API key (with the key permission), then the plan's funnel limit. */
function funnelAccess(
  deps: FunnelRoutesDependencies,
  clock: () => Date,
): (kind: 'read' | 'write') => Middleware<FunnelState> {
  const keyAuth = {
    read: apiKeyAuth<object>(
      { apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger },
      'read',
    ),
    write: apiKeyAuth<object>(
      { apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger },
      'write',
    ),
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

  return (kind) => async (ctx, next) => {
    const token = BEARER.exec(ctx.get('Authorization'))?.[1];
    if (token?.startsWith('vk_')) {
      await keyAuth[kind](ctx as never, async () => {
        const { apiKey, tenant } = ctx.state as ApiKeyAuthState;
        await admit(
          ctx,
          { tenant, subject: `key:${apiKey.id}`, vendorId: apiKey.vendor_id, rateLimit: apiKey.rate_limit },
          next,
        );
      });
      return;
    }
    const session = await deps.guard.authenticate(ctx);
    // A user's request counts against the general API limit too, as on every user-API route.
    await deps.guard.countRequest(ctx, session.user.id);
    deps.guard.authorize(session, kind === 'read' ? 'analytics:read' : 'vendors:write');
    const tenant: TenantContext = {
      organizationId: session.user.organization_id,
      environment: environmentOfPath(ctx.path),
    };
    await admit(ctx, { tenant, subject: `user:${session.user.id}`, vendorId: null, rateLimit: null }, next);
  };
}

export function funnelRouter(deps: FunnelRoutesDependencies): Router {
  const clock = deps.clock ?? (() => new Date());
  const access = funnelAccess(deps, clock);
  const useCaseDeps = {
    vendors: deps.dal.vendors,
    links: deps.links,
    reports: new FunnelReports(new FunnelQueries(deps.analytics)),
    clock,
  };
  const callerOf = (ctx: FunnelContext) => ({ tenant: ctx.state.funnel.tenant, vendorId: ctx.state.funnel.vendorId });

  const router = new Router<FunnelState>();
  for (const prefix of ['', '/sandbox']) {
    router.get(`${prefix}/api/vendor-funnel-links`, access('read'), async (ctx) => {
      const { links, vendorNames } = await listFunnelLinks(useCaseDeps, callerOf(ctx));
      ctx.body = {
        success: true,
        data: links.map((link) => ({
          id: link.id,
          inquiryVendorId: link.inquiryVendorId,
          inquiryVendorName: vendorNames.get(link.inquiryVendorId),
          applicationVendorId: link.applicationVendorId,
          applicationVendorName: vendorNames.get(link.applicationVendorId),
          timeWindowHours: link.timeWindowHours,
          createdAt: link.createdAt,
        })),
      };
    });

    router.get(`${prefix}/api/vendor-funnel-links/has-links`, access('read'), async (ctx) => {
      ctx.body = { success: true, hasLinks: await hasFunnelLinks(useCaseDeps, callerOf(ctx)) };
    });

    router.post(`${prefix}/api/vendor-funnel-links`, access('write'), async (ctx) => {
      const link = await createFunnelLink(useCaseDeps, { ...callerOf(ctx), body: ctx.request.body });
      ctx.status = 201;
      ctx.body = { success: true, data: link };
    });

    router.delete(`${prefix}/api/vendor-funnel-links/:id`, access('write'), async (ctx) => {
      await deleteFunnelLink(useCaseDeps, { ...callerOf(ctx), linkId: String(ctx.params['id']) });
      ctx.body = { success: true, message: 'Funnel link deleted' };
    });

    for (const report of FUNNEL_REPORTS) {
      router.get(`${prefix}/api/analytics/funnel/${report}`, access('read'), async (ctx) => {
        const query = parseFunnelReportQuery(ctx.query, report, clock());
        ctx.body = { success: true, data: await getFunnelReport(useCaseDeps, { ...callerOf(ctx), report, query }) };
      });
    }
  }
  return router;
}
