/** GET /api/calculated-fields/jobs/:id: one recalculation job with its progress. */
import type { CalculationJob, CalculationJobRepository } from '@leadstream/dal';
import { DomainError, type TenantContext } from '@leadstream/domain';

export interface GetCalculationJobDeps {
  jobs: Pick<CalculationJobRepository, 'find'>;
}

export interface GetCalculationJobInput {
  tenant: TenantContext;
  jobId: string;
}

export async function getCalculationJob(
  deps: GetCalculationJobDeps,
  input: GetCalculationJobInput,
): Promise<CalculationJob> {
  const job = await deps.jobs.find(input.tenant.organizationId, input.jobId);
  if (!job) throw new DomainError('NOT_FOUND', 'Recalculation job not found');
  return job;
}
