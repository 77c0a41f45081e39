/**
 * Calculated fields (docs/formula-language.md):
 *   GET/POST /api/calculated-fields, GET/PATCH/DELETE /api/calculated-fields/:id (config-resource.routes.ts)
 *   POST /api/calculated-fields/recalculate-all      202 {data: job}: every field of every lead, in the background
 *   POST /api/calculated-fields/:id/recalculate      202 {data: job}: this field (and the fields that use it)
 *   GET  /api/calculated-fields/jobs                 {data:[job]}: the 20 most recent, newest first
 *   GET  /api/calculated-fields/jobs/:id             {data: job} with progress
 *   POST /api/calculated-fields/:id/snapshot         {lead_id} → 201 {data:{lead_id, field, value, snapshot_at, activity_id}}
 * A formula change of a field with `recalculate_on_change` starts a job as well.
 */
import { randomUUID } from 'node:crypto';
import type { CalculatedFieldRepository, CalculationJob, CalculationJobRepository, LeadActivityRepository, LeadQueryRepository, LookupTableRepository } from '@leadstream/dal';
import { calculate, DomainError, parseCalculatedFieldCreate, parseCalculatedFieldPatch, ruleSubjectOf } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { CALCULATION_REQUESTS_TOPIC, type CalculationRequestMessage, type ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import { defineConfigResource } from './config-resource.routes';
import type { PlanLimitGate } from './plan-limit-gate';

export interface CalculatedFieldRoutesDependencies {
  guard: SessionGuard;
  calculatedFields: CalculatedFieldRepository;
  lookupTables: Pick<LookupTableRepository, 'list'>;
  jobs: Pick<CalculationJobRepository, 'create' | 'find' | 'recent'>;
  leads: Pick<LeadQueryRepository, 'findVisible'>;
  activity: Pick<LeadActivityRepository, 'record'>;
  log: Pick<EventLog, 'produce'>;
  configCache: Pick<ConfigCache, 'changed'>;
  /** How many calculated fields the organization's plan allows (422 PLAN_LIMIT_REACHED beyond). */
  planLimits: PlanLimitGate;
  clock?: () => Date;
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Calculated field not found');

export function calculatedFieldsRouter(deps: CalculatedFieldRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);

  async function known(organizationId: string) {
    return { lookupTables: new Set((await deps.lookupTables.list(organizationId)).map((table) => table.name)) };
  }

  async function startJob(organizationId: string, fields: string[] | null, reason: CalculationJob['reason']): Promise<CalculationJob> {
    const job: CalculationJob = {
      id: `calcjob_${randomUUID().replace(/-/g, '')}`,
      organization_id: organizationId,
      fields,
      reason,
      status: 'queued',
      processed: 0,
      updated: 0,
      total: null,
      error: null,
      created_at: clock().toISOString(),
      started_at: null,
      completed_at: null,
    };
    await deps.jobs.create(job);
    const message: CalculationRequestMessage = { schema_version: 1, job_id: job.id, organization_id: organizationId };
    await deps.log.produce(CALCULATION_REQUESTS_TOPIC, [{ key: organizationId, value: JSON.stringify(message) }]);
    return job;
  }

  const jobView = ({ organization_id: _organization, ...job }: CalculationJob) => job;

  defineRoute(router, { method: 'POST', path: '/api/calculated-fields/recalculate-all', permission: 'rules:write' }, async (ctx) => {
    ctx.status = 202;
    ctx.body = { data: jobView(await startJob(ctx.state.tenant.organizationId, null, 'manual')) };
  });

  defineRoute(router, { method: 'GET', path: '/api/calculated-fields/jobs', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: (await deps.jobs.recent(ctx.state.tenant.organizationId)).map(jobView) };
  });

  defineRoute(router, { method: 'GET', path: '/api/calculated-fields/jobs/:id', permission: 'rules:read' }, async (ctx) => {
    const job = await deps.jobs.find(ctx.state.tenant.organizationId, String(ctx.params['id']));
    if (!job) throw new DomainError('NOT_FOUND', 'Recalculation job not found');
    ctx.body = { data: jobView(job) };
  });

  defineRoute(router, { method: 'POST', path: '/api/calculated-fields/:id/recalculate', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const field = await deps.calculatedFields.find(organizationId, String(ctx.params['id']));
    if (!field) throw notFound();
    ctx.status = 202;
    ctx.body = { data: jobView(await startJob(organizationId, [field.name], 'manual')) };
  });

  defineRoute(router, { method: 'POST', path: '/api/calculated-fields/:id/snapshot', permission: 'rules:write' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const field = await deps.calculatedFields.find(tenant.organizationId, String(ctx.params['id']));
    if (!field) throw notFound();
    const body = ctx.request.body as { lead_id?: unknown } | undefined;
    const leadId = body?.lead_id;
    if (typeof leadId !== 'string' || leadId === '') throw new DomainError('VALIDATION_ERROR', 'Invalid request', [{ field: 'lead_id', message: 'lead_id is required: the lead whose value to record' }]);
    const lead = await deps.leads.findVisible(tenant, leadId);
    // The path names the field (404 when unknown); a lead the body names that is not there is a
    // problem of the body.
    if (!lead) throw new DomainError('VALIDATION_ERROR', 'Invalid request', [{ field: 'lead_id', message: 'lead_id is not a lead of your organization' }]);
    const at = clock();
    const tables = await deps.lookupTables.list(tenant.organizationId);
    const result = calculate(field.formula, ruleSubjectOf(lead), field.type, { now: at, lookupTables: new Map(tables.map((table) => [table.name, table.mappings])) });
    const value = result.ok ? result.value : null;
    const activityId = `evt_${randomUUID().replace(/-/g, '')}`;
    await deps.activity.record({
      _id: activityId,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      lead_id: lead._id,
      event: 'calculated_field.snapshot',
      timestamp: at.toISOString(),
      sequence: 0,
      description: `Snapshot of ${field.label}`,
      metadata: { field: field.name, field_id: field.id, formula: field.formula, type: field.type, value, ...(result.ok ? {} : { error: result.error }) },
    });
    ctx.status = 201;
    ctx.body = { data: { lead_id: lead._id, field: field.name, value, ...(result.ok ? {} : { error: result.error }), snapshot_at: at.toISOString(), activity_id: activityId } };
  });

  defineConfigResource(router, {
    path: '/api/calculated-fields',
    label: 'Calculated field',
    idPrefix: 'calc',
    what: 'calculated_fields',
    repository: deps.calculatedFields,
    uniqueField: 'name',
    parseCreate: async (body, organizationId) => parseCalculatedFieldCreate(body, await deps.calculatedFields.list(organizationId), await known(organizationId)),
    parsePatch: async (body, current, organizationId) => parseCalculatedFieldPatch(body, current, await deps.calculatedFields.list(organizationId), await known(organizationId)),
    planLimit: { gate: deps.planLimits, resource: 'calculated_fields' },
    afterWrite: async (record, previous, organizationId) => {
      if (previous && previous.formula !== record.formula && record.recalculate_on_change) await startJob(organizationId, [record.name], 'formula_changed');
    },
    configCache: deps.configCache,
    clock,
  });
  return router;
}
