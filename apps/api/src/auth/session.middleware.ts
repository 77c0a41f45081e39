/**
 * Authentication of the user API by session token (docs/api-conventions.md "Authentication"):
 * `Authorization: Bearer <token>`.
 *
 * | case | answer |
 * |---|---|
 * | no Bearer header, malformed token, bad signature, `alg: none` or another algorithm | 401 TOKEN_INVALID |
 * | token past its 24 h | 401 TOKEN_EXPIRED |
 * | token revoked (logout, refresh), user deleted or not yet active, password reset since issue | 401 TOKEN_INVALID |
 * | more than the general API limit (100/min) of this user, or the route's own limit | 429 RATE_LIMIT_EXCEEDED |
 * | the user's role lacks the route's permission | 403 INSUFFICIENT_PERMISSIONS |
 *
 * Permissions come from the user's current role in the store, not from the token's `role` claim,
 * so a demotion takes effect at the next request.
 *
 * OAuth access tokens (docs/decisions.md "OAuth 2.0") pass the same guard: their grant must not be
 * revoked (else 401 TOKEN_INVALID), the route's permission must be among their scopes as well as in
 * the user's role (else 403 INSUFFICIENT_PERMISSIONS), and routes open to any signed-in user
 * (refresh, logout) refuse them, so an application cannot turn its token into a full session.
 */
import type { RateLimiter, SessionRepository, UserRepository } from '@leadstream/dal';
import {
  DomainError,
  hasPermission,
  RATE_LIMITS,
  sessionGeneration,
  type Permission,
  type RateLimitScope,
  type TenantContext,
  type User,
} from '@leadstream/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { enforceRateLimit, type RateLimitHeaders } from './rate-limit.middleware';
import type { SessionClaims, SessionTokens } from './session-tokens';

export interface UserSessionState {
  user: User;
  /** The user API works on the live environment; sandbox data is reached with vk_test_ keys. */
  tenant: TenantContext;
  session: SessionClaims;
}

export interface SessionDependencies {
  tokens: SessionTokens;
  users: Pick<UserRepository, 'findById'>;
  sessions: Pick<SessionRepository, 'isRevoked'>;
  limiter: Pick<RateLimiter, 'consume'>;
  /** Whether an OAuth grant still holds; without it OAuth access tokens are refused. */
  oauthGrants?: { isGrantActive(grantId: string): Promise<boolean> };
  /** Requests per minute per user on the user API (the general API limit, 100). */
  generalApiLimit?: number;
  clock?: () => Date;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** What every user-API route declares: a permission, any signed-in user, or nobody (public). */
export type RouteAccess = Permission | 'authenticated' | 'public';

export class SessionGuard {
  constructor(private readonly deps: SessionDependencies) {}

  /**
   * Counts a request of a user against the general API limit and, when the route names a rate-limit
   * scope of its own (list leads 100, get lead 200, ...), against that scope's limit too: the
   * route limits apply in addition to the general one. Throws RATE_LIMIT_EXCEEDED for the first
   * limit that refuses; the general one is counted first, so a refusal by it spends nothing of the
   * route's.
   */
  async countRequest(ctx: RateLimitHeaders, userId: string, scope: RateLimitScope = 'general_api'): Promise<void> {
    const now = this.deps.clock?.() ?? new Date();
    await enforceRateLimit(
      ctx,
      this.deps.limiter,
      'general_api',
      { subject: userId, limit: this.deps.generalApiLimit ?? RATE_LIMITS.general_api },
      now,
    );
    if (scope !== 'general_api')
      await enforceRateLimit(ctx, this.deps.limiter, scope, { subject: userId, limit: RATE_LIMITS[scope] }, now);
  }

  /** Verifies the Bearer token and loads its user; throws TOKEN_INVALID or TOKEN_EXPIRED. */
  async authenticate(ctx: ParameterizedContext): Promise<UserSessionState> {
    const match = BEARER.exec(ctx.get('Authorization'));
    if (!match?.[1])
      throw new DomainError('TOKEN_INVALID', 'Authentication required: send Authorization: Bearer <token>');
    const claims = await this.deps.tokens.verify(match[1]);
    if (await this.deps.sessions.isRevoked(claims.tokenId))
      throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
    if (claims.oauth && !(await this.deps.oauthGrants?.isGrantActive(claims.oauth.grantId)))
      throw new DomainError('TOKEN_INVALID', 'Access token has been revoked');
    const tenant: TenantContext = { organizationId: claims.organizationId, environment: 'live' };
    const user = await this.deps.users.findById(tenant, claims.userId);
    if (!user || user.status !== 'active') throw new DomainError('TOKEN_INVALID', 'Session token is invalid');
    // A password reset moves the user to the next session generation: every token issued before it,
    // however close in time, carries an earlier one. A token without one counts as generation 0.
    if ((claims.sessionGeneration ?? 0) !== sessionGeneration(user))
      throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
    // Tokens signed before generations existed are also refused when issued before the last password
    // change (to the second, as iat); this check has nothing left to do once such tokens have expired.
    if (
      claims.sessionGeneration === undefined &&
      user.password_changed_at &&
      claims.issuedAt.getTime() < Math.floor(user.password_changed_at.getTime() / 1000) * 1000
    ) {
      throw new DomainError('TOKEN_INVALID', 'Session has ended; log in again');
    }
    return { user, tenant, session: claims };
  }

  /** The guard of a route: authentication, the per-user limits, then the permission. */
  requireUser(
    permission: Permission | 'authenticated',
    scope: RateLimitScope = 'general_api',
  ): Middleware<UserSessionState> {
    return async (ctx, next) => {
      const state = await this.authenticate(ctx);
      ctx.state.user = state.user;
      ctx.state.tenant = state.tenant;
      ctx.state.session = state.session;
      await this.countRequest(ctx, state.user.id, scope);
      this.authorize(state, permission);
      await next();
    };
  }

  /** Throws INSUFFICIENT_PERMISSIONS unless the user's role (and an OAuth token's scopes) include the permission. */
  authorize(state: UserSessionState, permission: Permission | 'authenticated'): void {
    const scopes: readonly string[] | undefined = state.session.oauth?.scopes;
    if (scopes && (permission === 'authenticated' || !scopes.includes(permission))) {
      throw new DomainError(
        'INSUFFICIENT_PERMISSIONS',
        permission === 'authenticated'
          ? 'OAuth access tokens cannot be used on this route'
          : `The access token's scopes do not include '${permission}'`,
      );
    }
    if (permission !== 'authenticated' && !hasPermission(state.user.role, permission)) {
      throw new DomainError(
        'INSUFFICIENT_PERMISSIONS',
        `Your role (${state.user.role}) lacks the '${permission}' permission`,
      );
    }
  }
}

/** `requireUser(guard, permission)`: the route middleware, for routers not built with defineRoute. */
export function requireUser(
  guard: SessionGuard,
  permission: Permission | 'authenticated',
): Middleware<UserSessionState> {
  return guard.requireUser(permission);
}
