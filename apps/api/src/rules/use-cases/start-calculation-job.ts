/** A recalculation job of some fields (null: every field) of every lead, run in the background by the calculation stage. */
import { randomUUID } from 'node:crypto';
import type { CalculationJob, CalculationJobRepository } from '@leadstream/dal';
import type { EventLog } from '@leadstream/ports';
import { CALCULATION_REQUESTS_TOPIC, type CalculationRequestMessage } from '@leadstream/runtime';

export interface StartCalculationJobDeps {
  jobs: Pick<CalculationJobRepository, 'create'>;
  log: Pick<EventLog, 'produce'>;
  clock: () => Date;
}

export interface StartCalculationJobInput {
  organizationId: string;
  fields: string[] | null;
  reason: CalculationJob['reason'];
}

export async function startCalculationJob(
  deps: StartCalculationJobDeps,
  input: StartCalculationJobInput,
): Promise<CalculationJob> {
  const { organizationId } = input;
  const job: CalculationJob = {
    id: `calcjob_${randomUUID().replace(/-/g, '')}`,
    organization_id: organizationId,
    fields: input.fields,
    reason: input.reason,
    status: 'queued',
    processed: 0,
    updated: 0,
    total: null,
    error: null,
    created_at: deps.clock().toISOString(),
    started_at: null,
    completed_at: null,
  };
  await deps.jobs.create(job);
  const message: CalculationRequestMessage = { schema_version: 1, job_id: job.id, organization_id: organizationId };
  await deps.log.produce(CALCULATION_REQUESTS_TOPIC, [{ key: organizationId, value: JSON.stringify(message) }]);
  return job;
}
