/**
 * How a pipeline stage consumes (docs/pipeline.md, docs/architecture.md): a batch of one partition
 * at a time, in three steps inside `process` (prefetch, decide each record in memory, collect every
 * write), then one commit through the BatchWriter.
 *
 * Failures:
 * - a lead, or a document the batch writes as compare-and-set (CollectionWrites.compareAndSet),
 *   written meanwhile by someone else (WriteConflictError): the batch is decided again on fresh
 *   state. A stage that calls out while deciding keeps each call's outcome for such a run again
 *   (crm-sync, deliver, rule-webhook), as for the runs below;
 * - a transient failure of the store or the log (connection lost, broker not leader, busy): the
 *   batch is retried with backoff for as long as the process runs, and never dead-lettered;
 * - any other failure: the records are retried one at a time, so the one that fails the same way
 *   every time goes to `<topic>.dlq` alone (after `maxAttempts`) and the others pass.
 */
import type { Batch, LogRecord } from '@leadstream/ports';
import {
  deadLetterTopic,
  endSpan,
  type IntakePriority,
  type Logger,
  type Metrics,
  type Span,
  SpanKind,
  startSpanFrom,
  TOPICS,
  traceHeadersOf,
  tracingEnabled,
} from '@leadstream/runtime';
import { recordActivity } from './activity-entries';
import { packLeadEvents } from './pack-events';
import { observeTimelines } from '../timeline/timeline-metrics';
import { type BatchWrite, type BatchWriter, emptyBatchWrite, WriteConflictError } from './batch-write';

export interface StageBatchResult {
  write: BatchWrite;
  /**
   * How many of the records (from the first) the write covers. A stage may stop early (the dedup
   * stage does when a record must see an earlier one of the batch stored first); the runner
   * commits, then hands it the rest.
   */
  handled: number;
  /** Counts what the write made real (a stage's own metrics), called once it is committed. */
  committed?: (metrics: Metrics) => void;
}

export interface BatchStage {
  /** The stage name, also its consumer group. */
  readonly name: string;
  readonly topic: string;
  process(records: LogRecord[]): Promise<StageBatchResult>;
}

export interface BatchStageHandlerOptions {
  writer: BatchWriter;
  logger: Logger;
  metrics: Metrics;
  isTransient: (error: unknown) => boolean;
  /** Attempts of a record that fails the same way every time before it is dead-lettered. */
  maxAttempts?: number;
  /** Base of the exponential backoff between attempts, capped at maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** True once the process is stopping: transient retries give up so the batch stays uncommitted. */
  isStopping?: () => boolean;
  sleep?: (ms: number) => Promise<void>;
  /** Write the activity entries of the lead events a batch produces in its commit (default true). */
  recordActivity?: boolean;
  /**
   * Intake first (docs/pipeline.md): the intake chain tells the thread's IntakePriority when it
   * runs; an outbound stage waits its turn before each batch and reports what the batch took.
   */
  priority?: { gate: IntakePriority; role: 'intake' | 'outbound' };
}

const MAX_CONFLICT_RETRIES = 20;
/** How long an outbound stage's commit may hold the thread while the intake is busy (ms, about). */
const OUTBOUND_TURN_MS = 10;
/** Records of an outbound stage's turn before its commits were timed, and the fewest of any turn. */
const OUTBOUND_FIRST_TURN_RECORDS = 16;
const OUTBOUND_MIN_TURN_RECORDS = 4;
/** The most a batch waits before deciding again after a write conflict (random, from 0). */
const CONFLICT_MAX_BACKOFF_MS = 100;

export class BatchStageHandler {
  private readonly sleep: (ms: number) => Promise<void>;
  /** Milliseconds this handler's commits have taken (what an outbound stage owes the intake). */
  private commitMs = 0;
  /** An outbound stage's recent commit time per record (ms, a moving average), for its turns' size. */
  private commitMsPerRecord: number | undefined;

