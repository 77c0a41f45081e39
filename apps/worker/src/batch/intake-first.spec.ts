/**
 * Intake first (docs/pipeline.md): an outbound stage beside a busy intake on a saturated thread
 * handles its batch a few records at a time, waiting its share between them, and still commits
 * every record once; with the intake idle it handles the batch in one commit.
 */
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { IntakePriority, isTransientError, Metrics } from '@leadstream/runtime';
import type { LogRecord } from '@leadstream/ports';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { TOPICS } from '../pipeline/outputs';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { type BatchStage, BatchStageHandler } from './batch-stage';
import { type BatchWriter, emptyBatchWrite } from './batch-write';

const engines = useEmbeddedEngines('intake-first');

/** A notify-like stage: one output record per input record. */
const outboundStage: BatchStage = {
  name: 'outbound-test',
  topic: TOPICS.events,
  async process(records: LogRecord[]) {
    const write = emptyBatchWrite();
    for (const record of records) write.records.push({ topic: TOPICS.decisions, key: record.key, value: record.value });
    return { write, handled: records.length };
  },
};

/** The real writer, with the size of each commit noted. */
function counting(writer: BatchWriter): BatchWriter & { commits: number[] } {
  const commits: number[] = [];
  return {
    atomic: writer.atomic,
    commits,
    async commit(write, position) {
      commits.push(write.records.length);
      return writer.commit(write, position);
    },
  };
}

/** A gate on a clock that sleeping moves, on a thread that is always saturated. */
function saturatedGate() {
  const clock = { now: 1_000, slept: [] as number[] };
  const gate = new IntakePriority({
    share: 0.1,
    now: () => clock.now,
    utilization: () => 1,
    sleep: async (ms) => {
      clock.slept.push(ms);
      clock.now += ms;
    },
  });
  // The thread is sampled every 100 ms from the gate's start.
  clock.now += 100;
  return { gate, clock };
}

async function fortyEvents(): Promise<LogRecord[]> {
  await engines.log.produce(
    TOPICS.events,
    Array.from({ length: 40 }, (_, index) => ({ key: `k${index}`, value: `event ${index}` })),
  );
  return readTopic(engines.log, TOPICS.events);
}

function handler(writer: BatchWriter, gate: IntakePriority) {
  return new BatchStageHandler(outboundStage, {
    writer,
    logger: pino({ level: 'silent' }),
    metrics: new Metrics(),
    isTransient: isTransientError,
    priority: { gate, role: 'outbound' },
  });
}

describe('an outbound stage beside the intake', () => {
  it('goes a few records at a time while the intake is busy, waiting between, and commits each record once', async () => {
    const records = await fortyEvents();
    const writer = counting(engines.writer);
    const { gate, clock } = saturatedGate();
    gate.intakeRan();

    await handler(writer, gate).handle({ topic: TOPICS.events, partition: 0, records });

    // 16 records before the stage's commits are timed, then as many as fit in about 10 ms.
    expect(writer.commits[0]).toBe(16);
    expect(writer.commits.length).toBeGreaterThan(1);
    expect(writer.commits.reduce((sum, size) => sum + size, 0)).toBe(40);
    // Each commit after the first waited for the intake (what the commit before it took, x 9 at 10 %).
    expect(clock.slept).toHaveLength(writer.commits.length - 1);
    const produced = await readTopic(engines.log, TOPICS.decisions);
    expect(produced.map((record) => record.value)).toEqual(records.map((record) => record.value));
  });

  it('takes the whole batch in one commit when the intake has not run lately', async () => {
    const records = await fortyEvents();
    const writer = counting(engines.writer);
    const { gate, clock } = saturatedGate();
    gate.intakeRan();
    clock.now += 5_000;

    await handler(writer, gate).handle({ topic: TOPICS.events, partition: 0, records });

    expect(writer.commits).toEqual([40]);
    expect(clock.slept).toEqual([]);
    expect(await readTopic(engines.log, TOPICS.decisions)).toHaveLength(40);
  });
});
