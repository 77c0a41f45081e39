/** POST /api/enrichment/rules/reorder: new priorities for the rules named (none changed if one is unknown). */
import type { ConfigResource, EnrichmentRuleRepository } from '@leadstream/dal';
import { DomainError, parseRuleReorder, type EnrichmentRuleSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { invalidEnrichmentRule } from './enrichment-rule-access';

export interface ReorderEnrichmentRulesDeps {
  rules: Pick<EnrichmentRuleRepository, 'reorder' | 'list'>;
  configCache: Pick<ConfigCache, 'changed'>;
  clock: () => Date;
}

export interface ReorderEnrichmentRulesInput {
  tenant: TenantContext;
  body: unknown;
}

/** The organization's rules in their new order. */
export async function reorderEnrichmentRules(
  deps: ReorderEnrichmentRulesDeps,
  input: ReorderEnrichmentRulesInput,
): Promise<Array<ConfigResource<EnrichmentRuleSettings>>> {
  const organizationId = input.tenant.organizationId;
  const parsed = parseRuleReorder(input.body);
  if (!parsed.ok) throw invalidEnrichmentRule(parsed.details);
  const unknown = await deps.rules.reorder(organizationId, parsed.value, deps.clock().toISOString());
  if (unknown.length > 0) throw new DomainError('NOT_FOUND', `Enrichment rule not found: ${unknown.join(', ')}`);
  await deps.configCache.changed(organizationId, 'enrichment_rules');
  return deps.rules.list(organizationId);
}
