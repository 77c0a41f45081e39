/**
 * Authentication of the vendor API by API key (docs/api-conventions.md "Authentication"):
 * `Authorization: Bearer <API_KEY>`.
 *
 * | case | answer |
 * |---|---|
 * | header missing, key unknown or malformed, key disabled, rotated key past its 24 h | 401 API_KEY_INVALID |
 * | key revoked | 401 API_KEY_REVOKED |
 * | vk_test_ key outside /sandbox, vk_live_ key under /sandbox | 401 API_KEY_INVALID naming the right base URL |
 * | client address outside the key's IP restrictions | 403 IP_RESTRICTED |
 * | key lacks the route's permission | 403 INSUFFICIENT_PERMISSIONS |
 * | the key's vendor is disabled | 403 INSUFFICIENT_PERMISSIONS 'Vendor is disabled' |
 *
 * The client address is `ctx.ip`, the socket's peer unless `app.proxy` is on. Behind a reverse
 * proxy or load balancer, turn `app.proxy` on (and trust only that proxy), or every request
 * appears to come from the proxy; with it off, an `X-Forwarded-For` header is ignored, so a
 * client cannot claim an allowed address.
 *
 * Recording the key's use (`last_used_at`) never fails the request: a failed write is logged as a
 * warning with code `api_key_last_used_write_failed`, the key and its organization.
 */
import type { ApiKeyRepository, VendorRepository } from '@leadstream/dal';
import {
  type ApiKey,
  type ApiKeyPermission,
  checkKeyUsable,
  DomainError,
  type Environment,
  hashApiKey,
  ipAllowed,
  isWellFormedApiKey,
  requirePermission,
  type TenantContext,
} from '@leadstream/domain';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';

export interface ApiKeyAuthState {
  apiKey: ApiKey;
  tenant: TenantContext;
  vendorId: string;
}

export interface ApiKeyAuthDependencies {
  apiKeys: Pick<ApiKeyRepository, 'findByHash' | 'touchLastUsed'>;
  vendors: Pick<VendorRepository, 'findById'>;
  clock?: () => Date;
  /** Where a failed `last_used_at` write is reported (required: it never fails the request, so this is the only trace of it). */
  logger: Pick<Logger, 'warn'>;
}

const SANDBOX_PREFIX = '/sandbox';
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The sandbox base URL is the production one under /sandbox, for vk_test_ keys only. */
export function environmentOfPath(path: string): Environment {
  return path === SANDBOX_PREFIX || path.startsWith(`${SANDBOX_PREFIX}/`) ? 'sandbox' : 'live';
}

function environmentMismatch(keyEnvironment: Environment, path: string): DomainError | null {
  const requestEnvironment = environmentOfPath(path);
  if (keyEnvironment === requestEnvironment) return null;
  if (keyEnvironment === 'sandbox') {
    return new DomainError(
      'API_KEY_INVALID',
      `Sandbox keys (vk_test_) work only against the sandbox base URL: use ${SANDBOX_PREFIX}${path}`,
    );
  }
  return new DomainError(
    'API_KEY_INVALID',
    `Production keys (vk_live_) do not work against the sandbox base URL: use ${path.slice(SANDBOX_PREFIX.length)}`,
  );
}

export function apiKeyAuth<StateT extends object>(
  deps: ApiKeyAuthDependencies,
  permission: ApiKeyPermission,
): Middleware<StateT & ApiKeyAuthState> {
  const clock = deps.clock ?? (() => new Date());
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('Authorization'));
    if (!match?.[1]) throw new DomainError('API_KEY_INVALID', 'API key required: send Authorization: Bearer <API_KEY>');
    const presented = match[1];
    // Malformed keys are rejected without a lookup; they get the same answer as unknown ones.
    const apiKey = isWellFormedApiKey(presented) ? await deps.apiKeys.findByHash(hashApiKey(presented)) : null;
    if (!apiKey) throw new DomainError('API_KEY_INVALID', 'Invalid API key');

    const now = clock();
    const unusable = checkKeyUsable(apiKey, now);
    if (unusable) throw unusable;
    const mismatch = environmentMismatch(apiKey.environment, ctx.path);
    if (mismatch) throw mismatch;
    if (!ipAllowed(ctx.ip, apiKey.ip_restrictions)) {
      throw new DomainError('IP_RESTRICTED', 'Request from an address outside the IP restrictions of this API key');
    }
    requirePermission(apiKey, permission);

    const tenant: TenantContext = { organizationId: apiKey.organization_id, environment: apiKey.environment };
    const vendor = await deps.vendors.findById(tenant, apiKey.vendor_id);
    // A key whose vendor is gone is as good as unknown; a disabled vendor is refused, not unknown.
    if (!vendor) throw new DomainError('API_KEY_INVALID', 'Invalid API key');
    if (!vendor.enabled) throw new DomainError('INSUFFICIENT_PERMISSIONS', 'Vendor is disabled');

    try {
      await deps.apiKeys.touchLastUsed(tenant, apiKey, now);
    } catch (error) {
      deps.logger.warn(
        {
          code: 'api_key_last_used_write_failed',
          err: error,
          api_key_id: apiKey.id,
          organization_id: tenant.organizationId,
          environment: tenant.environment,
        },
        'could not record API key use (last_used_at); the request goes on',
      );
    }
    ctx.state.apiKey = apiKey;
    ctx.state.tenant = tenant;
    ctx.state.vendorId = apiKey.vendor_id;
    await next();
  };
}
