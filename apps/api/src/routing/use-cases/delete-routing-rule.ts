/** DELETE /api/routing/rules/:id; announced to the config cache. */
import type { RoutingRuleRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { routingRuleNotFound } from './routing-rule-access';

export interface DeleteRoutingRuleDeps {
  rules: Pick<RoutingRuleRepository, 'delete'>;
  configCache: Pick<ConfigCache, 'changed'>;
}

export interface DeleteRoutingRuleInput {
  tenant: TenantContext;
  ruleId: string;
}

export async function deleteRoutingRule(deps: DeleteRoutingRuleDeps, input: DeleteRoutingRuleInput): Promise<void> {
  const organizationId = input.tenant.organizationId;
  if (!(await deps.rules.delete(organizationId, input.ruleId))) throw routingRuleNotFound();
  await deps.configCache.changed(organizationId, 'routing_rules');
}
