/** GET /api/enrichment/rules: the organization's rules in the order they run. */
import type { ConfigResource, EnrichmentRuleRepository } from '@leadstream/dal';
import type { EnrichmentRuleSettings, TenantContext } from '@leadstream/domain';

export interface ListEnrichmentRulesDeps {
  rules: Pick<EnrichmentRuleRepository, 'list'>;
}

export interface ListEnrichmentRulesInput {
  tenant: TenantContext;
}

export async function listEnrichmentRules(
  deps: ListEnrichmentRulesDeps,
  input: ListEnrichmentRulesInput,
): Promise<Array<ConfigResource<EnrichmentRuleSettings>>> {
  return deps.rules.list(input.tenant.organizationId);
}