  constructor(
    private readonly stage: BatchStage,
    private readonly options: BatchStageHandlerOptions,
  ) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The consumer's batch handler. */
  readonly handle = async (batch: Batch): Promise<void> => {
    const priority = this.options.priority;
    let rest = batch.records;
    while (rest.length > 0) {
      const some = priority?.role === 'outbound' ? await this.outboundTurn(priority.gate, rest) : rest;
      const committedBefore = this.commitMs;
      const handled = await this.handleSome(batch, some);
      const committed = this.commitMs - committedBefore;
      if (priority?.role === 'intake') priority.gate.intakeRan();
      else if (priority) {
        // What the thread spent: the commit (the store's writes, synchronous on the embedded engines),
        // not the wall time, which for deliver and crm-sync is mostly waiting on the receivers.
        priority.gate.outboundRan(committed);
        const perRecord = committed / handled;
        this.commitMsPerRecord =
          this.commitMsPerRecord === undefined ? perRecord : 0.8 * this.commitMsPerRecord + 0.2 * perRecord;
      }
      rest = rest.slice(handled);
    }
  };

  /**
   * An outbound stage's next records while the intake is busy: it waits its turn, then takes what
   * its recent commits say fits in OUTBOUND_TURN_MS (16 records before it knows), so the intake's
   * batches never wait behind a long one (a notify batch of 200 events to 10 webhooks is 2,000
   * delivery records), while a stage with little to write keeps its whole batch.
   */
  private async outboundTurn(gate: IntakePriority, records: LogRecord[]): Promise<LogRecord[]> {
    if (!gate.intakeBusy()) return records;
    await gate.outboundTurn(this.options.isStopping);
    const perRecord = this.commitMsPerRecord;
    const fits =
      perRecord === undefined
        ? OUTBOUND_FIRST_TURN_RECORDS
        : Math.max(OUTBOUND_MIN_TURN_RECORDS, Math.floor(OUTBOUND_TURN_MS / Math.max(perRecord, 0.001)));
    return records.slice(0, fits);
  }

  private async handleSome(batch: Batch, records: LogRecord[]): Promise<number> {
    const { maxAttempts = 3 } = this.options;
    let failures = 0;
    const began = performance.now();
    for (let attempt = 1; ; attempt++) {
      // With tracing on, a span per record (child of the record's trace context), and the stage sees
      // the record with that span as its trace context (docs/operations.md, "Tracing").
      const traced = tracingEnabled() ? recordSpans(this.stage.name, records) : undefined;
      try {
        const started = performance.now();
        const { write, handled, committed } = await this.stage.process(traced?.records ?? records);
        // The activity entries of the events this batch produces, in the same commit: only where
        // the commit is one transaction. A writer that stores documents before the leads (the
        // outbox writer) could keep the entry of an event that a conflict or a crash then
        // replaces with another; there the activity stage records what was produced.
        packLeadEvents(write);
        if (this.options.writer.atomic && this.options.recordActivity !== false) recordActivity(write);
        if (handled < 1 || handled > records.length)
          throw new Error(`stage ${this.stage.name} handled ${handled} of ${records.length} records`);
        const decided = performance.now();
        await this.options.writer.commit(write, this.position(batch, records[handled - 1]!));
        this.commitMs += performance.now() - decided;
        this.options.metrics.stageBatchDuration.observe({ stage: this.stage.name }, (performance.now() - began) / 1000);
        countDecisions(this.options.metrics, write);
        observeTimelines(this.options.metrics, write);
        committed?.(this.options.metrics);
        this.options.logger.debug(
          {
            stage: this.stage.name,
            partition: batch.partition,
            records: handled,
            leads: write.leads.length,
            decideMs: Math.round(decided - started),
            commitMs: Math.round(performance.now() - decided),
          },
          'batch committed',
        );
        traced?.end();
        return handled;
      } catch (error) {
        traced?.end(error);
        if (error instanceof WriteConflictError && attempt <= MAX_CONFLICT_RETRIES) {
          this.options.metrics.stageRetries.inc({ stage: this.stage.name, reason: 'conflict' });
          this.options.logger.debug(
            { stage: this.stage.name, ids: error.leadIds, err: error },
            'written meanwhile; deciding the batch again',
          );
          // Another writer of the same leads is at work: a short random wait keeps the two from
          // colliding again and again.
          await this.sleep(Math.random() * Math.min(CONFLICT_MAX_BACKOFF_MS, 2 ** attempt));
          continue;
        }
        if (this.options.isTransient(error)) {
          if (this.options.isStopping?.()) throw error;
          this.options.metrics.stageRetries.inc({ stage: this.stage.name, reason: 'transient' });
          this.options.logger.warn(
            { stage: this.stage.name, attempt, err: error },
            'transient failure; retrying the batch',
          );
          await this.sleep(this.backoff(attempt));
          continue;
        }
        if (records.length > 1) return this.handleOneByOne(batch, records);
        failures++;
        if (failures < maxAttempts) {
          this.options.metrics.stageRetries.inc({ stage: this.stage.name, reason: 'failure' });
          await this.sleep(this.backoff(failures));
          continue;
        }
        await this.deadLetter(batch, records[0]!, error);
        return 1;
      }
    }
  }

