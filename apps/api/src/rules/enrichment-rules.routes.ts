/**
 * Enrichment rules of the user API (docs/enrichment-rules.md):
 *   GET    /api/enrichment/rules            {data:[rule]} in the order they run
 *   POST   /api/enrichment/rules            201 {data:{id,name,priority,enabled,created_at}}
 *   GET    /api/enrichment/rules/export     the versioned rules document (download)
 *   POST   /api/enrichment/rules/import     201 {data:{imported, rules:[...], ids:{old:new}}}; adds, never replaces
 *   POST   /api/enrichment/rules/reorder    {rules:[{id,priority}]} → {data:[rule]}
 *   GET    /api/enrichment/rules/:id        {data: rule with stats {total_matches, last_30_days}}
 *   PATCH  /api/enrichment/rules/:id        {data:{id,name,priority,enabled,updated_at}}
 *   DELETE /api/enrichment/rules/:id        204
 *   POST   /api/enrichment/test             {results, final_outcome, rejection_reason}; creates nothing;
 *                                           runs on a tester thread with a time limit (enrichment-tester.ts)
 * Creation and import stay within the organization's plan (422 PLAN_LIMIT_REACHED, nothing
 * stored; plan-limit-gate.ts). Every write is announced through the ConfigCache, so the next lead
 * runs with it.
 */
import { randomUUID } from 'node:crypto';
import type { EnrichmentRuleRepository, LookupTableRepository, RuleMatchRepository, CustomFieldRepository } from '@leadstream/dal';
import {
  DomainError,
  exportRulesDocument,
  parseEnrichmentRuleCreate,
  parseEnrichmentRulePatch,
  parseRuleReorder,
  parseRulesImport,
  ruleFormulaProblems,
  type EnrichmentRuleSettings,
  type ErrorDetail,
} from '@leadstream/domain';
import { checkTarget, type ConfigCache, type OutboundOptions } from '@leadstream/runtime';
import { parseEnrichmentRulesDocument, SchemaError } from '@leadstream/schemas';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import type { EnrichmentTestUseCase } from './enrichment-test.use-case';
import type { PlanLimitGate } from './plan-limit-gate';

export interface EnrichmentRuleRoutesDependencies {
  guard: SessionGuard;
  rules: EnrichmentRuleRepository;
  matches: Pick<RuleMatchRepository, 'stats'>;
  lookupTables: Pick<LookupTableRepository, 'list'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
  /** POST /api/enrichment/test: the organization's rules run on a lead, off the event loop. */
  test: EnrichmentTestUseCase;
  /** How many rules the organization's plan allows (creation and import). */
  planLimits: PlanLimitGate;
  configCache: Pick<ConfigCache, 'changed'>;
  /** WEBHOOK_ALLOW_INSECURE_TARGETS (development and tests): webhook actions may target http and non-public addresses. */
  allowInsecureTargets: boolean;
  /** Name resolution for the public-address check of webhook URLs (tests pass their own). */
  resolve?: OutboundOptions['resolve'];
  clock?: () => Date;
}

const notFound = (): DomainError => new DomainError('NOT_FOUND', 'Enrichment rule not found');
const invalid = (details: ErrorDetail[]): DomainError => new DomainError('VALIDATION_ERROR', 'Invalid enrichment rule', details);

export function ruleId(): string {
  return `rule_${randomUUID().replace(/-/g, '')}`;
}

