import type { Metrics } from '@leadstream/runtime';
import Koa from 'koa';
import type { Logger } from 'pino';
import { accessLog } from './access-log';
import { errorHandler } from './error-handler';
import { opsRoutes, type ReadinessCheck } from './ops.routes';
import { requestId } from './request-id';

/** The small HTTP server of processes without the API (worker, projector): health, readiness, metrics. */
export function createOpsApp(options: {
  logger: Logger;
  metrics: Metrics;
  checks: ReadinessCheck[];
  isStopping: () => boolean;
}): Koa {
  const app = new Koa();
  const router = opsRoutes(options.checks, options.metrics, options.isStopping);
  app.use(requestId());
  app.use(accessLog(options.logger, options.metrics));
  app.use(errorHandler(options.logger));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
