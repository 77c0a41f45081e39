/** POST /api/routing/rules/reorder: new priorities for the rules named (none changed if one is unknown). */
import type { ConfigResource, RoutingRuleRepository } from '@leadstream/dal';
import { DomainError, parseRuleReorder, type RoutingRuleSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { invalidRouting } from './routing-rule-access';

export interface ReorderRoutingRulesDeps {
  rules: Pick<RoutingRuleRepository, 'reorder' | 'list'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export interface ReorderRoutingRulesInput {
  tenant: TenantContext;
  body: unknown;
}

/** The organization's rules in their new order. */
export async function reorderRoutingRules(
  deps: ReorderRoutingRulesDeps,
  input: ReorderRoutingRulesInput,
): Promise<Array<ConfigResource<RoutingRuleSettings>>> {
  const organizationId = input.tenant.organizationId;
  const parsed = parseRuleReorder(input.body);
  if (!parsed.ok) throw invalidRouting(parsed.details);
  const unknown = await deps.rules.reorder(organizationId, parsed.value, deps.clock().toISOString());
  if (unknown.length > 0) throw new DomainError('NOT_FOUND', `Routing rule not found: ${unknown.join(', ')}`);
  await deps.configCache.changed(organizationId, 'routing_rules');
  return deps.rules.list(organizationId);
}
