/** GET /api/routing/rules/:id */
import type { ConfigResource, RoutingRuleRepository } from '@leadstream/dal';
import type { RoutingRuleSettings, TenantContext } from '@leadstream/domain';
import { routingRuleNotFound } from './routing-rule-access';

export interface GetRoutingRuleDeps {
  rules: Pick<RoutingRuleRepository, 'find'>;
}

export interface GetRoutingRuleInput {
  tenant: TenantContext;
  ruleId: string;
}

export async function getRoutingRule(
  deps: GetRoutingRuleDeps,
  input: GetRoutingRuleInput,
): Promise<ConfigResource<RoutingRuleSettings>> {
  const rule = await deps.rules.find(input.tenant.organizationId, input.ruleId);
  if (!rule) throw routingRuleNotFound();
  return rule;
}
