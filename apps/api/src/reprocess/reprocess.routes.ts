/**
 * Reprocessing of leads already stored with the current rules (docs/reprocessing.md):
 *   POST /api/reprocess              start a job `{filter, stages, dry_run}`: 202 {data: job}    (rules:write)
 *   GET  /api/reprocess/:id          the job: progress, and a dry run's differences        (leads:read)
 *   POST /api/reprocess/:id/cancel   stop a queued or running job: 200 {data: job}          (rules:write)
 */
import type Koa from 'koa';
import { ReprocessJobRepository } from '@leadstream/dal';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import {
  cancelReprocessJob,
  getReprocessJob,
  reprocessJobView,
  startReprocessing,
  type ReprocessJobsDeps,
} from './use-cases';

export interface ReprocessRoutesDependencies extends Omit<ReprocessJobsDeps, 'clock'> {
  guard: SessionGuard;
  clock?: () => Date;
}

export function reprocessRouter(deps: ReprocessRoutesDependencies): UserRouter {
  const useCaseDeps: ReprocessJobsDeps = { jobs: deps.jobs, log: deps.log, clock: deps.clock ?? (() => new Date()) };
  const router = new UserRouter(deps.guard);

  defineRoute(router, { method: 'POST', path: '/api/reprocess', permission: 'rules:write' }, async (ctx) => {
    const job = await startReprocessing(useCaseDeps, {
      tenant: ctx.state.tenant,
      actor: ctx.state.user,
      body: ctx.request.body,
    });
    ctx.status = 202;
    ctx.body = { data: reprocessJobView(job) };
  });

  defineRoute(router, { method: 'GET', path: '/api/reprocess/:id', permission: 'leads:read' }, async (ctx) => {
    const job = await getReprocessJob(useCaseDeps, { tenant: ctx.state.tenant, id: String(ctx.params['id']) });
    ctx.body = { data: reprocessJobView(job) };
  });

  defineRoute(router, { method: 'POST', path: '/api/reprocess/:id/cancel', permission: 'rules:write' }, async (ctx) => {
    const job = await cancelReprocessJob(useCaseDeps, { tenant: ctx.state.tenant, id: String(ctx.params['id']) });
    ctx.body = { data: reprocessJobView(job) };
  });

  return router;
}

/** Mounts the reprocessing routes (api.app.ts). */
export function mountReprocess(app: Koa, deps: { guard: SessionGuard; store: DocumentStore; log: EventLog }): void {
  const router = reprocessRouter({ guard: deps.guard, jobs: new ReprocessJobRepository(deps.store), log: deps.log });
  app.use(router.routes());
  app.use(router.allowedMethods());
}
