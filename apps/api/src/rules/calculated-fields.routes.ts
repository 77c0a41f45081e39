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
import type {
  CalculatedFieldRepository,
  CalculationJob,
  CalculationJobRepository,
  LeadActivityRepository,
  LeadQueryRepository,
  LookupTableRepository,
} from '@leadstream/dal';
import { parseCalculatedFieldCreate, parseCalculatedFieldPatch } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import { defineConfigResource } from './config-resource.routes';
import type { PlanLimitGate } from './plan-limit-gate';
import {
  getCalculationJob,
  knownLookupTables,
  listCalculationJobs,
  recalculateCalculatedFields,
  snapshotCalculatedField,
  startCalculationJob,
} from './use-cases';

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

const jobView = ({ organization_id: _organization, ...job }: CalculationJob) => job;

export function calculatedFieldsRouter(deps: CalculatedFieldRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const useCaseDeps = { ...deps, clock };

  defineRoute(
    router,
    { method: 'POST', path: '/api/calculated-fields/recalculate-all', permission: 'rules:write' },
    async (ctx) => {
      const job = await recalculateCalculatedFields(useCaseDeps, { tenant: ctx.state.tenant, fieldId: null });
      ctx.status = 202;
      ctx.body = { data: jobView(job) };
    },
  );

  defineRoute(router, { method: 'GET', path: '/api/calculated-fields/jobs', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: (await listCalculationJobs(useCaseDeps, { tenant: ctx.state.tenant })).map(jobView) };
  });

  defineRoute(
    router,
    { method: 'GET', path: '/api/calculated-fields/jobs/:id', permission: 'rules:read' },
    async (ctx) => {
      ctx.body = {
        data: jobView(
          await getCalculationJob(useCaseDeps, { tenant: ctx.state.tenant, jobId: String(ctx.params['id']) }),
        ),
      };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/calculated-fields/:id/recalculate', permission: 'rules:write' },
    async (ctx) => {
      const job = await recalculateCalculatedFields(useCaseDeps, {
        tenant: ctx.state.tenant,
        fieldId: String(ctx.params['id']),
      });
      ctx.status = 202;
      ctx.body = { data: jobView(job) };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/calculated-fields/:id/snapshot', permission: 'rules:write' },
    async (ctx) => {
      const snapshot = await snapshotCalculatedField(useCaseDeps, {
        tenant: ctx.state.tenant,
        fieldId: String(ctx.params['id']),
        body: ctx.request.body,
      });
      ctx.status = 201;
      ctx.body = { data: snapshot };
    },
  );

  defineConfigResource(router, {
    path: '/api/calculated-fields',
    label: 'Calculated field',
    idPrefix: 'calc',
    what: 'calculated_fields',
    repository: deps.calculatedFields,
    uniqueField: 'name',
    parseCreate: async (body, organizationId) =>
      parseCalculatedFieldCreate(
        body,
        await deps.calculatedFields.list(organizationId),
        await knownLookupTables(deps, organizationId),
      ),
    parsePatch: async (body, current, organizationId) =>
      parseCalculatedFieldPatch(
        body,
        current,
        await deps.calculatedFields.list(organizationId),
        await knownLookupTables(deps, organizationId),
      ),
    planLimit: { gate: deps.planLimits, resource: 'calculated_fields' },
    afterWrite: async (record, previous, organizationId) => {
      if (previous && previous.formula !== record.formula && record.recalculate_on_change)
        await startCalculationJob(useCaseDeps, { organizationId, fields: [record.name], reason: 'formula_changed' });
    },
    configCache: deps.configCache,
    clock,
  });
  return router;
}
