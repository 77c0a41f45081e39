/**
 * Enrich stage: consumes leads.unique. Runs the organization's enrichment rules and calculated
 * fields on each lead (`enrichLead`, the same function POST /api/enrichment/test answers with),
 * then either rejects the lead (a `reject` action: 422 with the rule's id and reason) or
 * completes it: fields changed, flags for manual review, status active, lead.enriched when
 * anything changed, lead.accepted, and the decision the waiting request answers 201 with.
 * Rule matches are stored with the lead (the rules' stats); rule webhooks go to
 * `rules.webhooks`, sent by their own stage, so a slow target never holds a lead.
 * A rule that cannot be evaluated flags the lead for review (a review flag naming it, from
 * `runRules`) and is logged with the rule, organization and lead, so it can be fixed.
 */
import { type EnrichmentConfigReader, RuleMatchRepository, type LeadRepository } from '@leadstream/dal';
import {
  applyEnrichment,
  enrichLead,
  ruleSubjectOf,
  withDerivedFields,
  type EnrichmentConfig,
  type EnrichmentOutcome,
  type LeadFlag,
  type LeadRecord,
} from '@leadstream/domain';
import type { Logger } from '@leadstream/runtime';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { LeadStage } from '../batch/lead-stage';
import { addIdempotentWrites, type BatchWrite, type OutputRecord } from '../batch/batch-write';
import type { ConfigSource } from '../batch/config-source';
import { advance, commandConfigVersions, deadLetter, leadStage, tenantOf } from '../batch/lead-stage';
import type { LeadBatch } from '../batch/lead-batch';
import { newId } from './ids';
import { decisionOutput, eventOutput, nextStageOutput, TOPICS } from './outputs';
import {
  capReachedOutputs,
  capRejected,
  decideCaps,
  enabledCaps,
  NO_CAP_VERDICTS,
  type CapCandidate,
  type CapsDependencies,
  type CapVerdicts,
} from './caps';

export const RULE_WEBHOOKS_TOPIC = TOPICS.ruleWebhooks;

export interface EnrichStageDependencies {
  leads: Pick<LeadRepository, 'findManyById'>;
  enrichment: Pick<EnrichmentConfigReader, 'read'>;
  config: ConfigSource;
  /** Where rules that cannot be evaluated are reported (stages.ts passes the worker's); tests may leave it out. */
  logger?: Pick<Logger, 'warn'>;
  /** Volume caps (./caps.ts, docs/caps.md); without them (tests of other stages) no lead is capped. */
  caps?: CapsDependencies;
  now?: () => Date;
}

/** What enrich decides with: the configurations, and the caps' verdicts with the outcomes they were counted on. */
interface EnrichContext {
  configs: Map<string, EnrichmentConfig>;
  /** The enrichment outcome per message id, computed in prefetch for leads the caps decided about. */
  outcomes: Map<string, EnrichmentOutcome>;
  caps: CapVerdicts;
}

/** A rule webhook to send, as it travels on rules.webhooks (keyed by lead id). */
export interface RuleWebhookMessage {
  schema_version: 1;
  id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  lead_id: string;
  rule_id: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
  created_at: string;
}

export function enrichStage(deps: EnrichStageDependencies): LeadStage {
  const now = deps.now ?? (() => new Date());
  return leadStage<EnrichContext>({
    name: 'enrich',
    topic: TOPICS.unique,
    leads: deps.leads,
    async prefetch(messages, batch) {
      const versions = commandConfigVersions(messages);
      const configs = new Map<string, EnrichmentConfig>();
      await Promise.all(
        [...versions.keys()].map(async (organizationId) => {
          configs.set(
            organizationId,
            await deps.config.get(
              organizationId,
              'enrichment',
              () => deps.enrichment.read(organizationId),
              versions.get(organizationId),
            ),
          );
        }),
      );
      return {
        configs,
        ...(deps.caps
          ? await prefetchCaps(deps.caps, deps.config, messages, batch, configs, versions, (deps.caps.now ?? now)())
          : noCaps()),
      };
    },
    decide(message, lead, { configs, outcomes, caps }, batch, write, record) {
      if (!lead) {
        write.records.push(deadLetter(record, `lead ${message.lead_id} not found (deleted, expired or never created)`));
        return 'decided';
      }
      const at = now();
      const config = configs.get(lead.organization_id);
      const outcome =
        outcomes.get(message.message_id) ?? (config ? enrichLead(ruleSubjectOf(lead), config, at) : undefined);
      for (const rule of outcome?.run.unevaluable ?? []) {
        deps.logger?.warn(
          {
            code: 'rule_unevaluable',
            rule_kind: 'enrichment',
            rule_id: rule.rule_id,
            rule_name: rule.rule_name,
            organization_id: lead.organization_id,
            lead_id: lead._id,
            error: rule.error,
            lead_outcome: outcome?.run.final_outcome,
          },
          'enrichment rule cannot be evaluated: the lead goes to manual review (unless a rule rejected it)',
        );
      }
      if (outcome) recordMatches(write, lead, outcome, at.toISOString());
      if (outcome?.run.final_outcome === 'rejected') {
        batch.put(...rejected(lead, message, outcome, at.toISOString()));
      } else {
        const cap = caps.refused.get(message.message_id);
        const [next, outputs] = cap
          ? capRejected(lead, message, cap, at.toISOString())
          : accepted(lead, message, outcome, at.toISOString());
        batch.put(next, [
          ...outputs,
          ...capReachedOutputs(next, caps.reached.get(message.message_id), at.toISOString()),
        ]);
      }
      return 'decided';
    },
  });
}