export function enrichmentRulesRouter(deps: EnrichmentRuleRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const outbound = { allowInsecureTargets: deps.allowInsecureTargets, ...(deps.resolve ? { resolve: deps.resolve } : {}) };

  /** What rule parsing checks names against: the organization's custom fields and lookup tables. */
  async function known(organizationId: string) {
    const [customFields, tables] = await Promise.all([deps.customFields.list(organizationId), deps.lookupTables.list(organizationId)]);
    return { customFields, lookupTables: new Set(tables.map((table) => table.name)) };
  }

  function checked(parsed: { ok: true; value: EnrichmentRuleSettings } | { ok: false; details: ErrorDetail[] }, prefix = ''): EnrichmentRuleSettings {
    if (!parsed.ok) throw invalid(parsed.details);
    const problems = ruleFormulaProblems(parsed.value, prefix);
    if (problems.length > 0) throw invalid(problems);
    return parsed.value;
  }

  /**
   * Webhook actions must target https URLs resolving to public addresses, as webhooks must when
   * saved (the rule-webhook stage checks again on every call).
   */
  async function webhookTargetProblems(settings: EnrichmentRuleSettings, prefix = ''): Promise<ErrorDetail[]> {
    const problems: ErrorDetail[] = [];
    for (const [index, action] of settings.actions.entries()) {
      if (action.type !== 'webhook') continue;
      const target = await checkTarget(action.url, outbound);
      if (!target.ok) problems.push({ field: `${prefix}actions[${index}].url`, message: `url ${target.error}` });
    }
    return problems;
  }

  defineRoute(router, { method: 'GET', path: '/api/enrichment/rules', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await deps.rules.list(ctx.state.tenant.organizationId) };
  });

  defineRoute(router, { method: 'POST', path: '/api/enrichment/rules', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const settings = checked(parseEnrichmentRuleCreate(ctx.request.body, await known(organizationId)));
    const unreachable = await webhookTargetProblems(settings);
    if (unreachable.length > 0) throw invalid(unreachable);
    const rule = await deps.planLimits.admit(ctx.state.tenant, 'enrichment_rules', 1, () => deps.rules.count(organizationId), () => deps.rules.create(organizationId, ruleId(), settings, clock().toISOString()));
    await deps.configCache.changed(organizationId, 'enrichment_rules');
    ctx.status = 201;
    ctx.body = { data: { id: rule.id, name: rule.name, priority: rule.priority, enabled: rule.enabled, created_at: rule.created_at } };
  });

  defineRoute(router, { method: 'GET', path: '/api/enrichment/rules/export', permission: 'rules:read' }, async (ctx) => {
    const at = clock().toISOString();
    ctx.set('Content-Disposition', `attachment; filename="enrichment-rules-${at.slice(0, 10)}.json"`);
    ctx.body = exportRulesDocument(await deps.rules.list(ctx.state.tenant.organizationId), at);
  });

  defineRoute(router, { method: 'POST', path: '/api/enrichment/rules/import', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    try {
      parseEnrichmentRulesDocument(ctx.request.body);
    } catch (error) {
      if (error instanceof SchemaError) throw invalid(schemaDetails(error));
      throw error;
    }
    const parsed = parseRulesImport(ctx.request.body, await known(organizationId));
    if (!parsed.ok) throw invalid(parsed.details);
    const problems = parsed.value.flatMap((settings, index) => ruleFormulaProblems(settings, `rules[${index}].`));
    if (problems.length > 0) throw invalid(problems);
    const unreachable: ErrorDetail[] = [];
    for (const [index, settings] of parsed.value.entries()) unreachable.push(...(await webhookTargetProblems(settings, `rules[${index}].`)));
    if (unreachable.length > 0) throw invalid(unreachable);
    const originalIds = ((ctx.request.body as { rules: Array<{ id?: unknown }> }).rules ?? []).map((rule) => (typeof rule.id === 'string' ? rule.id : null));
    const records = parsed.value.map((settings) => ({ id: ruleId(), settings }));
    // All or nothing: an import that would take the organization past its plan adds no rule.
    const created = await deps.planLimits.admit(ctx.state.tenant, 'enrichment_rules', records.length, () => deps.rules.count(organizationId), () => deps.rules.createMany(organizationId, records, clock().toISOString()));
    await deps.configCache.changed(organizationId, 'enrichment_rules');
    const ids: Record<string, string> = {};
    originalIds.forEach((original, index) => {
      if (original) ids[original] = records[index]!.id;
    });
    ctx.status = 201;
    ctx.body = { data: { imported: created.length, rules: created.map((rule) => ({ id: rule.id, name: rule.name, priority: rule.priority, enabled: rule.enabled, created_at: rule.created_at })), ids } };
  });

  defineRoute(router, { method: 'POST', path: '/api/enrichment/rules/reorder', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const parsed = parseRuleReorder(ctx.request.body);
    if (!parsed.ok) throw invalid(parsed.details);
    const unknown = await deps.rules.reorder(organizationId, parsed.value, clock().toISOString());
    if (unknown.length > 0) throw new DomainError('NOT_FOUND', `Enrichment rule not found: ${unknown.join(', ')}`);
    await deps.configCache.changed(organizationId, 'enrichment_rules');
    ctx.body = { data: await deps.rules.list(organizationId) };
  });

  defineRoute(router, { method: 'POST', path: '/api/enrichment/test', permission: 'rules:read' }, async (ctx) => {
    ctx.body = await deps.test(ctx.state.tenant, testLeadData(ctx.request.body));
  });

  defineRoute(router, { method: 'GET', path: '/api/enrichment/rules/:id', permission: 'rules:read' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const rule = await deps.rules.find(organizationId, String(ctx.params['id']));
    if (!rule) throw notFound();
    ctx.body = { data: { ...rule, stats: await deps.matches.stats(organizationId, rule.id, clock()) } };
  });

  defineRoute(router, { method: 'PATCH', path: '/api/enrichment/rules/:id', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    const id = String(ctx.params['id']);
    const current = await deps.rules.find(organizationId, id);
    if (!current) throw notFound();
    const settings = checked(parseEnrichmentRulePatch(ctx.request.body, current, await known(organizationId)));
    // Only actions the request sends are checked: a PATCH of the name or `enabled` resolves no name.
    if (typeof ctx.request.body === 'object' && ctx.request.body !== null && 'actions' in ctx.request.body) {
      const unreachable = await webhookTargetProblems(settings);
      if (unreachable.length > 0) throw invalid(unreachable);
    }
    const updated = await deps.rules.update(organizationId, id, settings, clock().toISOString());
    if (!updated) throw notFound();
    await deps.configCache.changed(organizationId, 'enrichment_rules');
    ctx.body = { data: { id: updated.id, name: updated.name, priority: updated.priority, enabled: updated.enabled, updated_at: updated.updated_at } };
  });

  defineRoute(router, { method: 'DELETE', path: '/api/enrichment/rules/:id', permission: 'rules:write' }, async (ctx) => {
    const organizationId = ctx.state.tenant.organizationId;
    if (!(await deps.rules.delete(organizationId, String(ctx.params['id'])))) throw notFound();
    await deps.configCache.changed(organizationId, 'enrichment_rules');
    ctx.status = 204;
  });

  return router;
}

