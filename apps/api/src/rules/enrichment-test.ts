/**
 * What POST /api/enrichment/test answers (`testEnrichmentRules`): the organization's rules, lookup tables and
 * calculated fields run on the given lead by `enrichLead`, the enrich stage's own function, so a
 * test answer and an ingested lead cannot disagree. Pure: it runs on a tester thread
 * (enrichment-tester.ts), never on the API's event loop.
 */
import { enrichLead, ruleSubjectOf, type EnrichmentConfig, type RuleRun } from '@leadstream/domain';

export interface EnrichmentTestAnswer {
  results: RuleRun['results'];
  final_outcome: RuleRun['final_outcome'];
  rejection_reason: RuleRun['rejection_reason'];
}

export function runEnrichmentTest(
  leadData: Record<string, unknown>,
  config: EnrichmentConfig,
  now: Date,
): EnrichmentTestAnswer {
  const { run } = enrichLead(ruleSubjectOf(leadData), config, now);
  return { results: run.results, final_outcome: run.final_outcome, rejection_reason: run.rejection_reason };
}
