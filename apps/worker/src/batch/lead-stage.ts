/**
 * The shape every lead stage shares (validate, dedup, enrich and the stages to come): parse the
 * batch's lead commands, read their leads at once, prefetch what the decisions need, then decide
 * each command in order on the lead as the batch has it. A command the lead has applied already
 * (a redelivery) changes nothing and produces nothing new.
 */
import type { LeadRepository } from '@leadstream/dal';
import {
  advanceLead,
  leadStatusOf,
  type LeadActorEvent,
  type LeadRecord,
  type TenantContext,
  withFields,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { deadLetterTopic, startSpanFrom, traceHeadersOf, tracingEnabled } from '@leadstream/runtime';
import { parseLeadCommand, type LeadCommandMessage } from '@leadstream/schemas';
import type { BatchStage, StageBatchResult } from './batch-stage';
import { type BatchWrite, emptyBatchWrite, type OutputRecord } from './batch-write';
import { newestConfigVersions } from './config-source';
import { LeadBatch } from './lead-batch';
import { intakeTimelineStage, recordIntakeStage } from '../timeline/intake-timeline';

/** What `decide` tells the batch: the command is decided, or it must wait for the batch so far to be stored. */
export type DecideResult = 'decided' | 'stop';

export interface LeadStageSpec<Context> {
  name: string;
  topic: string;
  leads: Pick<LeadRepository, 'findManyById'>;
  /** Everything the decisions need beyond the leads: configuration, look-ups (in parallel, bounded). */
  prefetch(messages: LeadCommandMessage[], batch: LeadBatch): Promise<Context>;
  /** Decides one command in memory: `batch.put` the lead's next state and outputs, add documents to `write`. */
  decide(
    message: LeadCommandMessage,
    lead: LeadRecord | null,
    context: Context,
    batch: LeadBatch,
    write: BatchWrite,
    record: LogRecord,
  ): DecideResult;
}

export function tenantOf(message: Pick<LeadCommandMessage, 'organization_id' | 'environment'>): TenantContext {
  return { organizationId: message.organization_id, environment: message.environment };
}

/** A record that can never be handled, to `<topic>.dlq` with the reason. */
export function deadLetter(record: LogRecord, reason: string): OutputRecord {
  return {
    topic: deadLetterTopic(record.topic),
    key: record.key,
    value: record.value,
    headers: {
      ...record.headers,
      'x-dlq-reason': reason.slice(0, 500),
      'x-dlq-source': `${record.topic}/${record.partition}/${record.offset}`,
    },
  };
}

/** A lead stage: a BatchStage of its own, and the spec a stage chain runs in its batch (stage-chain.ts). */
export interface LeadStage extends BatchStage {
  readonly spec: LeadStageSpec<unknown>;
}

/** One lead command of a batch, with the record it came in (or the record that started its chain). */
export interface LeadStep {
  message: LeadCommandMessage;
  record: LogRecord;
}

/**
 * Decides `steps` with one stage on the leads `batch` holds: the stage's prefetch, then each
 * command in order. Returns how many steps it decided (fewer only when `decide` stopped).
 */
export async function decideSteps<Context>(
  spec: LeadStageSpec<Context>,
  steps: LeadStep[],
  batch: LeadBatch,
  write: BatchWrite,
): Promise<number> {
  // With tracing on, a span of this stage per command, child of its record's span (the record
  // that started the chain); what the stage puts on the batch for other topics carries it on. A
  // failure leaves them unended (never exported): the record's span records it.
  const spans = tracingEnabled()
    ? steps.map((step) =>
        startSpanFrom(spec.name, step.record.headers, { attributes: { 'leadstream.lead_id': step.message.lead_id } }),
      )
    : undefined;
  const endSpans = (): void => spans?.forEach((span) => span?.end());
  // The lead's timeline entry of this stage (docs/timeline.md): entered when the batch entered the stage.
  const timelineStage = intakeTimelineStage(spec.name);
  const enteredAt = new Date();
  const context = await spec.prefetch(
    steps.map((step) => step.message),
    batch,
  );
  for (let index = 0; index < steps.length; index++) {
    const { message, record } = steps[index]!;
    const lead = batch.get(tenantOf(message), message.lead_id);
    if (lead?.applied_messages.includes(message.message_id)) continue;
    if (spans) batch.traceWith(traceHeadersOf(spans[index]));
    const decided = spec.decide(message, lead, context, batch, write, record);
    if (spans) batch.traceWith(undefined);
    if (timelineStage && decided === 'decided')
      recordIntakeStage(batch, timelineStage, message, lead, record, enteredAt, new Date());
    if (decided === 'stop') {
      endSpans();
      return index;
    }
  }
  endSpans();
  return steps.length;
}

/** Parses a batch's lead commands; the unreadable ones become dead letters, by index. */
export function parseLeadSteps(records: LogRecord[]): {
  steps: Array<LeadStep | undefined>;
  unreadable: Map<number, OutputRecord>;
} {
  const unreadable = new Map<number, OutputRecord>();
  const steps = records.map((record, index): LeadStep | undefined => {
    try {
      return { message: parseLeadCommand(JSON.parse(record.value)), record };
    } catch (error) {
      unreadable.set(
        index,
        deadLetter(record, `not a lead command: ${error instanceof Error ? error.message : String(error)}`),
      );
      return undefined;
    }
  });
  return { steps, unreadable };
}

/** Reads the leads of the commands at once, after any outbox another writer is still producing. */
export async function prefetchLeads(
  leads: Pick<LeadRepository, 'findManyById'>,
  messages: LeadCommandMessage[],
): Promise<LeadBatch> {
  const batch = await LeadBatch.prefetch(
    leads,
    messages.map((message) => ({ tenant: tenantOf(message), id: message.lead_id })),
  );
  await waitForInFlightOutboxes(leads, batch, messages);
  return batch;
}

export function leadStage<Context>(spec: LeadStageSpec<Context>): LeadStage {
  return {
    name: spec.name,
    topic: spec.topic,
    spec,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const { steps, unreadable } = parseLeadSteps(records);
      const parsed = steps.filter((step): step is LeadStep => step !== undefined);
      const batch = await prefetchLeads(
        spec.leads,
        parsed.map((step) => step.message),
      );
      const decided = await decideSteps(spec, parsed, batch, write);
      // The records up to the first undecided step (unreadable ones before it are decided too).
      const handled = decided === parsed.length ? records.length : records.indexOf(parsed[decided]!.record);
      if (handled === 0) throw new Error(`stage ${spec.name} stopped before its first record`);
      // Unreadable records after a stop come again with the rest of the batch.
      for (const [index, letter] of unreadable) if (index < handled) write.records.push(letter);
      batch.toWrite(write);
      return { write, handled };
    },
  };
}