/** The `lead_data` of a test request; 400 naming `lead_data` and every other key otherwise. */
function testLeadData(body: unknown): Record<string, unknown> {
  const leadData = (body as { lead_data?: unknown } | undefined)?.lead_data;
  const extra = body && typeof body === 'object' ? Object.keys(body).filter((key) => key !== 'lead_data') : [];
  const isLead = typeof leadData === 'object' && leadData !== null && !Array.isArray(leadData);
  if (!isLead || extra.length > 0) {
    throw new DomainError('VALIDATION_ERROR', 'Invalid request', [
      ...(isLead ? [] : [{ field: 'lead_data', message: 'lead_data is required: an object of lead fields' }]),
      ...extra.map((key) => ({ field: key, message: `${key} is not a field of this request (lead_data)` })),
    ]);
  }
  return leadData as Record<string, unknown>;
}

/** ajv's errors as `{field, message}` with dotted paths (`rules[0].name`). */
export function schemaDetails(error: SchemaError): ErrorDetail[] {
  return error.errors.map((entry) => {
    const path = entry.instancePath
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
      .join('')
      .replace(/^\./, '');
    const missing = entry.keyword === 'required' ? String((entry.params as { missingProperty?: string }).missingProperty) : undefined;
    const extra = entry.keyword === 'additionalProperties' ? String((entry.params as { additionalProperty?: string }).additionalProperty) : undefined;
    const field = [path, missing ?? extra].filter(Boolean).join(path && (missing ?? extra) ? '.' : '') || '(body)';
    return { field, message: `${field} ${entry.message ?? 'is invalid'}` };
  });
}
