/**
 * The consumer runner every stage and the projector use, on the real embedded log: records are
 * handled and counted, a poison record is retried a bounded number of times and then moved to
 * the dead-letter topic without stalling its partition.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import type { EventLog, LogRecord } from '@leadstream/ports';
import { ConsumerRunner, deadLetterTopic, Metrics } from '@leadstream/runtime';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
let log: EventLog;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runner-'));
  log = await openEmbeddedLog({ dataDir: dir });
  await log.ensureTopics([{ topic: 'work', partitions: 1 }]);
});

afterEach(async () => {
  await log.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ConsumerRunner', () => {
  it('retries a failing record, dead-letters it with its reason, and goes on with the partition', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    const handled: string[] = [];
    const attempts = new Map<string, number>();
    const runner = new ConsumerRunner({
      log,
      groupId: 'work-stage',
      topics: ['work'],
      metrics,
      logger: pino({ level: 'silent' }),
      maxAttempts: 3,
      retryBackoffMs: 1,
      eachRecord: async (record: LogRecord) => {
        attempts.set(record.value, (attempts.get(record.value) ?? 0) + 1);
        if (record.value === 'poison') throw new Error('cannot handle poison');
        handled.push(record.value);
      },
    });
    await runner.start();
    await log.produce('work', [{ key: 'k', value: 'a' }, { key: 'k', value: 'poison' }, { key: 'k', value: 'b' }]);
    await until(() => handled.length === 2);

    const dead: LogRecord[] = [];
    const dlqConsumer = log.consumer({ groupId: 'operators', topics: [deadLetterTopic('work')] });
    await dlqConsumer.start(async (batch) => {
      dead.push(...batch.records);
    });
    await until(() => dead.length === 1);
    await dlqConsumer.stop();
    await runner.stop();

    expect(handled).toEqual(['a', 'b']);
    expect(attempts.get('poison')).toBe(3);
    expect(dead[0]?.value).toBe('poison');
    expect(dead[0]?.headers['x-dlq-reason']).toBe('cannot handle poison');
    expect(dead[0]?.headers['x-dlq-source']).toBe('work/0/1');
    const consumed = await metrics.messagesConsumed.get();
    expect(consumed.values.find((value) => value.labels.topic === 'work')?.value).toBe(3);
    expect((await metrics.deadLettered.get()).values[0]?.value).toBe(1);
  });

  it('commits what it handled: a new member of the group resumes after it', async () => {
    const seen: string[] = [];
    const make = (): ConsumerRunner =>
      new ConsumerRunner({
        log,
        groupId: 'resume-stage',
        topics: ['work'],
        metrics: new Metrics({ defaultMetrics: false }),
        logger: pino({ level: 'silent' }),
        eachRecord: async (record) => {
          seen.push(record.value);
        },
      });
    const first = make();
    await first.start();
    await log.produce('work', [{ value: '1' }, { value: '2' }]);
    await until(() => seen.length === 2);
    await first.stop();

    await log.produce('work', [{ value: '3' }]);
    const second = make();
    await second.start();
    await until(() => seen.length === 3);
    await second.waitUntilIdle();
    await second.stop();
    expect(seen).toEqual(['1', '2', '3']);
  });
});
