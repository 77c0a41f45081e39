/**
 * The consumer runner every stage and the projector use, on the real embedded log: records are
 * handled and counted, a poison record is retried a bounded number of times and then moved to
 * the dead-letter topic without stalling its partition, and a partition whose batch stays in hand
 * too long makes the readiness check /readyz shows degraded (on a clock the test moves).
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
    await log.produce('work', [
      { key: 'k', value: 'a' },
      { key: 'k', value: 'poison' },
      { key: 'k', value: 'b' },
    ]);
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

/** What /readyz shows of a check (libs/http ops.routes.ts): its outcome and its details. */
async function shown(check: {
  check: () => Promise<void>;
  details: () => Record<string, unknown>;
}): Promise<Record<string, unknown>> {
  await check.check();
  return { ok: true, ...check.details() };
}

/** A handler's wait that the test ends. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('stuck partitions', () => {
  const STUCK_AFTER_MS = 120_000;
  const notStuck = { ok: true, status: 'ok', stuck_after_ms: STUCK_AFTER_MS };

  it('the partitions check turns degraded, naming the group and partition, while a batch stays in hand past the limit, and recovers once it is committed', async () => {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const metrics = new Metrics({ defaultMetrics: false, stuckPartitionMs: STUCK_AFTER_MS, clock: () => now });
    const held = gate();
    const handled: string[] = [];
    let batches = 0;
    const runner = new ConsumerRunner({
      log,
      groupId: 'slow-stage',
      topics: ['work'],
      metrics,
      logger: pino({ level: 'silent' }),
      eachBatch: async (batch) => {
        batches++;
        await held.wait;
        handled.push(...batch.records.map((record) => record.value));
      },
    });
    const check = metrics.partitions.readinessCheck();
    expect(check.name).toBe('partitions');
    try {
      await runner.start();
      await log.produce('work', [
        { key: 'k', value: 'a' },
        { key: 'k', value: 'b' },
      ]);
      await until(() => batches === 1);

      // Exactly the limit is not past it.
      now += STUCK_AFTER_MS;
      expect(await shown(check)).toEqual(notStuck);
      now += 1_500;
      // Degraded, never failing: the process stays ready (HTTP 200) and names what is stuck.
      expect(await shown(check)).toEqual({
        ok: true,
        status: 'degraded',
        stuck_after_ms: STUCK_AFTER_MS,
        stuck: [{ group: 'slow-stage', topic: 'work', partition: 0, offset: '0', in_hand_seconds: 121.5 }],
      });
      expect(await metrics.render()).toContain(
        'leadstream_partition_stuck_seconds{group="slow-stage",topic="work",partition="0"} 121.5',
      );

      held.open();
      await until(() => handled.length === 2);
      await expect.poll(() => shown(check)).toEqual(notStuck);
      expect(await metrics.render()).not.toContain('leadstream_partition_stuck_seconds{');
    } finally {
      held.open();
      await runner.stop();
    }
  });

  it('counts from the first delivery when the same offset is delivered again after a failure', async () => {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const metrics = new Metrics({ defaultMetrics: false, stuckPartitionMs: STUCK_AFTER_MS, clock: () => now });
    const check = metrics.partitions.readinessCheck();
    const failing = new ConsumerRunner({
      log,
      groupId: 'flaky-stage',
      topics: ['work'],
      metrics,
      logger: pino({ level: 'silent' }),
      eachBatch: async () => {
        throw new Error('store down');
      },
    });
    await failing.start();
    await log.produce('work', [{ key: 'k', value: 'a' }]);
    await expect(failing.done).rejects.toThrow('store down');

    now += 100_000;
    // Another member of the group takes the partition over and holds the same offset.
    const held = gate();
    let begun = false;
    const next = new ConsumerRunner({
      log,
      groupId: 'flaky-stage',
      topics: ['work'],
      metrics,
      logger: pino({ level: 'silent' }),
      eachBatch: async () => {
        begun = true;
        await held.wait;
      },
    });
    await next.start();
    try {
      await until(() => begun);
      expect(await shown(check)).toEqual(notStuck);
      now += 21_000;
      expect(await shown(check)).toEqual({
        ok: true,
        status: 'degraded',
        stuck_after_ms: STUCK_AFTER_MS,
        stuck: [{ group: 'flaky-stage', topic: 'work', partition: 0, offset: '0', in_hand_seconds: 121 }],
      });
      held.open();
      await expect.poll(() => shown(check)).toEqual(notStuck);
    } finally {
      held.open();
      await next.stop();
      await failing.stop();
    }
  });
});
