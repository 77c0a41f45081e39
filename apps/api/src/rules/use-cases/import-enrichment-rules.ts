/**
 * POST /api/enrichment/rules/import: adds the document's rules (never replaces), all or nothing
 * within the organization's plan; announced to the config cache.
 */
import type { ConfigResource, EnrichmentRuleRepository } from '@leadstream/dal';
import {
  parseRulesImport,
  ruleFormulaProblems,
  type EnrichmentRuleSettings,
  type ErrorDetail,
  type TenantContext,
} from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { parseEnrichmentRulesDocument, SchemaError } from '@leadstream/schemas';
import type { PlanLimitGate } from '../plan-limit-gate';
import {
  invalidEnrichmentRule,
  knownNames,
  ruleId,
  schemaDetails,
  webhookTargetProblems,
  type KnownNamesDeps,
  type RuleTargetOptions,
} from './enrichment-rule-access';

export interface ImportEnrichmentRulesDeps extends KnownNamesDeps {
  rules: Pick<EnrichmentRuleRepository, 'count' | 'createMany'>;
  planLimits: Pick<PlanLimitGate, 'admit'>;
  configCache: Pick<ConfigCache, 'changed'>;
  outbound: RuleTargetOptions;
  clock: () => Date;
}

export interface ImportEnrichmentRulesInput {
  tenant: TenantContext;
  body: unknown;
}

export interface ImportEnrichmentRulesResult {
  created: Array<ConfigResource<EnrichmentRuleSettings>>;
  /** The document's rule ids, each to the id of the rule made from it. */
  ids: Record<string, string>;
}

export async function importEnrichmentRules(
  deps: ImportEnrichmentRulesDeps,
  input: ImportEnrichmentRulesInput,
): Promise<ImportEnrichmentRulesResult> {
  const organizationId = input.tenant.organizationId;
  try {
    parseEnrichmentRulesDocument(input.body);
  } catch (error) {
    if (error instanceof SchemaError) throw invalidEnrichmentRule(schemaDetails(error));
    throw error;
  }
  const parsed = parseRulesImport(input.body, await knownNames(deps, organizationId));
  if (!parsed.ok) throw invalidEnrichmentRule(parsed.details);
  const problems = parsed.value.flatMap((settings, index) => ruleFormulaProblems(settings, `rules[${index}].`));
  if (problems.length > 0) throw invalidEnrichmentRule(problems);
  const unreachable: ErrorDetail[] = [];
  for (const [index, settings] of parsed.value.entries())
    unreachable.push(...(await webhookTargetProblems(deps.outbound, settings, `rules[${index}].`)));
  if (unreachable.length > 0) throw invalidEnrichmentRule(unreachable);
  const originalIds = ((input.body as { rules: Array<{ id?: unknown }> }).rules ?? []).map((rule) =>
    typeof rule.id === 'string' ? rule.id : null,
  );
  const records = parsed.value.map((settings) => ({ id: ruleId(), settings }));
  // All or nothing: an import that would take the organization past its plan adds no rule.
  const created = await deps.planLimits.admit(
    input.tenant,
    'enrichment_rules',
    records.length,
    () => deps.rules.count(organizationId),
    () => deps.rules.createMany(organizationId, records, deps.clock().toISOString()),
  );
  await deps.configCache.changed(organizationId, 'enrichment_rules');
  const ids: Record<string, string> = {};
  originalIds.forEach((original, index) => {
    if (original) ids[original] = records[index]!.id;
  });
  return { created, ids };
}
