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
import type {
  EnrichmentRuleRepository,
  LookupTableRepository,
  RuleMatchRepository,
  CustomFieldRepository,
} from '@leadstream/dal';
import { DomainError } from '@leadstream/domain';
import type { ConfigCache, OutboundOptions } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import type { EnrichmentTestUseCase } from './enrichment-test.use-case';
import type { PlanLimitGate } from './plan-limit-gate';
import {
  createEnrichmentRule,
  deleteEnrichmentRule,
  exportEnrichmentRules,
  getEnrichmentRule,
  importEnrichmentRules,
  listEnrichmentRules,
  reorderEnrichmentRules,
  updateEnrichmentRule,
} from './use-cases';

export { ruleId, schemaDetails } from './use-cases';

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

export function enrichmentRulesRouter(deps: EnrichmentRuleRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const outbound = {
    allowInsecureTargets: deps.allowInsecureTargets,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  };
  const useCaseDeps = {
    rules: deps.rules,
    matches: deps.matches,
    lookupTables: deps.lookupTables,
    customFields: deps.customFields,
    planLimits: deps.planLimits,
    configCache: deps.configCache,
    outbound,
    clock,
  };

  defineRoute(router, { method: 'GET', path: '/api/enrichment/rules', permission: 'rules:read' }, async (ctx) => {
    ctx.body = { data: await listEnrichmentRules(useCaseDeps, { tenant: ctx.state.tenant }) };
  });

  defineRoute(router, { method: 'POST', path: '/api/enrichment/rules', permission: 'rules:write' }, async (ctx) => {
    const rule = await createEnrichmentRule(useCaseDeps, { tenant: ctx.state.tenant, body: ctx.request.body });
    ctx.status = 201;
    ctx.body = {
      data: {
        id: rule.id,
        name: rule.name,
        priority: rule.priority,
        enabled: rule.enabled,
        created_at: rule.created_at,
      },
    };
  });

  defineRoute(
    router,
    { method: 'GET', path: '/api/enrichment/rules/export', permission: 'rules:read' },
    async (ctx) => {
      const { document, exportedAt } = await exportEnrichmentRules(useCaseDeps, { tenant: ctx.state.tenant });
      ctx.set('Content-Disposition', `attachment; filename="enrichment-rules-${exportedAt.slice(0, 10)}.json"`);
      ctx.body = document;
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/enrichment/rules/import', permission: 'rules:write' },
    async (ctx) => {
      const { created, ids } = await importEnrichmentRules(useCaseDeps, {
        tenant: ctx.state.tenant,
        body: ctx.request.body,
      });
      ctx.status = 201;
      ctx.body = {
        data: {
          imported: created.length,
          rules: created.map((rule) => ({
            id: rule.id,
            name: rule.name,
            priority: rule.priority,
            enabled: rule.enabled,
            created_at: rule.created_at,
          })),
          ids,
        },
      };
    },
  );

  defineRoute(
    router,
    { method: 'POST', path: '/api/enrichment/rules/reorder', permission: 'rules:write' },
    async (ctx) => {
      ctx.body = {
        data: await reorderEnrichmentRules(useCaseDeps, { tenant: ctx.state.tenant, body: ctx.request.body }),
      };
    },
  );

  defineRoute(router, { method: 'POST', path: '/api/enrichment/test', permission: 'rules:read' }, async (ctx) => {
    ctx.body = await deps.test(ctx.state.tenant, testLeadData(ctx.request.body));
  });

  defineRoute(router, { method: 'GET', path: '/api/enrichment/rules/:id', permission: 'rules:read' }, async (ctx) => {
    ctx.body = {
      data: await getEnrichmentRule(useCaseDeps, { tenant: ctx.state.tenant, ruleId: String(ctx.params['id']) }),
    };
  });

  defineRoute(
    router,
    { method: 'PATCH', path: '/api/enrichment/rules/:id', permission: 'rules:write' },
    async (ctx) => {
      const updated = await updateEnrichmentRule(useCaseDeps, {
        tenant: ctx.state.tenant,
        ruleId: String(ctx.params['id']),
        body: ctx.request.body,
      });
      ctx.body = {
        data: {
          id: updated.id,
          name: updated.name,
          priority: updated.priority,
          enabled: updated.enabled,
          updated_at: updated.updated_at,
        },
      };
    },
  );

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/enrichment/rules/:id', permission: 'rules:write' },
    async (ctx) => {
      await deleteEnrichmentRule(useCaseDeps, { tenant: ctx.state.tenant, ruleId: String(ctx.params['id']) });
      ctx.status = 204;
    },
  );

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
