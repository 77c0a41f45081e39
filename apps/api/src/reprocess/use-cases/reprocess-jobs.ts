/**
 * The use cases of reprocessing jobs (docs/reprocessing.md): start one (stored queued, then the
 * `reprocess` stage is asked for it on reprocess.requests, as exports and recalculation jobs are),
 * read one, cancel one. Jobs belong to a tenant: another's is 404.
 */
import { randomUUID } from 'node:crypto';
import type { ReprocessJob, ReprocessJobRepository } from '@leadstream/dal';
import { DomainError, type TenantContext, type User } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { REPROCESS_REQUESTS_TOPIC, type ReprocessRequestMessage } from '@leadstream/runtime';
import { parseReprocessRequest } from './reprocess-request';

export interface ReprocessJobsDeps {
  jobs: Pick<ReprocessJobRepository, 'insert' | 'find' | 'progress' | 'requestCancel'>;
  log: Pick<EventLog, 'produce'>;
  clock: () => Date;
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Reprocessing job not found');

/** POST /api/reprocess: checks the body, stores the job, asks the stage for it. */
export async function startReprocessing(
  deps: ReprocessJobsDeps,
  input: { tenant: TenantContext; actor: Pick<User, 'id'>; body: unknown },
): Promise<ReprocessJob> {
  const parsed = parseReprocessRequest(input.body);
  if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid reprocessing request', parsed.details);
  const { tenant } = input;
  const job: ReprocessJob = {
    _id: `reproc_${randomUUID().replace(/-/g, '')}`,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    user_id: input.actor.id,
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
    created_at: deps.clock().toISOString(),
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
  return job;
}

/** GET /api/reprocess/:id */
export async function getReprocessJob(
  deps: Pick<ReprocessJobsDeps, 'jobs'>,
  input: { tenant: TenantContext; id: string },
): Promise<ReprocessJob> {
  const job = await deps.jobs.find(input.tenant, input.id);
  if (!job) throw notFound();
  return job;
}

/** POST /api/reprocess/:id/cancel: a job that has ended is answered as it is (cancelling is idempotent). */
export async function cancelReprocessJob(
  deps: ReprocessJobsDeps,
  input: { tenant: TenantContext; id: string },
): Promise<ReprocessJob> {
  const asked = await deps.jobs.requestCancel(input.tenant, input.id, deps.clock().toISOString());
  if (asked === null) throw notFound();
  return getReprocessJob(deps, input);
}
