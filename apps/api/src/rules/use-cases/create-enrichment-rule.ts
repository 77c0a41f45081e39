/** POST /api/enrichment/rules: a new rule, within the organization's plan; announced to the config cache. */
import type { ConfigResource, EnrichmentRuleRepository } from '@leadstream/dal';
import { parseEnrichmentRuleCreate, type EnrichmentRuleSettings, type TenantContext } from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import type { PlanLimitGate } from '../plan-limit-gate';
import {
  checkedRuleSettings,
  invalidEnrichmentRule,
  knownNames,
  ruleId,
  webhookTargetProblems,
  type KnownNamesDeps,
  type RuleTargetOptions,
} from './enrichment-rule-access';

export interface CreateEnrichmentRuleDeps extends KnownNamesDeps {
  rules: Pick<EnrichmentRuleRepository, 'count' | 'create'>;
  planLimits: Pick<PlanLimitGate, 'admit'>;
  configCache: Pick<ConfigCache, 'changed'>;
  outbound: RuleTargetOptions;
  clock: () => Date;
}

export interface CreateEnrichmentRuleInput {
  tenant: TenantContext;
  body: unknown;
}

export async function createEnrichmentRule(
  deps: CreateEnrichmentRuleDeps,
  input: CreateEnrichmentRuleInput,
): Promise<ConfigResource<EnrichmentRuleSettings>> {
  const organizationId = input.tenant.organizationId;
  const settings = checkedRuleSettings(parseEnrichmentRuleCreate(input.body, await knownNames(deps, organizationId)));
  const unreachable = await webhookTargetProblems(deps.outbound, settings);
  if (unreachable.length > 0) throw invalidEnrichmentRule(unreachable);
  const rule = await deps.planLimits.admit(
    input.tenant,
    'enrichment_rules',
    1,
    () => deps.rules.count(organizationId),
    () => deps.rules.create(organizationId, ruleId(), settings, deps.clock().toISOString()),
  );
  await deps.configCache.changed(organizationId, 'enrichment_rules');
  return rule;
}
