import { DomainError } from '@leadstream/domain';
import type { Middleware } from 'koa';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPES = ['application/json', 'application/*+json'];
const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface RequireJsonBodyOptions {
  /** Paths (exact) that take an HTML form instead, e.g. the OAuth token endpoint. */
  formPaths?: readonly string[];
  /**
   * Paths that read their own non-JSON body as a stream (a CSV import); the route checks the
   * type. The JSON body parser leaves such bodies unread.
   */
  streamPaths?: readonly RegExp[];
}

/**
 * A request that sends a body must send JSON; only the paths in `formPaths` may send a form.
 * Anything else, a form included, is answered 415 in the path's convention before the body is
 * read, so it is never read as a lead or as an empty body. A body sent chunked (no Content-Length)
 * counts as a body.
 */
export function requireJsonBody(options: RequireJsonBodyOptions = {}): Middleware {
  const formPaths = new Set(options.formPaths ?? []);
  const streamPaths = options.streamPaths ?? [];
  return async (ctx, next) => {
    const hasBody = WITH_BODY.has(ctx.method) && ((ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '');
    if (hasBody && !streamPaths.some((pattern) => pattern.test(ctx.path))) {
      const types = formPaths.has(ctx.path) ? [...JSON_TYPES, FORM_TYPE] : JSON_TYPES;
      if (!ctx.is(types)) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json');
    }
    await next();
  };
}
