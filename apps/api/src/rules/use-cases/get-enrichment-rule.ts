/** GET /api/enrichment/rules/:id: one rule with its match counts. */
import type { ConfigResource, EnrichmentRuleRepository, RuleMatchRepository, RuleStats } from '@leadstream/dal';
import type { EnrichmentRuleSettings, TenantContext } from '@leadstream/domain';
import { enrichmentRuleNotFound } from './enrichment-rule-access';

export interface GetEnrichmentRuleDeps {
  rules: Pick<EnrichmentRuleRepository, 'find'>;
  matches: Pick<RuleMatchRepository, 'stats'>;
  clock: () => Date;
}

export interface GetEnrichmentRuleInput {
  tenant: TenantContext;
  ruleId: string;
}

export type EnrichmentRuleWithStats = ConfigResource<EnrichmentRuleSettings> & { stats: RuleStats };

export async function getEnrichmentRule(
  deps: GetEnrichmentRuleDeps,
  input: GetEnrichmentRuleInput,
): Promise<EnrichmentRuleWithStats> {
  const organizationId = input.tenant.organizationId;
  const rule = await deps.rules.find(organizationId, input.ruleId);
  if (!rule) throw enrichmentRuleNotFound();
  return { ...rule, stats: await deps.matches.stats(organizationId, rule.id, deps.clock()) };
}
