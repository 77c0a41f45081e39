/** POST /api/routing/rules: a new rule, within the organization's plan; announced to the config cache. */
import type { ConfigResource, RoutingRuleRepository } from '@leadstream/dal';
import { parseRoutingRuleCreate, type RoutingRuleSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import type { PlanLimitGate } from '../../rules/plan-limit-gate';
import {
  checkConnections,
  invalidRouting,
  knownRoutingNames,
  routingRuleId,
  type CheckConnectionsDeps,
  type KnownRoutingNamesDeps,
} from './routing-rule-access';

export interface CreateRoutingRuleDeps extends KnownRoutingNamesDeps, CheckConnectionsDeps {
  rules: Pick<RoutingRuleRepository, 'count' | 'create'>;
  planLimits: Pick<PlanLimitGate, 'admit'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export interface CreateRoutingRuleInput {
  tenant: TenantContext;
  body: unknown;
}

export async function createRoutingRule(
  deps: CreateRoutingRuleDeps,
  input: CreateRoutingRuleInput,
): Promise<ConfigResource<RoutingRuleSettings>> {
  const { tenant } = input;
  const parsed = parseRoutingRuleCreate(input.body, await knownRoutingNames(deps, tenant.organizationId));
  if (!parsed.ok) throw invalidRouting(parsed.details);
  await checkConnections(deps, tenant, parsed.value.targets, 'targets');
  const rule = await deps.planLimits.admit(
    tenant,
    'routing_rules',
    1,
    () => deps.rules.count(tenant.organizationId),
    () => deps.rules.create(tenant.organizationId, routingRuleId(), parsed.value, deps.clock().toISOString()),
  );
  await deps.configCache.changed(tenant.organizationId, 'routing_rules');
  return rule;
}
