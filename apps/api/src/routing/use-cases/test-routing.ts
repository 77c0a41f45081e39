/**
 * POST /api/routing/test: where a lead would be routed, as enrichment leaves it (its rules and
 * calculated fields), as the route stage does; stores nothing.
 */
import type { EnrichmentConfigReader, RoutingConfigReader, RoutingCounterRepository } from '@leadstream/dal';
import {
  enrichLead,
  matchRoutingRule,
  routeLead,
  ruleSubjectOf,
  type RouteDecision,
  type TenantContext,
} from '@leadstream/domain';

export interface TestRoutingDeps {
  routing: Pick<RoutingConfigReader, 'read' | 'enabledConnectionIds'>;
  enrichment: Pick<EnrichmentConfigReader, 'read'>;
  counters: Pick<RoutingCounterRepository, 'peek'>;
  clock: () => Date;
}

export interface TestRoutingInput {
  tenant: TenantContext;
  leadData: Record<string, unknown>;
  /** Lets a weighted rule answer for that lead (the hash is of the id); the email otherwise. */
  leadId: string | undefined;
}

export interface TestRoutingResult {
  decision: RouteDecision;
  /** The matched rule's name, null when no rule matched. */
  ruleName: string | null;
  /** A lead enrichment rejects never reaches routing; the answer says so and still shows the route its fields would get. */
  enrichmentOutcome: 'accepted' | 'rejected';
}

export async function testRouting(deps: TestRoutingDeps, input: TestRoutingInput): Promise<TestRoutingResult> {
  const { tenant, leadData, leadId } = input;
  const [config, enrichment] = await Promise.all([
    deps.routing.read(tenant.organizationId),
    deps.enrichment.read(tenant.organizationId),
  ]);
  const enriched = enrichLead(ruleSubjectOf(leadData), enrichment, deps.clock());
  const subject = enriched.subject;
  const matched = matchRoutingRule(subject, config.rules);
  // Where the rotation stands now: the answer names the target the next lead of that rule gets.
  const position = matched?.distribution === 'round_robin' ? await deps.counters.peek(tenant, matched.id) : undefined;
  const connections = await deps.routing.enabledConnectionIds(tenant);
  const key = leadId ?? (typeof leadData['email'] === 'string' ? leadData['email'] : '');
  const decision = routeLead({ id: key, subject }, config.rules, config.settings, {
    connections,
    ...(position !== undefined ? { position } : {}),
  });
  return {
    decision,
    ruleName: matched?.name ?? null,
    enrichmentOutcome: enriched.run.final_outcome === 'rejected' ? 'rejected' : 'accepted',
  };
}