function noCaps(): Pick<EnrichContext, 'outcomes' | 'caps'> {
  return { outcomes: new Map(), caps: NO_CAP_VERDICTS };
}

/**
 * The caps' verdicts for the batch (./caps.ts): only for organizations with an enabled cap, on the
 * live leads enrichment would accept that are not duplicates; their outcomes are kept for decide.
 */
async function prefetchCaps(
  deps: CapsDependencies,
  config: ConfigSource,
  messages: LeadCommandMessage[],
  batch: LeadBatch,
  configs: Map<string, EnrichmentConfig>,
  versions: Map<string, number | undefined>,
  at: Date,
): Promise<Pick<EnrichContext, 'outcomes' | 'caps'>> {
  const caps = new Map(
    await Promise.all(
      [...versions].map(
        async ([organizationId, version]) =>
          [organizationId, await enabledCaps(deps, config, organizationId, version)] as const,
      ),
    ),
  );
  const outcomes = new Map<string, EnrichmentOutcome>();
  const candidates: CapCandidate[] = [];
  for (const message of messages) {
    const lead = batch.get(tenantOf(message), message.lead_id);
    if (!lead || lead.deleted_at || lead.applied_messages.includes(message.message_id)) continue;
    if (lead.environment !== 'live' || lead.duplicate_of || (caps.get(lead.organization_id) ?? []).length === 0)
      continue;
    const enrichment = configs.get(lead.organization_id);
    const outcome = enrichment ? enrichLead(ruleSubjectOf(lead), enrichment, at) : undefined;
    if (outcome) outcomes.set(message.message_id, outcome);
    if (outcome?.run.final_outcome === 'rejected') continue;
    const enriched = outcome ? withDerivedFields(applyEnrichment(lead, outcome)) : lead;
    candidates.push({ message, lead, subject: ruleSubjectOf(enriched) });
  }
  return { outcomes, caps: candidates.length > 0 ? await decideCaps(deps, caps, candidates, at) : NO_CAP_VERDICTS };
}

function accepted(
  lead: LeadRecord,
  message: LeadCommandMessage,
  outcome: EnrichmentOutcome | undefined,
  at: string,
): [LeadRecord, OutputRecord[]] {
  const ruleFlags = outcome?.run.flags ?? [];
  // A lead stored before flags existed has none (and FerretDB may hand back a missing array).
  const current: LeadFlag[] = lead.flags ?? [];
  const flags: LeadFlag[] =
    ruleFlags.length > 0 && !current.includes('manual_review') ? [...current, 'manual_review'] : current;
  const enriched = outcome ? withDerivedFields(applyEnrichment(lead, outcome)) : lead;
  const reviewFlags = [...((lead['review_flags'] as unknown[] | undefined) ?? []), ...ruleFlags];
  const next = advance(
    enriched,
    message,
    { type: 'ENRICHED' },
    {
      enrichment_status: 'completed',
      processed_at: at,
      flags,
      validation_status: ruleFlags.length > 0 ? 'flagged' : enriched.validation_status,
      ...(ruleFlags.length > 0 ? { review_flags: reviewFlags } : {}),
    },
    at,
  );
  const outputs: OutputRecord[] = [];
  const changes = outcome ? changesOf(lead, next) : {};
  if (outcome && (Object.keys(changes).length > 0 || ruleFlags.length > 0)) {
    outputs.push(
      eventOutput(
        next,
        'lead.enriched',
        {
          lead_id: next._id,
          rule_id: outcome.run.changes[0]?.rule_id ?? ruleFlags[0]?.rule_id ?? null,
          rule_ids: outcome.run.matched_rule_ids,
          changes,
          flags: ruleFlags,
          calculation_errors: outcome.calculationErrors,
        },
        at,
      ),
    );
  }
  outputs.push(
    decisionOutput({
      correlation_id: message.correlation_id,
      lead_id: next._id,
      outcome: 'accepted',
      decided_at: at,
      email: next.email,
      warnings: next.warnings,
      flags: next.flags,
      ...(next.duplicate_of ? { duplicate_of: next.duplicate_of } : {}),
    }),
    // `?? null` here and below: every payload names its fields, and a lead stored on FerretDB before
    // the MongoDB engine restored upserts' null fields may lack them (lead-events.ts in apps/api).
    eventOutput(
      next,
      'lead.accepted',
      { lead_id: next._id, vendor_id: next.vendor_id ?? null, status: 'active', flags: next.flags, accepted_at: at },
      at,
    ),
    ...webhookOutputs(next, outcome, at),
    nextStageOutput(TOPICS.enriched, next._id, message, 'enrich'),
  );
  return [next, outputs];
}

