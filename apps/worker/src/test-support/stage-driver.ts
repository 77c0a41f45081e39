/**
 * Runs a batch stage over records by hand, as its consumer would: one batch per partition,
 * through the BatchStageHandler and a batch writer, with no retry delays.
 */
import type { LogRecord } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import { pino } from 'pino';
import { type BatchStage, BatchStageHandler } from '../batch/batch-stage';
import type { BatchWriter } from '../batch/batch-write';

export interface StageDriver {
  /** Hands the records to the stage, grouped into one batch per partition, in order. */
  handle(records: LogRecord[]): Promise<void>;
}

export function driveStage(
  stage: BatchStage,
  writer: BatchWriter,
  options: { isTransient?: (error: unknown) => boolean; metrics?: Metrics; sleep?: (ms: number) => Promise<void> } = {},
): StageDriver {
  const handler = new BatchStageHandler(stage, {
    writer,
    logger: pino({ level: 'silent' }),
    metrics: options.metrics ?? new Metrics({ defaultMetrics: false }),
    isTransient: options.isTransient ?? (() => false),
    sleep: options.sleep ?? (async () => undefined),
  });
  return {
    async handle(records) {
      const byPartition = new Map<number, LogRecord[]>();
      for (const record of records)
        byPartition.set(record.partition, [...(byPartition.get(record.partition) ?? []), record]);
      for (const [partition, batch] of byPartition)
        await handler.handle({ topic: stage.topic, partition, records: batch });
    },
  };
}
