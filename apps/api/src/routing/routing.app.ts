/** Mounts the routing router of the user API (routing rules, settings and the test). */
import {
  type CustomFieldRepository,
  EnrichmentConfigReader,
  OrganizationRepository,
  RoutingConfigReader,
  RoutingCounterRepository,
  RoutingRuleRepository,
  RoutingSettingsRepository,
} from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';
import type { ConfigCache } from '@leadstream/runtime';
import type Koa from 'koa';
import type { SessionGuard } from '../auth';
import { planLimitGate } from '../rules/plan-limit-gate';
import { routingRouter } from './routing.routes';

export interface RoutingMountDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  customFields: Pick<CustomFieldRepository, 'list'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock?: () => Date;
}

export function mountRouting(app: Koa, deps: RoutingMountDependencies): void {
  const router = routingRouter({
    guard: deps.guard,
    rules: new RoutingRuleRepository(deps.store),
    settings: new RoutingSettingsRepository(deps.store),
    counters: new RoutingCounterRepository(deps.store),
    routing: new RoutingConfigReader(deps.store),
    customFields: deps.customFields,
    enrichment: new EnrichmentConfigReader(deps.store),
    configCache: deps.configCache,
    planLimits: planLimitGate(new OrganizationRepository(deps.store)),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
}
