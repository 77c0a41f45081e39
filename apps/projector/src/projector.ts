import { AnalyticsBatcher } from '@leadstream/engine-clickhouse';
import type { Analytics, Batch, EventLog } from '@leadstream/ports';
import { ConsumerRunner, deadLetterTopic, TOPICS, type Metrics } from '@leadstream/runtime';
import { parseLeadEvents, type LeadEventMessage } from '@leadstream/schemas';
import type { Logger } from 'pino';
import { applyErasure } from './erasure';
import { toLeadEventRow, type LeadEventRow } from './lead-event-row';

export const LEAD_EVENTS_TOPIC = TOPICS.events;
export const PROJECTOR_GROUP = 'project';

export interface ProjectorDependencies {
  log: EventLog;
  analytics: Analytics;
  metrics: Metrics;
  logger: Logger;
  /** The table rows go to (a rebuild fills a fresh one); `lead_events` by default. */
  table?: string;
  /** The consumer group (a rebuild reads from the beginning under a group of its own). */
  groupId?: string;
  /** How long a batch's rows may wait for the batches that follow, to share one insert (default 50 ms). */
  lingerMs?: number;
  /** True once the process is stopping: an insert that keeps failing gives up, leaving the batch uncommitted. */
  isStopping?: () => boolean;
  /** The first retry's delay; each next one doubles, up to 30 s (default 100 ms). */
  retryBackoffMs?: number;
}

/**
 * Consumes `leads.events` and writes each batch to `lead_events` before its offsets are
 * committed, so a committed event is always stored. Batches go through an AnalyticsBatcher
 * (`write`: resolved once stored) that waits up to `lingerMs` for more rows, so the batches of
 * partitions consumed meanwhile share one insert (one part) instead of one each. A redelivered
 * event (after a crash) carries the same event id and collapses in the ReplacingMergeTree.
 * Records that fail their schema are poison: they go to the dead-letter topic at once instead of
 * blocking the partition.
 *
 * An analytics outage is not the records' fault and must not stop ingestion: a failed insert is
 * retried with backoff (capped at 30 s) for as long as it takes, counted in
 * leadstream_projector_insert_failures_total; the consumer's lag on /metrics shows how far behind
 * the projection is, and /readyz reports the analytics engine's ping.
 */
export function createProjector(deps: ProjectorDependencies): ConsumerRunner {
  const { log, analytics, metrics, logger } = deps;
  const table = deps.table ?? 'lead_events';
  const batcher = new AnalyticsBatcher(analytics, { maxRows: 10_000, maxDelayMs: deps.lingerMs ?? 50 });

  async function project(batch: Batch): Promise<void> {
    const rows: LeadEventRow[] = [];
    const erased: LeadEventMessage[] = [];
    for (const record of batch.records) {
      try {
        const messages = parseLeadEvents(record.value);
        for (const message of messages) {
          rows.push(toLeadEventRow(message));
          if (message.event === 'lead.erased') erased.push(message);
        }
      } catch (error) {
        logger.warn(
          { topic: record.topic, partition: record.partition, offset: record.offset, err: error },
          'invalid event dead-lettered',
        );
        await log.produce(deadLetterTopic(record.topic), [
          {
            key: record.key,
            value: record.value,
            headers: { ...record.headers, 'x-dlq-reason': String(error).slice(0, 500) },
          },
        ]);
        metrics.deadLettered.inc({ topic: record.topic });
      }
    }
    if (rows.length > 0) await insertWithRetry(rows);
    // Erasures after the rows they scrub are stored (docs/consent.md).
    for (const message of erased) await withRetry(() => applyErasure(analytics, table, message));
    logger.debug(
      { partition: batch.partition, count: rows.length, last: batch.records.at(-1)?.offset },
      'batch projected',
    );
  }

  /** Analytics outages are not the records' fault: retry with a capped backoff, without end, instead of dead-lettering. */
  async function insertWithRetry(rows: LeadEventRow[]): Promise<void> {
    await withRetry(() => batcher.write(table, rows as unknown as Array<Record<string, unknown>>));
  }

  async function withRetry(write: () => Promise<void>): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await write();
        return;
      } catch (error) {
        metrics.projectorInsertFailures.inc();
        if (deps.isStopping?.()) throw error;
        (attempt < 8 ? logger.warn : logger.error).call(
          logger,
          { attempt, err: error },
          'analytics insert failed, retrying',
        );
        const backoff = Math.min(30_000, (deps.retryBackoffMs ?? 100) * 2 ** (attempt - 1));
        await new Promise((resolve) => setTimeout(resolve, backoff / 2 + Math.random() * (backoff / 2)));
      }
    }
  }

  return new ConsumerRunner({
    log,
    groupId: deps.groupId ?? PROJECTOR_GROUP,
    topics: [LEAD_EVENTS_TOPIC],
    metrics,
    logger,
    eachBatch: project,
  });
}
