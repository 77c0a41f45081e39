import type { Batch, Consumer, EventLog, LogRecord } from '@leadstream/ports';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';

/** Handles one record. Throwing retries it; after `maxAttempts` it goes to the dead-letter topic. */
export type RecordHandler = (record: LogRecord) => Promise<void>;

export interface ConsumerRunnerOptions {
  log: EventLog;
  groupId: string;
  topics: string[];
  metrics: Metrics;
  logger: Logger;
  /** Either a per-record handler (with retries and a dead-letter topic) or a raw batch handler. */
  eachRecord?: RecordHandler;
  eachBatch?: (batch: Batch) => Promise<void>;
  maxAttempts?: number;
  retryBackoffMs?: number;
  lagIntervalMs?: number;
}

export const deadLetterTopic = (topic: string): string => `${topic}.dlq`;

/**
 * Runs one consumer-group member: hands batches to the handler, counts what it commits, reports
 * lag, and moves poison records to `<topic>.dlq` after bounded retries so one bad record cannot
 * stall a partition. Stopping lets the batch in flight finish and commits it. Each batch is in
 * hand in `metrics.partitions` while its handler runs, so a partition stuck on one offset shows
 * on /readyz and /metrics (partition-watch.ts).
 */
export class ConsumerRunner {
  private consumer: Consumer | undefined;
  private lagTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConsumerRunnerOptions) {
    if (!options.eachRecord === !options.eachBatch) {
      throw new Error('ConsumerRunner needs exactly one of eachRecord and eachBatch');
    }
  }

  get done(): Promise<void> {
    if (!this.consumer) throw new Error(`consumer ${this.options.groupId} was not started`);
    return this.consumer.done;
  }

  async start(): Promise<void> {
    const { log, groupId, topics, logger, metrics } = this.options;
    await log.ensureTopics(
      await Promise.all(topics.map(async (topic) => ({ topic, partitions: await log.partitionCount(topic) }))).then(
        (specs) => specs.map((spec) => ({ topic: deadLetterTopic(spec.topic), partitions: spec.partitions })),
      ),
    );
    this.consumer = log.consumer({ groupId, topics });
    await this.consumer.start((batch) => this.handleBatch(batch));
    this.consumer.done.catch((error: unknown) => {
      metrics.consumerCrashes.inc({ group: groupId });
      logger.error({ group: groupId, err: error }, 'consumer crashed');
    });
    this.lagTimer = setInterval(() => void this.reportLag(), this.options.lagIntervalMs ?? 5_000);
    this.lagTimer.unref();
    logger.info({ group: groupId, topics }, 'consumer started');
  }

  async stop(): Promise<void> {
    if (this.lagTimer) clearInterval(this.lagTimer);
    await this.consumer?.stop();
    this.options.metrics.partitions.release(this);
  }

  /** Committed-offset lag of the partitions this member owns now; empty when it is not running. */
  async lag(): Promise<Array<{ topic: string; partition: number; lag: number }>> {
    const consumer = this.consumer;
    if (!consumer || consumer.state() !== 'running') return [];
    return consumer.lag();
  }

  /** Resolves once every partition this member owns has been consumed to its end. */
  async waitUntilIdle(pollMs = 200): Promise<void> {
    for (;;) {
      const consumer = this.consumer;
      if (!consumer || consumer.state() !== 'running') return;
      const lag = await consumer.lag();
      if (lag.length > 0 && lag.every((entry) => entry.lag === 0)) return;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  private async handleBatch(batch: Batch): Promise<void> {
    const { eachBatch, metrics, groupId } = this.options;
    const first = batch.records[0];
    if (first) metrics.partitions.begin(this, groupId, batch.topic, batch.partition, first.offset);
    try {
      if (eachBatch) await eachBatch(batch);
      else for (const record of batch.records) await this.handleRecord(record);
    } catch (error) {
      metrics.partitions.fail(this, groupId, batch.topic, batch.partition);
      throw error;
    }
    metrics.partitions.end(this, groupId, batch.topic, batch.partition);
    metrics.messagesConsumed.inc({ topic: batch.topic, group: groupId }, batch.records.length);
  }

  private async handleRecord(record: LogRecord): Promise<void> {
    const { eachRecord, maxAttempts = 3, retryBackoffMs = 100, logger, log, metrics } = this.options;
    if (!eachRecord) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await eachRecord(record);
        return;
      } catch (error) {
        if (attempt >= maxAttempts) {
          const reason = error instanceof Error ? error.message : String(error);
          logger.error(
            { topic: record.topic, partition: record.partition, offset: record.offset, err: error },
            'dead-lettering record',
          );
          await log.produce(deadLetterTopic(record.topic), [
            {
              key: record.key,
              value: record.value,
              headers: {
                ...record.headers,
                'x-dlq-reason': reason.slice(0, 500),
                'x-dlq-source': `${record.topic}/${record.partition}/${record.offset}`,
              },
            },
          ]);
          metrics.deadLettered.inc({ topic: record.topic });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryBackoffMs * 2 ** (attempt - 1)));
      }
    }
  }

  private async reportLag(): Promise<void> {
    const consumer = this.consumer;
    if (!consumer || consumer.state() !== 'running') return;
    try {
      for (const entry of await consumer.lag()) {
        this.options.metrics.consumerLag.set(
          { topic: entry.topic, partition: String(entry.partition), group: this.options.groupId },
          entry.lag,
        );
      }
    } catch (error) {
      this.options.logger.debug({ err: error }, 'lag unavailable');
    }
  }
}
