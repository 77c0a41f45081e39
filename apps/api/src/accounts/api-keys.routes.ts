/**
 * API keys of the organization's vendors (docs/api-conventions.md "Authentication"):
 *   POST   /api/api-keys              201 key resource + `key` (the full key, shown this once)
 *          body {name, vendor_id, permissions?: [read|write] (default [write]), ip_restrictions?,
 *                rate_limit?: requests per minute, environment?: live|sandbox (default live)}
 *   GET    /api/api-keys              200 {data:[key resource]}: both environments, newest first; revoked keys
 *                                        stay listed with their revoked_at (they cannot be changed any more)
 *   PATCH  /api/api-keys/:id          200 key resource; body {name?, enabled?, permissions?, ip_restrictions?}
 *   POST   /api/api-keys/:id/rotate   200 {new_key, message}; the old key stays valid 24 h
 *   DELETE /api/api-keys/:id          204; the key is revoked (later use: 401 API_KEY_REVOKED)
 * A key resource never holds the hash: {id, name, key_preview, vendor_id, environment,
 * permissions, ip_restrictions, rate_limit, enabled, created_at, last_used_at, expires_at, revoked_at}.
 */
import type { ApiKeyRepository } from '@leadstream/dal';
import {
  type ApiKey,
  DomainError,
  readApiKeyPatch,
  readApiKeyRequest,
  type Environment,
  type TenantContext,
} from '@leadstream/domain';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { AccountsContext } from './accounts.context';

export function apiKeyResource(key: ApiKey): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    key_preview: key.key_preview,
    vendor_id: key.vendor_id,
    environment: key.environment,
    permissions: key.permissions,
    ip_restrictions: key.ip_restrictions,
    rate_limit: key.rate_limit,
    enabled: key.enabled,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
    expires_at: key.expires_at?.toISOString() ?? null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
  };
}

const ENVIRONMENTS: readonly Environment[] = ['live', 'sandbox'];
const notFound = (): DomainError => new DomainError('NOT_FOUND', 'API key not found');

/** A key of the organization in either environment, unless revoked; with the tenant it lives in. */
async function findKey(
  apiKeys: ApiKeyRepository,
  organizationId: string,
  id: string,
): Promise<{ key: ApiKey; tenant: TenantContext }> {
  for (const environment of ENVIRONMENTS) {
    const tenant: TenantContext = { organizationId, environment };
    const key = await apiKeys.findById(tenant, id);
    if (key && key.revoked_at === null) return { key, tenant };
  }
  throw notFound();
}

export function apiKeysRouter(context: AccountsContext): UserRouter {
  const router = new UserRouter(context.guard);
  const { apiKeys, vendors } = context.dal;
  const id = (params: Record<string, string | undefined>): string => params['id'] ?? '';

  defineRoute(router, { method: 'POST', path: '/api/api-keys', permission: 'api_keys:write' }, async (ctx) => {
    const input = readApiKeyRequest(ctx.request.body);
    const organizationId = ctx.state.tenant.organizationId;
    if (!(await vendors.findById(ctx.state.tenant, input.vendor_id))) {
      throw new DomainError('VALIDATION_ERROR', 'Validation failed', [
        { field: 'vendor_id', message: 'is not a vendor of this organization' },
      ]);
    }
    const issued = await apiKeys.create(
      { organizationId, environment: input.environment },
      {
        vendorId: input.vendor_id,
        name: input.name,
        permissions: input.permissions,
        ipRestrictions: input.ip_restrictions,
        rateLimit: input.rate_limit,
      },
      context.clock(),
    );
    await context.configCache.changed(organizationId, 'api_keys');
    ctx.status = 201;
    ctx.body = { data: { ...apiKeyResource(issued.apiKey), key: issued.key } };
  });

  defineRoute(router, { method: 'GET', path: '/api/api-keys', permission: 'api_keys:read' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const keys = (
      await Promise.all(ENVIRONMENTS.map((environment) => apiKeys.list({ organizationId, environment })))
    ).flat();
    keys.sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
    ctx.body = { data: keys.map(apiKeyResource) };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/api-keys/:id', permission: 'api_keys:write' }, async (ctx) => {
    const { key, tenant } = await findKey(apiKeys, ctx.state.tenant.organizationId, id(ctx.params));
    const patch = readApiKeyPatch(ctx.request.body);
    const updated = await apiKeys.update(tenant, key.id, patch);
    if (!updated) throw notFound();
    await context.configCache.changed(tenant.organizationId, 'api_keys');
    ctx.body = { data: apiKeyResource(updated) };
  });

  defineRoute(
    router,
    { method: 'POST', path: '/api/api-keys/:id/rotate', permission: 'api_keys:write' },
    async (ctx) => {
      const { key, tenant } = await findKey(apiKeys, ctx.state.tenant.organizationId, id(ctx.params));
      const rotated = await apiKeys.rotate(tenant, key.id, context.clock());
      if (!rotated) throw notFound();
      await context.configCache.changed(tenant.organizationId, 'api_keys');
      ctx.body = { new_key: rotated.key, message: 'API key rotated: the old key remains valid for 24 hours' };
    },
  );

  defineRoute(router, { method: 'DELETE', path: '/api/api-keys/:id', permission: 'api_keys:write' }, async (ctx) => {
    const { key, tenant } = await findKey(apiKeys, ctx.state.tenant.organizationId, id(ctx.params));
    await apiKeys.revoke(tenant, key.id, context.clock());
    await context.configCache.changed(tenant.organizationId, 'api_keys');
    ctx.status = 204;
  });

  return router;
}
