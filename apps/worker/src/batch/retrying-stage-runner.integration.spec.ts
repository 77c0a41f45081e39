/**
 * RetryingStageRunner on both engine pairs: after the retry schedule changes, retries waiting on a
 * delay topic of the earlier schedule are still consumed (the runner remembers every delay topic
 * the stage used), next to the input topic and the new schedule's delay topics.
 */
import { RetryDelayTopicRepository } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import type { BatchStage } from './batch-stage';
import { emptyBatchWrite } from './batch-write';
import { RetryingStageRunner, type RetryDelayTopic } from './retrying-stage-runner';

const opened: EnginePair[] = [];
const runners: RetryingStageRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const pair of opened.splice(0)) await pair.close();
});

const INPUT = 'recorder.requests';
const EARLIER: RetryDelayTopic = { topic: 'recorder.retry.5ms', name: '5ms', delayMs: 5 };
const LATER: RetryDelayTopic = { topic: 'recorder.retry.1h', name: '1h', delayMs: 3_600_000 };

describe.each(enginePairs('retrying-runner'))('a retrying stage runner on %s', (_name, open) => {
  it('consumes the delay topics of an earlier schedule, so no retry waiting there is stranded', async () => {
    const pair = await open();
    opened.push(pair);
    await pair.log.ensureTopics([{ topic: INPUT, partitions: 1 }, ...[INPUT, EARLIER.topic, LATER.topic].map((topic) => ({ topic: `${topic}.dlq`, partitions: 1 }))]);
    const seen: Array<{ topic: string; value: string }> = [];
    // A stage that records what it is handed and writes nothing.
    const stage: BatchStage = {
      name: 'recorder',
      topic: INPUT,
      async process(records: LogRecord[]) {
        seen.push(...records.map((record) => ({ topic: record.topic, value: record.value })));
        return { write: emptyBatchWrite(), handled: records.length };
      },
    };
    const metrics = new Metrics({ defaultMetrics: false });
    const logger = pino({ level: 'silent' });
    const runnerWith = (retryTopics: RetryDelayTopic[]): RetryingStageRunner => {
      const runner = new RetryingStageRunner({ log: pair.log, store: pair.store, stage, inputTopics: [INPUT], retryTopics, handler: { writer: pair.writer, logger, metrics, isTransient: () => false }, metrics, logger });
      runners.push(runner);
      return runner;
    };

    // The earlier schedule's process ran and stopped; a retry was left on its delay topic.
    const earlier = runnerWith([EARLIER]);
    await earlier.start();
    await earlier.stop();
    runners.splice(runners.indexOf(earlier), 1);
    await pair.log.produce(EARLIER.topic, [{ key: 'k', value: 'retry left by the earlier schedule' }]);

    // The new schedule names another delay only; the earlier topic is consumed all the same.
    await runnerWith([LATER]).start();
    await pair.log.produce(INPUT, [{ key: 'k', value: 'new request' }]);
    await expect.poll(() => seen.map((entry) => `${entry.topic}: ${entry.value}`).sort(), { timeout: 30_000 }).toEqual([`${INPUT}: new request`, `${EARLIER.topic}: retry left by the earlier schedule`]);
    expect((await new RetryDelayTopicRepository(pair.store).list('recorder')).map((used) => used.topic).sort()).toEqual([LATER.topic, EARLIER.topic]);
  }, 60_000);
});
