/** GET /api/calculated-fields/jobs: the 20 most recent recalculation jobs, newest first. */
import type { CalculationJob, CalculationJobRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';

export interface ListCalculationJobsDeps {
  jobs: Pick<CalculationJobRepository, 'recent'>;
}

export interface ListCalculationJobsInput {
  tenant: TenantContext;
}

export async function listCalculationJobs(
  deps: ListCalculationJobsDeps,
  input: ListCalculationJobsInput,
): Promise<CalculationJob[]> {
  return deps.jobs.recent(input.tenant.organizationId);
}
