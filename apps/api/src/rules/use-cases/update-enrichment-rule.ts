/** PATCH /api/enrichment/rules/:id: a partial update; webhook targets are checked when actions are sent. */
import type { ConfigResource, EnrichmentRuleRepository } from '@leadstream/dal';
import { parseEnrichmentRulePatch, type EnrichmentRuleSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import {
  checkedRuleSettings,
  enrichmentRuleNotFound,
  invalidEnrichmentRule,
  knownNames,
  webhookTargetProblems,
  type KnownNamesDeps,
  type RuleTargetOptions,
} from './enrichment-rule-access';

export interface UpdateEnrichmentRuleDeps extends KnownNamesDeps {
  rules: Pick<EnrichmentRuleRepository, 'find' | 'update'>;
  configCache: Pick<ConfigCache, 'changed'>;
  outbound: RuleTargetOptions;
  clock: () => Date;
}

export interface UpdateEnrichmentRuleInput {
  tenant: TenantContext;
  ruleId: string;
  body: unknown;
}

export async function updateEnrichmentRule(
  deps: UpdateEnrichmentRuleDeps,
  input: UpdateEnrichmentRuleInput,
): Promise<ConfigResource<EnrichmentRuleSettings>> {
  const organizationId = input.tenant.organizationId;
  const current = await deps.rules.find(organizationId, input.ruleId);
  if (!current) throw enrichmentRuleNotFound();
  const settings = checkedRuleSettings(
    parseEnrichmentRulePatch(input.body, current, await knownNames(deps, organizationId)),
  );
  // Only actions the request sends are checked: a PATCH of the name or `enabled` resolves no name.
  if (typeof input.body === 'object' && input.body !== null && 'actions' in input.body) {
    const unreachable = await webhookTargetProblems(deps.outbound, settings);
    if (unreachable.length > 0) throw invalidEnrichmentRule(unreachable);
  }
  const updated = await deps.rules.update(organizationId, input.ruleId, settings, deps.clock().toISOString());
  if (!updated) throw enrichmentRuleNotFound();
  await deps.configCache.changed(organizationId, 'enrichment_rules');
  return updated;
}
