/**
 * Reprocessing of leads already stored with the current rules (docs/reprocessing.md):
 *   POST /api/reprocess              start a job `{filter, stages, dry_run}`: 202 {data: job}    (rules:write)
 *   GET  /api/reprocess/:id          the job: progress, and a dry run's differences        (leads:read)
 *   POST /api/reprocess/:id/cancel   stop a queued or running job: 200 {data: job}          (rules:write)
 *
 * The job is stored (queued), then the `reprocess` stage is asked for it on reprocess.requests,
 * as exports and recalculation jobs are. Jobs belong to a tenant: another's is 404.
 */
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import { REPROCESS_STAGES, ReprocessJobRepository, type ReprocessJob, type ReprocessStageName } from '@leadstream/dal';
import { DomainError, parseExportRequest, type ErrorDetail, type ExportFilters } from '@leadstream/domain';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { REPROCESS_REQUESTS_TOPIC, type ReprocessRequestMessage } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';

export interface ReprocessRoutesDependencies {
  guard: SessionGuard;
  jobs: Pick<ReprocessJobRepository, 'insert' | 'find' | 'progress' | 'requestCancel'>;
  log: Pick<EventLog, 'produce'>;
  clock?: () => Date;
}

export interface ReprocessRequest {
  filter: ExportFilters;
  stages: ReprocessStageName[];
  dry_run: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the body of POST /api/reprocess; `filter` takes the filters of the lead export. */
export function parseReprocessRequest(
  body: unknown,
): { ok: true; request: ReprocessRequest } | { ok: false; details: ErrorDetail[] } {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body))
    if (!['filter', 'stages', 'dry_run'].includes(key))
      details.push({ field: key, message: `${key} is not a known field` });
  let filter: ExportFilters = {};
  const parsed = parseExportRequest({ filters: body['filter'] ?? {} });
  if (parsed.ok) filter = parsed.request.filters;
  else
    details.push(...parsed.details.map((detail) => ({ ...detail, field: detail.field.replace(/^filters/, 'filter') })));
  const stages = body['stages'];
  let chosen: ReprocessStageName[] = [];
  if (!Array.isArray(stages) || stages.length === 0)
    details.push({ field: 'stages', message: `stages must be a non-empty array of ${REPROCESS_STAGES.join(', ')}` });
  else {
    const unknown = stages.filter((stage) => !(REPROCESS_STAGES as readonly unknown[]).includes(stage));
    if (unknown.length > 0)
      details.push({ field: 'stages', message: `unknown stages: ${unknown.map(String).join(', ')}` });
    // In pipeline order, each once.
    chosen = REPROCESS_STAGES.filter((stage) => stages.includes(stage));
    if (chosen.includes('crm-sync') && !chosen.includes('route'))
      details.push({ field: 'stages', message: 'crm-sync needs route: a CRM sync follows a changed route' });
  }
  const dryRun = body['dry_run'] ?? false;
  if (typeof dryRun !== 'boolean') details.push({ field: 'dry_run', message: 'dry_run must be a boolean' });
  if (details.length > 0) return { ok: false, details };
  return { ok: true, request: { filter, stages: chosen, dry_run: dryRun as boolean } };
}

/** The job as the API shows it. */
export function reprocessJobView(job: ReprocessJob): Record<string, unknown> {
  return {
    id: job._id,
    status: job.status,
    filter: job.filter,
    stages: job.stages,
    dry_run: job.dry_run,
    total: job.total,
    done: job.done,
    changed: job.changed,
    failed: job.failed,
    crm_syncs: job.crm_syncs,
    field_counts: job.field_counts,
    sample: job.sample,
    cancel_requested: job.cancel_requested,
    error: job.error,
    created_by: job.user_id,
    created_at: job.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
  };
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Reprocessing job not found');

export function reprocessRouter(deps: ReprocessRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);

  defineRoute(router, { method: 'POST', path: '/api/reprocess', permission: 'rules:write' }, async (ctx) => {
    const parsed = parseReprocessRequest(ctx.request.body);
    if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid reprocessing request', parsed.details);
    const { tenant } = ctx.state;
    const job: ReprocessJob = {
      _id: `reproc_${randomUUID().replace(/-/g, '')}`,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      user_id: ctx.state.user.id,
      ...parsed.request,
      status: 'queued',
      total: null,
      done: 0,
      changed: 0,
      failed: 0,
      field_counts: {},
      sample: [],
      crm_syncs: 0,
      cancel_requested: false,
      error: null,
      created_at: clock().toISOString(),
      started_at: null,
      completed_at: null,
    };
    // Stored before the request is produced, so the stage always finds what it is asked for.
    await deps.jobs.insert(job);
    const message: ReprocessRequestMessage = {
      schema_version: 1,
      job_id: job._id,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
    };
    try {
      await deps.log.produce(REPROCESS_REQUESTS_TOPIC, [{ key: job._id, value: JSON.stringify(message) }]);
    } catch (error) {
      const failed = { status: 'failed' as const, error: 'The job could not be queued', completed_at: job.created_at };
      await deps.jobs.progress(job, failed).catch(() => undefined);
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        `Reprocessing is unavailable right now; try again (${error instanceof Error ? error.name : 'error'})`,
      );
    }
    ctx.status = 202;
    ctx.body = { data: reprocessJobView(job) };
  });

  defineRoute(router, { method: 'GET', path: '/api/reprocess/:id', permission: 'leads:read' }, async (ctx) => {
    const job = await deps.jobs.find(ctx.state.tenant, String(ctx.params['id']));
    if (!job) throw notFound();
    ctx.body = { data: reprocessJobView(job) };
  });

  defineRoute(router, { method: 'POST', path: '/api/reprocess/:id/cancel', permission: 'rules:write' }, async (ctx) => {
    const id = String(ctx.params['id']);
    // A job that has ended is answered as it is: cancelling is idempotent.
    const asked = await deps.jobs.requestCancel(ctx.state.tenant, id, clock().toISOString());
    if (asked === null) throw notFound();
    const job = await deps.jobs.find(ctx.state.tenant, id);
    if (!job) throw notFound();
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
