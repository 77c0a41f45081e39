/** DELETE /api/enrichment/rules/:id; announced to the config cache. */
import type { EnrichmentRuleRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { enrichmentRuleNotFound } from './enrichment-rule-access';

export interface DeleteEnrichmentRuleDeps {
  rules: Pick<EnrichmentRuleRepository, 'delete'>;
  configCache: Pick<ConfigCache, 'changed'>;
}

export interface DeleteEnrichmentRuleInput {
  tenant: TenantContext;
  ruleId: string;
}

export async function deleteEnrichmentRule(
  deps: DeleteEnrichmentRuleDeps,
  input: DeleteEnrichmentRuleInput,
): Promise<void> {
  const organizationId = input.tenant.organizationId;
  if (!(await deps.rules.delete(organizationId, input.ruleId))) throw enrichmentRuleNotFound();
  await deps.configCache.changed(organizationId, 'enrichment_rules');
}
