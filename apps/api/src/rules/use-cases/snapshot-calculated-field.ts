/** POST /api/calculated-fields/:id/snapshot: the field's value for one lead now, recorded in the lead's activity. */
import type {
  CalculatedFieldRepository,
  LeadActivityRepository,
  LeadQueryRepository,
  LookupTableRepository,
} from '@leadstream/dal';
import { calculate, DomainError, ruleSubjectOf, type TenantContext } from '@leadstream/domain';
import { calculatedFieldNotFound } from './calculated-field-access';
import { newId } from '@leadstream/runtime';

export interface SnapshotCalculatedFieldDeps {
  calculatedFields: Pick<CalculatedFieldRepository, 'find'>;
  lookupTables: Pick<LookupTableRepository, 'list'>;
  leads: Pick<LeadQueryRepository, 'findVisible'>;
  activity: Pick<LeadActivityRepository, 'record'>;
  clock: () => Date;
}

export interface SnapshotCalculatedFieldInput {
  tenant: TenantContext;
  fieldId: string;
  body: unknown;
}

export interface CalculatedFieldSnapshot {
  lead_id: string;
  field: string;
  value: unknown;
  /** Present when the formula failed on this lead (the value is null then). */
  error?: string;
  snapshot_at: string;
  activity_id: string;
}

export async function snapshotCalculatedField(
  deps: SnapshotCalculatedFieldDeps,
  input: SnapshotCalculatedFieldInput,
): Promise<CalculatedFieldSnapshot> {
  const { tenant } = input;
  const field = await deps.calculatedFields.find(tenant.organizationId, input.fieldId);
  if (!field) throw calculatedFieldNotFound();
  const leadId = (input.body as { lead_id?: unknown } | undefined)?.lead_id;
  if (typeof leadId !== 'string' || leadId === '')
    throw new DomainError('VALIDATION_ERROR', 'Invalid request', [
      { field: 'lead_id', message: 'lead_id is required: the lead whose value to record' },
    ]);
  const lead = await deps.leads.findVisible(tenant, leadId);
  // The path names the field (404 when unknown); a lead the body names that is not there is a
  // problem of the body.
  if (!lead)
    throw new DomainError('VALIDATION_ERROR', 'Invalid request', [
      { field: 'lead_id', message: 'lead_id is not a lead of your organization' },
    ]);
  const at = deps.clock();
  const tables = await deps.lookupTables.list(tenant.organizationId);
  const result = calculate(field.formula, ruleSubjectOf(lead), field.type, {
    now: at,
    lookupTables: new Map(tables.map((table) => [table.name, table.mappings])),
  });
  const value = result.ok ? result.value : null;
  const activityId = newId('evt');
  await deps.activity.record({
    _id: activityId,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    lead_id: lead._id,
    event: 'calculated_field.snapshot',
    timestamp: at.toISOString(),
    sequence: 0,
    description: `Snapshot of ${field.label}`,
    metadata: {
      field: field.name,
      field_id: field.id,
      formula: field.formula,
      type: field.type,
      value,
      ...(result.ok ? {} : { error: result.error }),
    },
  });
  return {
    lead_id: lead._id,
    field: field.name,
    value,
    ...(result.ok ? {} : { error: result.error }),
    snapshot_at: at.toISOString(),
    activity_id: activityId,
  };
}
