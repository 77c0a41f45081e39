import { DomainError } from '@leadstream/domain';
import type { Middleware } from 'koa';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A request that sends a body must send JSON (or a form, for the OAuth token endpoint). Anything
 * else is answered 415 in the path's convention instead of being read as an empty body.
 */
export function requireJsonBody(): Middleware {
  return async (ctx, next) => {
    const hasBody = WITH_BODY.has(ctx.method) && (ctx.request.length ?? 0) > 0;
    if (hasBody && !ctx.is('application/json', 'application/*+json', 'application/x-www-form-urlencoded')) {
      throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json');
    }
    await next();
  };
}