  /** Isolates the record that fails: every record alone, in order. */
  private async handleOneByOne(batch: Batch, records: LogRecord[]): Promise<number> {
    for (const record of records) await this.handleSome(batch, [record]);
    return records.length;
  }

  private async deadLetter(batch: Batch, record: LogRecord, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    this.options.logger.error(
      { stage: this.stage.name, topic: record.topic, partition: record.partition, offset: record.offset, err: error },
      'dead-lettering record',
    );
    const write = emptyBatchWrite();
    write.records.push({
      topic: deadLetterTopic(batch.topic),
      key: record.key,
      value: record.value,
      headers: {
        ...record.headers,
        'x-dlq-reason': reason.slice(0, 500),
        'x-dlq-source': `${batch.topic}/${record.partition}/${record.offset}`,
      },
    });
    await this.options.writer.commit(write, this.position(batch, record));
    this.options.metrics.deadLettered.inc({ topic: batch.topic });
  }

  private position(
    batch: Batch,
    last: LogRecord,
  ): { groupId: string; topic: string; partition: number; nextOffset: number } {
    return {
      groupId: this.stage.name,
      topic: batch.topic,
      partition: batch.partition,
      nextOffset: Number(last.offset) + 1,
    };
  }

  private backoff(attempt: number): number {
    const { backoffMs = 100, maxBackoffMs = 10_000 } = this.options;
    const exponential = Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1));
    return exponential / 2 + Math.random() * (exponential / 2);
  }
}

/**
 * The intake decisions a committed batch made, by outcome: its leads' outputs on leads.decisions
 * (a redelivered command decides nothing and puts none). A left-over outbox the batch produces
 * (`pendingOutboxes`) is not counted: a crash before its commit went through left it.
 */
function countDecisions(metrics: Metrics, write: BatchWrite): void {
  for (const { outputs } of write.leads) {
    for (const output of outputs) {
      if (output.topic !== TOPICS.decisions) continue;
      const { outcome } = JSON.parse(output.value) as { outcome?: unknown };
      metrics.leadDecisions.inc({ outcome: typeof outcome === 'string' ? outcome : 'unknown' });
    }
  }
}

/**
 * A consumer span per record, child of the trace context the record carries, and the records with
 * that span as their trace context: what a stage produces on a record's behalf names it as parent.
 */
function recordSpans(stage: string, records: LogRecord[]): { records: LogRecord[]; end: (error?: unknown) => void } {
  const spans: Span[] = [];
  const traced = records.map((record) => {
    const span = startSpanFrom(`${stage} process`, record.headers, {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.operation.type': 'process',
        'messaging.destination.name': record.topic,
        'messaging.destination.partition.id': String(record.partition),
        'messaging.consumer.group.name': stage,
        'messaging.message.id': `${record.topic}/${record.partition}/${record.offset}`,
      },
    });
    if (!span) return record;
    spans.push(span);
    return { ...record, headers: { ...record.headers, ...traceHeadersOf(span) } };
  });
  return { records: traced, end: (error) => spans.forEach((span) => endSpan(span, error)) };
}