/** How long an outbox is taken to belong to a writer still producing it; older ones are left-overs of a crash. */
const OUTBOX_IN_FLIGHT_MS = 5_000;
const OUTBOX_POLL_MS = 10;

/**
 * Waits until no lead of the batch has an outbox another writer is still producing (only with a
 * transactional outbox, Kafka + MongoDB; the embedded engines never keep one). The message that
 * reaches this stage is one of that writer's outputs, so its clear follows within milliseconds;
 * a crash leaves the outbox, which after OUTBOX_IN_FLIGHT_MS this batch carries and produces.
 */
async function waitForInFlightOutboxes(
  leads: Pick<LeadRepository, 'findManyById'>,
  batch: LeadBatch,
  messages: LeadCommandMessage[],
): Promise<void> {
  const applied = new Set(messages.map((message) => message.message_id));
  const started = Date.now();
  for (;;) {
    const waiting = batch.inFlight(Date.now(), OUTBOX_IN_FLIGHT_MS, applied);
    if (waiting.length === 0 || Date.now() - started > OUTBOX_IN_FLIGHT_MS) return;
    await new Promise((resolve) => setTimeout(resolve, OUTBOX_POLL_MS));
    const again = messages.filter((message) => waiting.includes(message.lead_id));
    const fresh = await LeadBatch.prefetch(
      leads,
      again.map((message) => ({ tenant: tenantOf(message), id: message.lead_id })),
    );
    batch.refresh(fresh.all());
  }
}

/** Runs `work` over `items` with at most `limit` at a time, keeping results in order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** A lead command message handed to the next stage (keyed by lead id from dedup on). */
export function nextMessage(from: LeadCommandMessage, stage: string): LeadCommandMessage {
  return {
    schema_version: 1,
    message_id: `${from.message_id}>${stage}`,
    correlation_id: from.correlation_id,
    lead_id: from.lead_id,
    organization_id: from.organization_id,
    environment: from.environment,
    vendor_id: from.vendor_id,
    submitted_at: from.submitted_at,
    ...configVersionOf(from),
  };
}

/** The configuration version the api stamped on the command (configuration that is never stale: docs/decisions.md "Configuration freshness"). */
/** The newest configuration version stamped on the commands, per organization (ConfigSource.get's minVersion). */
export function commandConfigVersions(messages: readonly LeadCommandMessage[]): Map<string, number | undefined> {
  return newestConfigVersions(
    messages.map((message) => ({ organization_id: message.organization_id, ...configVersionOf(message) })),
  );
}

export function configVersionOf(message: LeadCommandMessage): { config_version?: number } {
  const version = (message as { config_version?: unknown }).config_version;
  return typeof version === 'number' ? { config_version: version } : {};
}

/**
 * The lead after one command: the actor's transition, its status, the fields the stage sets, and
 * the command's id among the applied ones (a redelivery then changes nothing).
 */
export function advance(
  lead: LeadRecord,
  message: Pick<LeadCommandMessage, 'message_id'>,
  event: LeadActorEvent,
  set: Partial<LeadRecord>,
  at: string,
): LeadRecord {
  const actor = advanceLead(lead.actor, event);
  return withFields<LeadRecord>(lead, {
    ...set,
    actor,
    status: leadStatusOf(actor.state),
    updated_at: at,
    applied_messages: [...lead.applied_messages, message.message_id],
  });
}