function rejected(
  lead: LeadRecord,
  message: LeadCommandMessage,
  outcome: EnrichmentOutcome,
  at: string,
): [LeadRecord, OutputRecord[]] {
  const ruleId = outcome.run.rejected_by ?? 'enrichment';
  const reason = outcome.run.rejection_reason ?? 'Rejected by an enrichment rule';
  const next = advance(
    lead,
    message,
    { type: 'ENRICHMENT_REJECTED', ruleId, message: reason },
    {
      enrichment_status: 'completed',
      crm_sync_status: 'not_applicable',
      processed_at: at,
      rejection_reason: 'failed_custom_rule',
      rule_id: ruleId,
    },
    at,
  );
  return [
    next,
    [
      eventOutput(
        next,
        'lead.rejected',
        {
          lead_id: next._id,
          lead: { email: next.email ?? null, first_name: next.first_name ?? null, rejected_at: at },
          rejection_reason: 'failed_custom_rule',
          rule_id: ruleId,
          message: reason,
        },
        at,
      ),
      decisionOutput({
        correlation_id: message.correlation_id,
        lead_id: next._id,
        outcome: 'rejected',
        decided_at: at,
        email: next.email,
        reason: 'failed_custom_rule',
        rule_id: ruleId,
        message: reason,
      }),
      ...webhookOutputs(next, outcome, at),
    ],
  ];
}

/** Fields of the stored lead that enrichment may change; nested objects compare whole. */
const ENRICHABLE_FIELDS = [
  'email',
  'first_name',
  'last_name',
  'phone',
  'source',
  'program',
  'program_interest',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'custom_fields',
  'enrichment_data',
  'calculated_fields',
] as const;

/**
 * What enrichment changed, as `{field: {old, new}}` like lead.updated: top-level fields only, the
 * objects (custom_fields, enrichment_data, calculated_fields) old and new as a whole, since stored
 * documents cannot hold keys with dots (docs/store.md).
 */
export function changesOf(before: LeadRecord, after: LeadRecord): Record<string, { old: unknown; new: unknown }> {
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const field of ENRICHABLE_FIELDS) {
    const old = before[field] ?? (field === 'calculated_fields' ? {} : null);
    const next = after[field] ?? (field === 'calculated_fields' ? {} : null);
    if (JSON.stringify(old) !== JSON.stringify(next)) changes[field] = { old, new: next };
  }
  return changes;
}

function recordMatches(write: BatchWrite, lead: LeadRecord, outcome: EnrichmentOutcome, at: string): void {
  if (outcome.run.matched_rule_ids.length === 0) return;
  addIdempotentWrites(
    write,
    RuleMatchRepository.COLLECTION,
    outcome.run.matched_rule_ids.map((ruleId) =>
      RuleMatchRepository.recordOperation({
        organization_id: lead.organization_id,
        rule_id: ruleId,
        lead_id: lead._id,
        matched_at: at,
      }),
    ),
  );
}

function webhookOutputs(lead: LeadRecord, outcome: EnrichmentOutcome | undefined, at: string): OutputRecord[] {
  return (outcome?.run.webhooks ?? []).map((webhook) => {
    const message: RuleWebhookMessage = {
      schema_version: 1,
      id: newId('rwh'),
      organization_id: lead.organization_id,
      environment: lead.environment,
      lead_id: lead._id,
      rule_id: webhook.rule_id,
      url: webhook.url,
      method: webhook.method,
      headers: webhook.headers,
      body: webhook.body,
      created_at: at,
    };
    return { topic: RULE_WEBHOOKS_TOPIC, key: lead._id, value: JSON.stringify(message) };
  });
}
