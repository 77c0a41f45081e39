import { DomainError, pathBeyondDepth } from '@leadstream/domain';
import type { Middleware } from 'koa';

/** How many levels any JSON request body may nest (the body itself is level 1); see docs/decisions.md. */
export const MAX_JSON_BODY_DEPTH = 32;

/** How much of the path to the too-deep value the answer names: enough to find it, never thousands of segments. */
const NAMED_SEGMENTS = 3;

/**
 * Refuses a parsed JSON body that nests deeper than `maxDepth` with 400 VALIDATION_ERROR naming
 * where, before any route sees it. The parser (JSON.parse) is iterative and takes any depth within
 * the body limit; what comes after it (JSON.stringify, schema checks, the store's JSON functions)
 * recurses, so nothing over the limit may pass the edge.
 */
export function limitJsonDepth(maxDepth = MAX_JSON_BODY_DEPTH): Middleware {
  return async (ctx, next) => {
    const path = pathBeyondDepth(ctx.request.body, maxDepth);
    if (path) {
      const field = path.slice(0, NAMED_SEGMENTS).join('.') || '(body)';
      throw new DomainError('VALIDATION_ERROR', 'Validation failed', [
        { field, message: `${field} nests deeper than the ${maxDepth} levels a request body may have` },
      ]);
    }
    await next();
  };
}
