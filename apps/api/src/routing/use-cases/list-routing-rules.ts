/** GET /api/routing/rules: the organization's rules in the order they are tried. */
import type { ConfigResource, RoutingRuleRepository } from '@leadstream/dal';
import type { RoutingRuleSettings, TenantContext } from '@leadstream/domain';

export interface ListRoutingRulesDeps {
  rules: Pick<RoutingRuleRepository, 'list'>;
}

export interface ListRoutingRulesInput {
  tenant: TenantContext;
}

export async function listRoutingRules(
  deps: ListRoutingRulesDeps,
  input: ListRoutingRulesInput,
): Promise<Array<ConfigResource<RoutingRuleSettings>>> {
  return deps.rules.list(input.tenant.organizationId);
}
