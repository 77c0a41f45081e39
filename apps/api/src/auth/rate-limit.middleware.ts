/**
 * Rate limits (docs/api-conventions.md "Rate limits") at the route: every response of a limited
 * route carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (unix
 * seconds); a request over the limit gets 429 RATE_LIMIT_EXCEEDED with `retry_after`, `limit` and
 * `window` in the body and a `Retry-After` header (set by the error handler from `retry_after`).
 *
 * The headers are set before the route runs, so they stay on its error responses too (the error
 * handler replaces status and body, not headers). A store failure fails the request (500) rather
 * than letting it through unlimited.
 *
 * Several limits may count one request (a user-API route counts against the general API limit
 * and against its own): the headers show the one with the fewest requests left, and a refusal
 * shows the limit that refused.
 */
import type { RateLimitDecision, RateLimiter } from '@leadstream/dal';
import { DomainError, ingestScope, RATE_LIMITS, type RateLimitScope } from '@leadstream/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import type { ApiKeyAuthState } from './api-key.middleware';

/** Whose counter a request uses, and its limit. */
export interface RateLimitTarget {
  subject: string;
  limit: number;
}

export interface RateLimitOptions {
  clock?: () => Date;
}

/** Where a limit's headers go: a Koa context. */
export interface RateLimitHeaders {
  set(field: string, value: string): void;
  response: { get(field: string): string };
}

/** Sets the rate-limit headers of a decision, unless a limit shown already has fewer requests left and this one allows the request. */
function showDecision(ctx: RateLimitHeaders, decision: RateLimitDecision): void {
  const shownRemaining = ctx.response.get('X-RateLimit-Remaining');
  if (decision.allowed && shownRemaining !== '' && Number(shownRemaining) < decision.remaining) return;
  ctx.set('X-RateLimit-Limit', String(decision.limit));
  ctx.set('X-RateLimit-Remaining', String(decision.remaining));
  ctx.set('X-RateLimit-Reset', String(decision.resetAt));
}

/** Counts one request of `target.subject` in `scope`: sets the headers, and throws RATE_LIMIT_EXCEEDED past the limit. */
export async function enforceRateLimit(
  ctx: RateLimitHeaders,
  limiter: Pick<RateLimiter, 'consume'>,
  scope: RateLimitScope,
  target: RateLimitTarget,
  now: Date,
): Promise<void> {
  const decision = await limiter.consume(scope, target.subject, target.limit, now);
  showDecision(ctx, decision);
  if (!decision.allowed) {
    throw new DomainError('RATE_LIMIT_EXCEEDED', 'Rate limit exceeded', undefined, {
      retry_after: decision.retryAfter,
      limit: decision.limit,
      window: decision.window,
    });
  }
}

export function rateLimit<StateT>(
  scope: RateLimitScope | ((ctx: ParameterizedContext<StateT>) => RateLimitScope),
  limiter: Pick<RateLimiter, 'consume'>,
  limitFor: (ctx: ParameterizedContext<StateT>, scope: RateLimitScope) => RateLimitTarget,
  options: RateLimitOptions = {},
): Middleware<StateT> {
  const clock = options.clock ?? (() => new Date());
  return async (ctx, next) => {
    const scopeName = typeof scope === 'function' ? scope(ctx) : scope;
    await enforceRateLimit(ctx, limiter, scopeName, limitFor(ctx, scopeName), clock());
    await next();
  };
}

/**
 * Counted per API key; the key's `rate_limit`, when set, replaces the scope's default. Use
 * after `apiKeyAuth`.
 */
export function perApiKey(ctx: ParameterizedContext<ApiKeyAuthState>, scope: RateLimitScope): RateLimitTarget {
  return { subject: ctx.state.apiKey.id, limit: ctx.state.apiKey.rate_limit ?? RATE_LIMITS[scope] };
}

/** The ingestion limits: single or bulk, by the key's environment (500/50 live, 100/10 sandbox). */
export function ingestionRateLimit(
  kind: 'single' | 'bulk',
  limiter: Pick<RateLimiter, 'consume'>,
  options: RateLimitOptions = {},
): Middleware<ApiKeyAuthState> {
  return rateLimit<ApiKeyAuthState>(
    (ctx) => ingestScope(kind, ctx.state.tenant.environment),
    limiter,
    perApiKey,
    options,
  );
}
