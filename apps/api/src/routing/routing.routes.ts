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
import { randomUUID } from 'node:crypto';
import type { CustomFieldRepository, EnrichmentConfigReader, RoutingConfigReader, RoutingCounterRepository, RoutingRuleRepository, RoutingSettingsRepository } from '@leadstream/dal';
import {
  DomainError,
  enrichLead,
  matchRoutingRule,
  parseRoutingRuleCreate,
  parseRoutingRulePatch,
  parseRoutingSettings,
  parseRuleReorder,
  routeLead,
  routingConnectionRefs,
  ruleSubjectOf,
  type ErrorDetail,
  type RoutingDestination,
  type TenantContext,
} from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import type { PlanLimitGate } from '../rules/plan-limit-gate';

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

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Routing rule not found');
const invalid = (details: ErrorDetail[], what = 'routing rule'): DomainError => new DomainError('VALIDATION_ERROR', `Invalid ${what}`, details);

function routingRuleId(): string {
  return `rroute_${randomUUID().replace(/-/g, '')}`;
}

export function routingRouter(deps: RoutingRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);

  async function known(organizationId: string) {
    return { customFields: await deps.customFields.list(organizationId) };
  }

  /** 400 naming each target whose connection is not one of the tenant's CRM connections. */
  async function checkConnections(tenant: TenantContext, targets: readonly RoutingDestination[], path: string, what?: string): Promise<void> {
    const refs = routingConnectionRefs(targets, path);
    const unknown = new Set(await deps.routing.unknownConnectionIds(tenant, refs.map((ref) => ref.connection_id)));
    const details = refs.filter((ref) => unknown.has(ref.connection_id)).map((ref) => ({ field: ref.field, message: `${ref.connection_id} is not a CRM connection of your organization (GET /api/crm/connections lists them)` }));
    if (details.length > 0) throw invalid(details, what);
  }

  async function changed(organizationId: string, what: string): Promise<void> {
    await deps.configCache.changed(organizationId, what);
  }

  defineRoute(router, { method: 'GET', path: '/api/routing/rules', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await deps.rules.list(ctx.state.tenant.organizationId) };
  });

  defineRoute(router, { method: 'POST', path: '/api/routing/rules', permission: 'rules:write' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const parsed = parseRoutingRuleCreate(ctx.request.body, await known(tenant.organizationId));
    if (!parsed.ok) throw invalid(parsed.details);
    await checkConnections(tenant, parsed.value.targets, 'targets');
    const rule = await deps.planLimits.admit(tenant, 'routing_rules', 1, () => deps.rules.count(tenant.organizationId), () => deps.rules.create(tenant.organizationId, routingRuleId(), parsed.value, clock().toISOString()));
    await changed(tenant.organizationId, 'routing_rules');
    ctx.status = 201;
    ctx.body = { data: rule };
  });

  defineRoute(router, { method: 'POST', path: '/api/routing/rules/reorder', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const parsed = parseRuleReorder(ctx.request.body);
    if (!parsed.ok) throw invalid(parsed.details);
    const unknown = await deps.rules.reorder(organizationId, parsed.value, clock().toISOString());
    if (unknown.length > 0) throw new DomainError('NOT_FOUND', `Routing rule not found: ${unknown.join(', ')}`);
    await changed(organizationId, 'routing_rules');
    ctx.body = { data: await deps.rules.list(organizationId) };
  });

  defineRoute(router, { method: 'GET', path: '/api/routing/rules/:id', permission: 'rules:read' }, async (ctx) => {
    const rule = await deps.rules.find(ctx.state.tenant.organizationId, String(ctx.params['id']));
    if (!rule) throw notFound();
    ctx.body = { data: rule };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/routing/rules/:id', permission: 'rules:write' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const id = String(ctx.params['id']);
    const current = await deps.rules.find(tenant.organizationId, id);
    if (!current) throw notFound();
    const parsed = parseRoutingRulePatch(ctx.request.body, current, await known(tenant.organizationId));
    if (!parsed.ok) throw invalid(parsed.details);
    // Only targets the request names are checked: a rule whose connection was deleted since can still be switched off.
    if (typeof ctx.request.body === 'object' && ctx.request.body !== null && 'targets' in ctx.request.body) await checkConnections(tenant, parsed.value.targets, 'targets');
    const updated = await deps.rules.update(tenant.organizationId, id, parsed.value, clock().toISOString());
    if (!updated) throw notFound();
    await changed(tenant.organizationId, 'routing_rules');
    ctx.body = { data: updated };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/routing/rules/:id', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    if (!(await deps.rules.delete(organizationId, String(ctx.params['id'])))) throw notFound();
    await changed(organizationId, 'routing_rules');
    ctx.status = 204;
  });

  defineRoute(router, { method: 'GET', path: '/api/routing/settings', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await deps.settings.get(ctx.state.tenant.organizationId) };
  });

  defineRoute(router, { method: 'PUT', path: '/api/routing/settings', permission: 'rules:write' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const parsed = parseRoutingSettings(ctx.request.body);
    if (!parsed.ok) throw invalid(parsed.details, 'routing settings');
    await checkConnections(tenant, parsed.value.default_targets, 'default_targets', 'routing settings');
    const stored = await deps.settings.put(tenant.organizationId, parsed.value, clock().toISOString());
    await changed(tenant.organizationId, 'routing_settings');
    ctx.body = { data: stored };
  });

  defineRoute(router, { method: 'POST', path: '/api/routing/test', permission: 'rules:read' }, async (ctx) => {
    const tenant = ctx.state.tenant;
    const { leadData, leadId } = testBody(ctx.request.body);
    const [config, enrichment] = await Promise.all([deps.routing.read(tenant.organizationId), deps.enrichment.read(tenant.organizationId)]);
    // Routing sees the lead after enrichment (its rules and calculated fields), as the route stage does.
    const enriched = enrichLead(ruleSubjectOf(leadData), enrichment, clock());
    const subject = enriched.subject;
    const matched = matchRoutingRule(subject, config.rules);
    // Where the rotation stands now: the answer names the target the next lead of that rule gets.
    const position = matched?.distribution === 'round_robin' ? await deps.counters.peek(tenant, matched.id) : undefined;
    const connections = await deps.routing.enabledConnectionIds(tenant);
    const key = leadId ?? (typeof leadData['email'] === 'string' ? leadData['email'] : '');
    const decision = routeLead({ id: key, subject }, config.rules, config.settings, { connections, ...(position !== undefined ? { position } : {}) });
    // A lead enrichment rejects never reaches routing; the answer says so and still shows the route its fields would get.
    ctx.body = { data: { rule_id: decision.rule_id, rule_name: matched?.name ?? null, reason: decision.reason, targets: decision.targets, enrichment_outcome: enriched.run.final_outcome === 'rejected' ? 'rejected' : 'accepted' } };
  });

  return router;
}

/** `{lead_data: {...}, lead_id?}`: lead_id lets a weighted rule answer for that lead (the hash is of the id). */
function testBody(body: unknown): { leadData: Record<string, unknown>; leadId: string | undefined } {
  const details: ErrorDetail[] = [];
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(body)) throw invalid([{ field: '(body)', message: 'body must be a JSON object {lead_data, lead_id?}' }], 'request');
  const leadData = body['lead_data'];
  if (!isObject(leadData)) details.push({ field: 'lead_data', message: 'lead_data is required: an object of lead fields' });
  const leadId = body['lead_id'];
  if (leadId !== undefined && (typeof leadId !== 'string' || leadId === '' || leadId.length > 100)) details.push({ field: 'lead_id', message: 'lead_id must be a lead id (text of 1-100 characters)' });
  for (const key of Object.keys(body)) if (key !== 'lead_data' && key !== 'lead_id') details.push({ field: key, message: `${key} is not a field of this request (lead_data, lead_id)` });
  if (details.length > 0) throw invalid(details, 'request');
  return { leadData: leadData as Record<string, unknown>, leadId: leadId as string | undefined };
}
