/**
 * RetryingStageRunner on both engine pairs: after the retry schedule changes, retries waiting on a
 * delay topic of the earlier schedule are still consumed (the runner remembers every delay topic
 * the stage used), next to the input topic and the new schedule's delay topics; once such a topic
 * is consumed to its end, its group is retired and forgotten, so it is not started again.
 */
import { RetryDelayTopicRepository } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import type { BatchStage } from './batch-stage';
import { emptyBatchWrite } from './batch-write';
import { RetryingStageRunner, type RetryDelayTopic, type RetryingStageRunnerOptions } from './retrying-stage-runner';

const opened: EnginePair[] = [];
const runners: RetryingStageRunner[] = [];
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const pair of opened.splice(0)) await pair.close();
});

const INPUT = 'recorder.requests';
const EARLIER: RetryDelayTopic = { topic: 'recorder.retry.5ms', name: '5ms', delayMs: 5 };
const LATER: RetryDelayTopic = { topic: 'recorder.retry.1h', name: '1h', delayMs: 3_600_000 };
const EARLIER_LONG: RetryDelayTopic = { topic: 'recorder.retry.2h', name: '2h', delayMs: 7_200_000 };

describe.each(enginePairs('retrying-runner'))('a retrying stage runner on %s', (_name, open) => {
  /** Engines with the recorder's topics, and a maker of runners of a schedule over them. */
  async function setUp(partitions = 1): Promise<{
    pair: EnginePair;
    seen: Array<{ topic: string; value: string }>;
    runnerWith: (
      retryTopics: RetryDelayTopic[],
      retirement?: Pick<RetryingStageRunnerOptions, 'clock' | 'retireAfterEmptyMs'>,
    ) => RetryingStageRunner;
  }> {
    const pair = await open();
    opened.push(pair);
    await pair.log.ensureTopics([
      { topic: INPUT, partitions },
      ...[INPUT, EARLIER.topic, LATER.topic, EARLIER_LONG.topic].map((topic) => ({
        topic: `${topic}.dlq`,
        partitions,
      })),
    ]);
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
    const runnerWith = (
      retryTopics: RetryDelayTopic[],
      retirement: Pick<RetryingStageRunnerOptions, 'clock' | 'retireAfterEmptyMs'> = {},
    ): RetryingStageRunner => {
      const runner = new RetryingStageRunner({
        log: pair.log,
        store: pair.store,
        stage,
        inputTopics: [INPUT],
        retryTopics,
        handler: { writer: pair.writer, logger, metrics, isTransient: () => false },
        metrics,
        logger,
        ...retirement,
      });
      runners.push(runner);
      return runner;
    };
    return { pair, seen, runnerWith };
  }

  it('consumes the delay topics of an earlier schedule, so no retry waiting there is stranded', async () => {
    const { pair, seen, runnerWith } = await setUp();

    // The earlier schedule's process ran and stopped; a retry was left on its delay topic.
    const earlier = runnerWith([EARLIER]);
    await earlier.start();
    await earlier.stop();
    runners.splice(runners.indexOf(earlier), 1);
    await pair.log.produce(EARLIER.topic, [{ key: 'k', value: 'retry left by the earlier schedule' }]);

    // The new schedule names another delay only; the earlier topic is consumed all the same.
    await runnerWith([LATER]).start();
    await pair.log.produce(INPUT, [{ key: 'k', value: 'new request' }]);
    await expect
      .poll(() => seen.map((entry) => `${entry.topic}: ${entry.value}`).sort(), { timeout: 30_000 })
      .toEqual([`${INPUT}: new request`, `${EARLIER.topic}: retry left by the earlier schedule`]);
    expect((await new RetryDelayTopicRepository(pair.store).list('recorder')).map((used) => used.topic).sort()).toEqual(
      [LATER.topic, EARLIER.topic],
    );
  }, 60_000);

  it('retires the group of an earlier schedule once its topic is consumed to the end, and does not start it again', async () => {
    const { pair, seen, runnerWith } = await setUp();
    const registry = new RetryDelayTopicRepository(pair.store);
    // The earlier schedule's process ran and stopped; a retry due at once and one due in 2 h were left.
    const earlier = runnerWith([EARLIER, EARLIER_LONG]);
    await earlier.start();
    await earlier.stop();
    runners.splice(runners.indexOf(earlier), 1);
    await pair.log.produce(EARLIER.topic, [{ key: 'k', value: 'retry due now' }]);
    await pair.log.produce(EARLIER_LONG.topic, [{ key: 'k', value: 'retry due in 2 h' }]);

    let now = Date.parse('2025-01-01T00:00:00Z');
    const current = runnerWith([LATER], { clock: () => now, retireAfterEmptyMs: 600_000 });
    await current.start();
    expect([...current.retryGroups].sort()).toEqual(['recorder.retry.1h', 'recorder.retry.2h', 'recorder.retry.5ms']);
    await expect
      .poll(() => seen.map((entry) => `${entry.topic}: ${entry.value}`), { timeout: 30_000 })
      .toEqual([`${EARLIER.topic}: retry due now`]);

    // Consumed to its end, the earlier 5 ms topic waits retireAfterEmptyMs, then is retired; the
    // current schedule's topic (empty too) and the earlier 2 h topic (a retry still waits there)
    // keep their groups.
    const waiting = { retired: [], left: [], waiting: [{ topic: EARLIER.topic, partitions: [0] }] };
    await expect.poll(() => current.retireEmptied(), { timeout: 30_000 }).toEqual(waiting);
    now += 599_999;
    expect(await current.retireEmptied()).toEqual(waiting);
    expect([...current.retryGroups].sort()).toEqual(['recorder.retry.1h', 'recorder.retry.2h', 'recorder.retry.5ms']);
    now += 1;
    expect(await current.retireEmptied()).toEqual({ retired: [EARLIER.topic], left: [], waiting: [] });
    expect([...current.retryGroups].sort()).toEqual(['recorder.retry.1h', 'recorder.retry.2h']);
    expect((await registry.list('recorder')).map((used) => used.topic).sort()).toEqual([
      LATER.topic,
      EARLIER_LONG.topic,
    ]);
    now += 3_600_000;
    expect(await current.retireEmptied()).toEqual({ retired: [], left: [], waiting: [] });

    // Started again with the same schedule, the runner does not bring the retired group back.
    await current.stop();
    runners.splice(runners.indexOf(current), 1);
    const restarted = runnerWith([LATER]);
    await restarted.start();
    expect([...restarted.retryGroups].sort()).toEqual(['recorder.retry.1h', 'recorder.retry.2h']);
    expect((await registry.list('recorder')).map((used) => used.topic).sort()).toEqual([
      LATER.topic,
      EARLIER_LONG.topic,
    ]);
  }, 90_000);

  it('where two members share an emptied group, the one left owning every partition retires it', async () => {
    const { pair, runnerWith } = await setUp(2);
    const registry = new RetryDelayTopicRepository(pair.store);
    const earlier = runnerWith([EARLIER]);
    await earlier.start();
    await earlier.stop();
    runners.splice(runners.indexOf(earlier), 1);

    // Two processes of the new schedule, each with its own clock; each owns one partition of the empty topic.
    let nowA = Date.parse('2025-01-01T00:00:00Z');
    let nowB = nowA;
    const a = runnerWith([LATER], { clock: () => nowA, retireAfterEmptyMs: 600_000 });
    const b = runnerWith([LATER], { clock: () => nowB, retireAfterEmptyMs: 600_000 });
    await a.start();
    await b.start();
    const owned = async (runner: RetryingStageRunner): Promise<number[]> =>
      (await runner.retireEmptied()).waiting.flatMap((entry) => entry.partitions);
    await expect
      .poll(
        async () => {
          const [ofA, ofB] = [await owned(a), await owned(b)];
          return { a: ofA.length, b: ofB.length, both: [...ofA, ...ofB].sort() };
        },
        { timeout: 30_000 },
      )
      .toEqual({ a: 1, b: 1, both: [0, 1] });

    // A member owning some partitions only cannot tell the topic is consumed: it waits twice as long, then leaves.
    nowA += 600_000;
    expect(await a.retireEmptied()).toEqual({
      retired: [],
      left: [],
      waiting: [{ topic: EARLIER.topic, partitions: await owned(a) }],
    });
    nowA += 600_000;
    expect(await a.retireEmptied()).toMatchObject({ retired: [], left: [EARLIER.topic] });
    expect(a.retryGroups).toEqual(['recorder.retry.1h']);
    expect((await registry.list('recorder')).map((used) => used.topic).sort()).toEqual([LATER.topic, EARLIER.topic]);

    // The other now owns both partitions, consumed to their end for long enough: it retires the group.
    nowB += 600_000;
    await expect
      .poll(() => b.retireEmptied(), { timeout: 30_000 })
      .toEqual({ retired: [EARLIER.topic], left: [], waiting: [] });
    expect(b.retryGroups).toEqual(['recorder.retry.1h']);
    expect((await registry.list('recorder')).map((used) => used.topic)).toEqual([LATER.topic]);
  }, 90_000);
});
