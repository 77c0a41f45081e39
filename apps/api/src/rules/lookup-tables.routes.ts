/**
 * Lookup tables (docs/enrichment-rules.md): GET/POST /api/enrichment/lookup-tables, and
 * GET/PATCH/DELETE /api/enrichment/lookup-tables/:id as users expect. Bodies of
 * config-resource.routes.ts. The organization's plan bounds how many tables it keeps and how many
 * mappings one table holds (on creation and whenever a PATCH replaces the mappings): 422
 * PLAN_LIMIT_REACHED beyond them.
 */
import type { LookupTableRepository } from '@leadstream/dal';
import { parseLookupTableCreate, parseLookupTablePatch } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { UserRouter, type SessionGuard } from '../auth';
import { defineConfigResource } from './config-resource.routes';
import type { PlanLimitGate } from './plan-limit-gate';

export interface LookupTableRoutesDependencies {
  guard: SessionGuard;
  lookupTables: LookupTableRepository;
  configCache: Pick<ConfigCache, 'changed'>;
  planLimits: PlanLimitGate;
  clock?: () => Date;
}

export function lookupTablesRouter(deps: LookupTableRoutesDependencies): UserRouter {
  const router = new UserRouter(deps.guard);
  defineConfigResource(router, {
    path: '/api/enrichment/lookup-tables',
    label: 'Lookup table',
    idPrefix: 'lkp',
    what: 'lookup_tables',
    repository: deps.lookupTables,
    uniqueField: 'name',
    parseCreate: (body) => parseLookupTableCreate(body),
    parsePatch: (body, current) => parseLookupTablePatch(body, current),
    planLimit: { gate: deps.planLimits, resource: 'lookup_tables' },
    // Only mappings the request sends: a table kept from a larger plan can still be renamed.
    checkPlan: async (settings, tenant, body) => {
      if ('mappings' in body) await deps.planLimits.checkLookupRows(tenant, Object.keys(settings.mappings).length);
    },
    configCache: deps.configCache,
    clock: deps.clock ?? (() => new Date()),
  });
  return router;
}
