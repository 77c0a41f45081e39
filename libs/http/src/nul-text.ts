/**
 * Refuses request text containing the NUL character (U+0000), in a JSON body (values and keys, at
 * any depth) or a query parameter, with 400 VALIDATION_ERROR naming where. No lead, name or rule
 * needs it, and PostgreSQL-backed MongoDB servers (FerretDB) cannot store it: refusing it at the
 * edge keeps every engine's answer the same (docs/decisions.md).
 */
import { DomainError } from '@leadstream/domain';
import type { Middleware } from 'koa';

const NUL = '\u0000';

function nulPath(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, [...path, String(index)]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) return [...path, key.replaceAll(NUL, '\\u0000')];
      const found = nulPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

export function refuseNulText(): Middleware {
  return async (ctx, next) => {
    // JSON bodies only: form bodies are OAuth's token requests, whose unknown parameters are ignored (RFC 6749).
    const inQuery = nulPath(ctx.query, []);
    const path = inQuery ?? (ctx.is('application/json') ? nulPath(ctx.request.body, []) : undefined);
    if (path) {
      const field = path.join('.') || '(body)';
      throw new DomainError('VALIDATION_ERROR', inQuery ? 'Invalid query parameters' : 'Validation failed', [
        { field, message: `${field} must not contain the NUL character (U+0000)` },
      ]);
    }
    await next();
  };
}
