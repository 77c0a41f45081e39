/**
 * Lookup tables (spec 2.9, 4.7): GET/POST /api/enrichment/lookup-tables, and GET/PATCH/DELETE
 * /api/enrichment/lookup-tables/:id as users expect. Bodies of config-resource.routes.ts.
 */
import type { LookupTableRepository } from '@leadstream/dal';
import { parseLookupTableCreate, parseLookupTablePatch } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { UserRouter, type SessionGuard } from '../auth';
import { defineConfigResource } from './config-resource.routes';

export interface LookupTableRoutesDependencies {
  guard: SessionGuard;
  lookupTables: LookupTableRepository;
  configCache: Pick<ConfigCache, 'changed'>;
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
    configCache: deps.configCache,
    clock: deps.clock ?? (() => new Date()),
  });
  return router;
}
