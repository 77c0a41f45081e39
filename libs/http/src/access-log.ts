import type { Metrics } from '@leadstream/runtime';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { RequestIdState } from './request-id';

/**
 * One structured log line and one latency observation per request. The route label is the
 * router's template (e.g. `/api/leads/:id`), never the raw path, to keep label cardinality bounded.
 */
export function accessLog(logger: Logger, metrics: Metrics): Middleware<RequestIdState> {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute ?? (ctx.status === 404 ? 'unmatched' : ctx.path);
      metrics.httpDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
      const entry = {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round(seconds * 1e4) / 10,
      };
      if (ctx.status >= 500) logger.error(entry, 'request');
      else logger.debug(entry, 'request');
    }
  };
}
