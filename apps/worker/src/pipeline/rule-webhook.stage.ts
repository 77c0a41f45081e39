/**
 * Rule-webhook stage: consumes rules.webhooks (the `webhook` actions of enrichment rules) and
 * calls each target through the runtime's outbound HTTP (https, public addresses only, bounded
 * time). A call is tried once: the result, success or failure, is recorded as an entry of the
 * lead's activity log (event `rule.webhook`, keyed by the call's id, so a redelivered batch
 * records nothing twice). Each call's outcome is kept before the commit, by the call's id, as
 * crm-sync keeps its calls' outcomes: a batch run again (a failed commit, or its records tried one
 * at a time around one that fails every time) records the kept outcome and calls nobody twice. A
 * crash between a call and the commit still calls again on redelivery (at-least-once). Headers
 * that may not be sent are left out (`sendableHeaders`). The lead
 * itself was decided before: a slow or failing target never holds the pipeline longer than the
 * timeout, and never fails a lead.
 */
import { LeadActivityRepository, type LeadActivityEntry } from '@leadstream/dal';
import { outboundHeaderProblem } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { sendOutbound, type OutboundOptions } from '@leadstream/runtime';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { emptyBatchWrite } from '../batch/batch-write';
import { deadLetter, mapBounded } from '../batch/lead-stage';
import { KeptOutcomes } from '../batch/kept-outcomes';
import { RULE_WEBHOOKS_TOPIC, type RuleWebhookMessage } from './enrich.stage';

export interface RuleWebhookStageOptions {
  /** Per call (default 10 s). */
  timeoutMs?: number;
  allowInsecureTargets?: boolean;
  resolve?: OutboundOptions['resolve'];
  /** Calls of one batch in flight at once. */
  concurrency?: number;
  now?: () => Date;
}

const DEFAULT_TIMEOUT_MS = 10_000;
/** Calls' outcomes kept for a batch run again (a call is not made twice), oldest dropped first. */
const OUTCOME_CACHE_LIMIT = 10_000;

function parseMessage(value: string): RuleWebhookMessage {
  const message = JSON.parse(value) as Partial<RuleWebhookMessage>;
  if (
    message.schema_version !== 1 ||
    typeof message.id !== 'string' ||
    typeof message.url !== 'string' ||
    typeof message.lead_id !== 'string' ||
    typeof message.organization_id !== 'string'
  ) {
    throw new Error('not a rule webhook message');
  }
  return message as RuleWebhookMessage;
}

/**
 * The headers of a rule webhook that may be sent, and the names of those left out. Rules are
 * checked when saved, but one saved before that check may carry a line break, Host and the like:
 * such a header is left out (and named in the activity entry) rather than failing the call.
 */
export function sendableHeaders(headers: Record<string, unknown> | undefined): {
  headers: Record<string, string>;
  skipped: string[];
} {
  const sendable: Record<string, string> = {};
  const skipped: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value === 'string' && outboundHeaderProblem(name, value) === null) sendable[name] = value;
    else skipped.push(name);
  }
  return { headers: sendable, skipped };
}

export function ruleWebhookStage(options: RuleWebhookStageOptions = {}): BatchStage {
  const now = options.now ?? (() => new Date());
  // By call id: the activity entry of each call made.
  const outcomes = new KeptOutcomes<LeadActivityEntry>(OUTCOME_CACHE_LIMIT);
  const call = async (record: LogRecord, message: RuleWebhookMessage): Promise<LeadActivityEntry> => {
    const { headers, skipped } = sendableHeaders(message.headers);
    const result = await sendOutbound(
      {
        url: message.url,
        method: message.method,
        headers,
        ...(message.body !== null && message.method !== 'GET' ? { body: message.body } : {}),
      },
      {
        timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ...(options.allowInsecureTargets ? { allowInsecureTargets: true } : {}),
        ...(options.resolve ? { resolve: options.resolve } : {}),
      },
    );
    return {
      _id: message.id,
      organization_id: message.organization_id,
      environment: message.environment,
      lead_id: message.lead_id,
      event: 'rule.webhook',
      timestamp: now().toISOString(),
      sequence: Number(record.offset),
      description: result.ok
        ? `Rule webhook delivered (HTTP ${result.status})`
        : `Rule webhook failed: ${result.error}`,
      metadata: {
        rule_id: message.rule_id,
        url: message.url,
        method: message.method,
        success: result.ok,
        response_status: result.status,
        response_time_ms: result.timeMs,
        ...(result.ok ? {} : { error: result.error, error_code: result.code }),
        ...(skipped.length > 0 ? { skipped_headers: skipped } : {}),
      },
    };
  };
  return {
    name: 'rule-webhook',
    topic: RULE_WEBHOOKS_TOPIC,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const calls: Array<{ record: LogRecord; message: RuleWebhookMessage }> = [];
      for (const record of records) {
        try {
          calls.push({ record, message: parseMessage(record.value) });
        } catch (error) {
          write.records.push(deadLetter(record, error instanceof Error ? error.message : String(error)));
        }
      }
      const entries = await mapBounded(
        calls,
        options.concurrency ?? 16,
        async ({ record, message }): Promise<LeadActivityEntry> => {
          // Called already by an earlier run of this batch: its outcome, without calling again.
          const known = outcomes.get(message.id);
          if (known) return known;
          const entry = call(record, message);
          outcomes.keep(message.id, entry);
          return entry;
        },
      );
      if (entries.length > 0)
        write.documents.push({
          collection: LeadActivityRepository.COLLECTION,
          operations: entries.map((entry) => LeadActivityRepository.recordOperation(entry)),
        });
      return { write, handled: records.length };
    },
  };
}
