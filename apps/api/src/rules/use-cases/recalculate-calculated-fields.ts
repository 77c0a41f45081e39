/**
 * POST /api/calculated-fields/recalculate-all (every field) and POST /api/calculated-fields/:id/recalculate
 * (this field, and the fields that use it): a manual recalculation job.
 */
import type { CalculatedFieldRepository, CalculationJob } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { calculatedFieldNotFound } from './calculated-field-access';
import { startCalculationJob, type StartCalculationJobDeps } from './start-calculation-job';

export interface RecalculateCalculatedFieldsDeps extends StartCalculationJobDeps {
  calculatedFields: Pick<CalculatedFieldRepository, 'find'>;
}

export interface RecalculateCalculatedFieldsInput {
  tenant: TenantContext;
  /** The field to recalculate; null for every field. */
  fieldId: string | null;
}

export async function recalculateCalculatedFields(
  deps: RecalculateCalculatedFieldsDeps,
  input: RecalculateCalculatedFieldsInput,
): Promise<CalculationJob> {
  const organizationId = input.tenant.organizationId;
  if (input.fieldId === null) return startCalculationJob(deps, { organizationId, fields: null, reason: 'manual' });
  const field = await deps.calculatedFields.find(organizationId, input.fieldId);
  if (!field) throw calculatedFieldNotFound();
  return startCalculationJob(deps, { organizationId, fields: [field.name], reason: 'manual' });
}
