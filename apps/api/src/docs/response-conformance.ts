/**
 * Checks each answer against the OpenAPI document (test servers only): the status must be
 * documented for the operation, and the body must match the documented schema. A contradiction
 * becomes a 500 whose message names it, so the test that provoked it fails and says why.
 */
import { findOperation, responseProblems } from '@leadstream/schemas';
import type { Middleware } from 'koa';

export const RESPONSE_CONTRADICTS_DOCUMENT = 'RESPONSE_CONTRADICTS_DOCUMENT';

/** HTML pages for people (OAuth sign-in and consent, the docs page) and the operators' probes: not operations of the API. */
const PAGES = /^\/(?:oauth\/authorize|docs|healthz|readyz|metrics)(?:\/|$)/;

export function responseConformance(): Middleware {
  return async (ctx, next) => {
    await next();
    const route = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
    if (typeof route !== 'string' || PAGES.test(route)) return; // no route matched (404/405), or a page
    const operation = findOperation(ctx.method, route);
    if (!operation) {
      fail(ctx, [`${ctx.method} ${route} is not in the operation table (schemas/api/operations.ts)`]);
      return;
    }
    const body = isJson(ctx.response.type) && typeof ctx.body === 'string' ? JSON.parse(ctx.body) : ctx.body;
    const problems = responseProblems(operation, ctx.status, isStream(body) ? '<stream>' : body);
    if (problems.length > 0) fail(ctx, problems);
  };
}

function isJson(type: string): boolean {
  return type === 'application/json';
}

function isStream(body: unknown): boolean {
  return (
    Buffer.isBuffer(body) ||
    (typeof body === 'object' && body !== null && typeof (body as { pipe?: unknown }).pipe === 'function')
  );
}

function fail(ctx: Parameters<Middleware>[0], problems: string[]): void {
  ctx.status = 500;
  ctx.body = { error: { code: RESPONSE_CONTRADICTS_DOCUMENT, message: problems.join('; ') } };
}
