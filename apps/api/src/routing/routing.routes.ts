/**
 * Routing of the user API (docs/routing.md; docs/decisions.md "Routing"):
 *   GET    /api/routing/rules            {data:[rule]} in the order they are tried
 *   POST   /api/routing/rules            201 {data: rule}
 *   POST   /api/routing/rules/reorder    {rules:[{id, priority}]} → {data:[rule]}
 *   GET    /api/routing/rules/:id        {data: rule}
 *   PATCH  /api/routing/rules/:id        {data: rule}            any subset of the rule's fields
 *   DELETE /api/routing/rules/:id        204
 *   GET    /api/routing/settings         {data:{default_targets, when_unmatched, updated_at}}
 *   PUT    /api/routing/settings         {data:{...}}            the whole settings
 *   POST   /api/routing/test             {lead_data, lead_id?} → {data:{rule_id, rule_name, reason, targets, enrichment_outcome}};
 *                                         the lead as enrichment leaves it; stores nothing
 * Permissions as enrichment rules (rules:read, rules:write). A target must name a CRM connection
 * of the organization (400 on `targets[i].connection_id` otherwise). A rule past the plan's limit
 * is 422 PLAN_LIMIT_REACHED (../rules/plan-limit-gate.ts). Every write is announced through the
 * ConfigCache, so the route stage routes the next lead with it.
 */
import type {
  CustomFieldRepository,
  EnrichmentConfigReader,
  RoutingConfigReader,
  RoutingCounterRepository,
  RoutingRuleRepository,
  RoutingSettingsRepository,
} from '@leadstream/dal';
import type { ErrorDetail } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import type { PlanLimitGate } from '../rules/plan-limit-gate';
import {
  createRoutingRule,
  deleteRoutingRule,
  getRoutingRule,
  getRoutingSettings,
  invalidRouting,
  listRoutingRules,
  reorderRoutingRules,
  replaceRoutingSettings,
  testRouting,
  updateRoutingRule,
} from './use-cases';

export interface RoutingRoutesDependencies {
  guard: SessionGuard;
  rules: RoutingRuleRepository;
  settings: RoutingSettingsRepository;
  counters: Pick<RoutingCounterRepository, 'peek'>;
  routing: Pick<RoutingConfigReader, 'read' | 'enabledConnectionIds' | 'unknownConnectionIds'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
  /** The organization's enrichment: the test routes the lead as enrichment leaves it, as the pipeline does. */
  enrichment: Pick<EnrichmentConfigReader, 'read'>;
  configCache: Pick<ConfigCache, 'changed'>;
  /** How many routing rules the organization's plan allows. */
  planLimits: PlanLimitGate;
  clock?: () => Date;
}

export function routingRouter(deps: RoutingRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const useCaseDeps = { ...deps, clock };

  defineRoute(router, { method: 'GET', path: '/api/routing/rules', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await listRoutingRules(useCaseDeps, { tenant: ctx.state.tenant }) };
  });

  defineRoute(router, { method: 'POST', path: '/api/routing/rules', permission: 'rules:write' }, async (ctx) => {
    const rule = await createRoutingRule(useCaseDeps, { tenant: ctx.state.tenant, body: ctx.request.body });
    ctx.status = 201;
    ctx.body = { data: rule };
  });

  defineRoute(
    router,
    { method: 'POST', path: '/api/routing/rules/reorder', permission: 'rules:write' },
    async (ctx) => {
      ctx.body = { data: await reorderRoutingRules(useCaseDeps, { tenant: ctx.state.tenant, body: ctx.request.body }) };
    },
  );

  defineRoute(router, { method: 'GET', path: '/api/routing/rules/:id', permission: 'rules:read' }, async (ctx) => {
    ctx.body = {
      data: await getRoutingRule(useCaseDeps, { tenant: ctx.state.tenant, ruleId: String(ctx.params['id']) }),
    };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/routing/rules/:id', permission: 'rules:write' }, async (ctx) => {
    ctx.body = {
      data: await updateRoutingRule(useCaseDeps, {
        tenant: ctx.state.tenant,
        ruleId: String(ctx.params['id']),
        body: ctx.request.body,
      }),
    };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/routing/rules/:id', permission: 'rules:write' }, async (ctx) => {
    await deleteRoutingRule(useCaseDeps, { tenant: ctx.state.tenant, ruleId: String(ctx.params['id']) });
    ctx.status = 204;
  });

  defineRoute(router, { method: 'GET', path: '/api/routing/settings', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await getRoutingSettings(useCaseDeps, { tenant: ctx.state.tenant }) };
  });

  defineRoute(router, { method: 'PUT', path: '/api/routing/settings', permission: 'rules:write' }, async (ctx) => {
    ctx.body = {
      data: await replaceRoutingSettings(useCaseDeps, { tenant: ctx.state.tenant, body: ctx.request.body }),
    };
  });

  defineRoute(router, { method: 'POST', path: '/api/routing/test', permission: 'rules:read' }, async (ctx) => {
    const { decision, ruleName, enrichmentOutcome } = await testRouting(useCaseDeps, {
      tenant: ctx.state.tenant,
      ...testBody(ctx.request.body),
    });
    ctx.body = {
      data: {
        rule_id: decision.rule_id,
        rule_name: ruleName,
        reason: decision.reason,
        targets: decision.targets,
        enrichment_outcome: enrichmentOutcome,
      },
    };
  });

  return router;
}

/** `{lead_data: {...}, lead_id?}`: lead_id lets a weighted rule answer for that lead (the hash is of the id). */
function testBody(body: unknown): { leadData: Record<string, unknown>; leadId: string | undefined } {
  const details: ErrorDetail[] = [];
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(body))
    throw invalidRouting([{ field: '(body)', message: 'body must be a JSON object {lead_data, lead_id?}' }], 'request');
  const leadData = body['lead_data'];
  if (!isObject(leadData))
    details.push({ field: 'lead_data', message: 'lead_data is required: an object of lead fields' });
  const leadId = body['lead_id'];
  if (leadId !== undefined && (typeof leadId !== 'string' || leadId === '' || leadId.length > 100))
    details.push({ field: 'lead_id', message: 'lead_id must be a lead id (text of 1-100 characters)' });
  for (const key of Object.keys(body))
    if (key !== 'lead_data' && key !== 'lead_id')
      details.push({ field: key, message: `${key} is not a field of this request (lead_data, lead_id)` });
  if (details.length > 0) throw invalidRouting(details, 'request');
  return { leadData: leadData as Record<string, unknown>, leadId: leadId as string | undefined };
}
