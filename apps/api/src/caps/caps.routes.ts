/**
 * Volume caps of the user API (docs/caps.md):
 *   GET    /api/caps              {data:[cap]} oldest first
 *   POST   /api/caps              201 {data: cap}
 *   GET    /api/caps/:id          {data: cap}
 *   PATCH  /api/caps/:id          {data: cap}     any subset of the cap's fields
 *   DELETE /api/caps/:id          204
 *   GET    /api/caps/:id/usage    {data:{cap_id, period_start, period_end, count, maximum, remaining}}
 * Owners and admins write (caps:write); managers and viewers read (caps:read). And for vendors,
 * with an API key of `read` permission:
 *   GET    /api/vendor-portal/caps  {data:[{id, name, maximum, ..., period_start, period_end, count, remaining}]}
 *                                   the caps on the calling vendor only (errors in the ingestion convention)
 */
import Router from '@koa/router';
import { CapCounterRepository, CapRepository, type CustomFieldRepository, type Dal } from '@leadstream/dal';
import { capsClock } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import type Koa from 'koa';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import {
  apiKeyAuth,
  defineRoute,
  perApiKey,
  rateLimit,
  UserRouter,
  type ApiKeyAuthState,
  type SessionGuard,
} from '../auth';
import type { CachedConfig } from '../config/cached-config';
import { capUsage, createCap, deleteCap, getCap, listCaps, updateCap, vendorCaps } from './caps.use-cases';

export interface CapsMountDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  dal: Dal;
  /** Keys and vendors of the vendor portal's authentication, from the configuration cache. */
  config: CachedConfig;
  customFields: Pick<CustomFieldRepository, 'list'>;
  configCache: Pick<ConfigCache, 'changed'>;
  logger: Logger;
  clock?: () => Date;
}

export function mountCaps(app: Koa, deps: CapsMountDependencies): void {
  // The caps' periods by the clock the enrich stage counts with (CAPS_CLOCK_OFFSET_MS, tests).
  const clock = deps.clock ?? capsClock(process.env);
  const useCaseDeps = {
    caps: new CapRepository(deps.store),
    counters: new CapCounterRepository(deps.store),
    vendors: deps.dal.vendors,
    organizations: deps.dal.organizations,
    customFields: deps.customFields,
    configCache: deps.configCache,
    clock,
  };
  const router = new UserRouter(deps.guard);
  const id = (ctx: Context): string => String(ctx.params['id']);

  defineRoute(router, { method: 'GET', path: '/api/caps', permission: 'caps:read' }, async (ctx) => {
    ctx.body = { data: await listCaps(useCaseDeps, ctx.state.tenant) };
  });
  defineRoute(router, { method: 'POST', path: '/api/caps', permission: 'caps:write' }, async (ctx) => {
    ctx.status = 201;
    ctx.body = { data: await createCap(useCaseDeps, ctx.state.tenant, ctx.request.body) };
  });
  defineRoute(router, { method: 'GET', path: '/api/caps/:id', permission: 'caps:read' }, async (ctx) => {
    ctx.body = { data: await getCap(useCaseDeps, ctx.state.tenant, id(ctx)) };
  });
  defineRoute(router, { method: 'PATCH', path: '/api/caps/:id', permission: 'caps:write' }, async (ctx) => {
    ctx.body = { data: await updateCap(useCaseDeps, ctx.state.tenant, id(ctx), ctx.request.body) };
  });
  defineRoute(router, { method: 'DELETE', path: '/api/caps/:id', permission: 'caps:write' }, async (ctx) => {
    await deleteCap(useCaseDeps, ctx.state.tenant, id(ctx));
    ctx.status = 204;
  });
  defineRoute(router, { method: 'GET', path: '/api/caps/:id/usage', permission: 'caps:read' }, async (ctx) => {
    const cap = await getCap(useCaseDeps, ctx.state.tenant, id(ctx));
    ctx.body = { data: await capUsage(useCaseDeps, ctx.state.tenant.organizationId, cap) };
  });
  app.use(router.routes());
  app.use(router.allowedMethods());

  const portal = new Router();
  const auth = apiKeyAuth<object>(
    { apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, logger: deps.logger },
    'read',
  );
  const general = rateLimit<ApiKeyAuthState>('general_api', deps.dal.rateLimiter, perApiKey);
  portal.get('/api/vendor-portal/caps', auth, general, async (ctx: Context & { state: ApiKeyAuthState }) => {
    ctx.body = { data: await vendorCaps(useCaseDeps, ctx.state.tenant.organizationId, ctx.state.vendorId) };
  });
  app.use(portal.routes());
  app.use(portal.allowedMethods());
}
