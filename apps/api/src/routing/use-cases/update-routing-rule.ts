/** PATCH /api/routing/rules/:id: any subset of the rule's fields; targets are checked when sent. */
import type { ConfigResource, RoutingRuleRepository } from '@leadstream/dal';
import { parseRoutingRulePatch, type RoutingRuleSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import {
  checkConnections,
  invalidRouting,
  knownRoutingNames,
  routingRuleNotFound,
  type CheckConnectionsDeps,
  type KnownRoutingNamesDeps,
} from './routing-rule-access';

export interface UpdateRoutingRuleDeps extends KnownRoutingNamesDeps, CheckConnectionsDeps {
  rules: Pick<RoutingRuleRepository, 'find' | 'update'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export interface UpdateRoutingRuleInput {
  tenant: TenantContext;
  ruleId: string;
  body: unknown;
}

export async function updateRoutingRule(
  deps: UpdateRoutingRuleDeps,
  input: UpdateRoutingRuleInput,
): Promise<ConfigResource<RoutingRuleSettings>> {
  const { tenant, ruleId, body } = input;
  const current = await deps.rules.find(tenant.organizationId, ruleId);
  if (!current) throw routingRuleNotFound();
  const parsed = parseRoutingRulePatch(body, current, await knownRoutingNames(deps, tenant.organizationId));
  if (!parsed.ok) throw invalidRouting(parsed.details);
  // Only targets the request names are checked: a rule whose connection was deleted since can still be switched off.
  if (typeof body === 'object' && body !== null && 'targets' in body)
    await checkConnections(deps, tenant, parsed.value.targets, 'targets');
  const updated = await deps.rules.update(tenant.organizationId, ruleId, parsed.value, deps.clock().toISOString());
  if (!updated) throw routingRuleNotFound();
  await deps.configCache.changed(tenant.organizationId, 'routing_rules');
  return updated;
}
