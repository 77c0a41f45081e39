import { accessLog, errorHandler, opsRoutes, requestId, type ReadinessCheck } from '@leadstream/http';
import type { Analytics, DocumentStore, EventLog } from '@leadstream/ports';
import type { Metrics } from '@leadstream/runtime';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';

export interface ApiDependencies {
  log: EventLog;
  store: DocumentStore;
  analytics: Analytics;
  logger: Logger;
  metrics: Metrics;
  readiness: ReadinessCheck[];
  isStopping: () => boolean;
  /** Largest accepted request body (spec is silent; see docs/decisions.md). */
  bodyLimit?: string;
}

/**
 * The Koa application behind {base_url}, {vendor_base_url} and the sandbox. Routes are thin:
 * authenticate, check the body, produce a command or read the store, answer.
 */
export function createApiApp(deps: ApiDependencies): Koa {
  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.use(requestId());
  app.use(accessLog(deps.logger, deps.metrics));
  app.use(errorHandler(deps.logger));
  app.use(
    koaBody({
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonLimit: deps.bodyLimit ?? '1mb',
      formLimit: '64kb',
      jsonStrict: true,
      onError: (error) => {
        throw error;
      },
    }),
  );
  const ops = opsRoutes(deps.readiness, deps.metrics, deps.isStopping);
  app.use(ops.routes());
  app.use(ops.allowedMethods());
  return app;
}
