import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Batch, LogRecord } from '@leadstream/ports';
import { EmbeddedLog, LogPruner } from './index';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

const dirs: string[] = [];
const logs: EmbeddedLog[] = [];
function open(dataDir = mkdtempSync(join(tmpdir(), 'log-retention-'))): { log: EmbeddedLog; dataDir: string } {
  if (!dirs.includes(dataDir)) dirs.push(dataDir);
  const log = EmbeddedLog.open({ dataDir });
  logs.push(log);
  return { log, dataDir };
}

/** Produces `count` records on partition 0 of `topic`, `stepMs` apart from `from`. */
async function produceAt(log: EmbeddedLog, topic: string, count: number, from: number, stepMs = 1_000): Promise<void> {
  await log.produce(
    topic,
    Array.from({ length: count }, (_, i) => ({ key: 'k', value: `v${i}`, timestamp: from + i * stepMs })),
  );
}

/** The offsets still stored on partition 0, read through the log itself. */
function offsets(log: EmbeddedLog, topic: string): number[] {
  return log.read(topic, 0, 0, 10_000).map((r) => Number(r.offset));
}

afterEach(async () => {
  for (const log of logs.splice(0)) await log.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('embedded log retention', () => {
  it('deletes only records every group committed past AND older than the retention period, in chunks', async () => {
    const { log } = open();
    await log.ensureTopics([{ topic: 't', partitions: 1 }]);
    await produceAt(log, 't', 10, T0); // offsets 0-9, at T0 .. T0+9 s
    log.commit('fast', 't', 0, 10);
    log.commit('slow', 't', 0, 6);

    // One hour of retention, two hours later: 0-5 are read by both groups and old.
    const report = await log.prune({ retentionMs: HOUR, chunkSize: 4, now: () => T0 + 2 * HOUR });
    expect(report.deleted).toBe(6);
    expect(report.byTopic).toEqual({ t: 6 });
    expect(report.chunks).toBe(2); // 4 + 2 rows, one transaction each
    expect(offsets(log, 't')).toEqual([6, 7, 8, 9]);

    // Everyone has read everything now, but the clock says the rest is younger than the period.
    log.commit('slow', 't', 0, 10);
    const young = await log.prune({ retentionMs: HOUR, now: () => T0 + 5_000 + HOUR });
    expect(young.deleted).toBe(0);
    expect(offsets(log, 't')).toEqual([6, 7, 8, 9]);
  });

  it('keeps a partition whole while a group of its topic has no offset on it, and a topic nobody reads', async () => {
    const { log } = open();
    await log.ensureTopics([
      { topic: 'read', partitions: 2 },
      { topic: 'unread', partitions: 1 },
    ]);
    await log.produce('read', [
      { key: 'a', value: 'x', timestamp: T0 },
      { key: 'a', value: 'y', timestamp: T0 },
      { key: 'a', value: 'z', timestamp: T0 },
    ]);
    await produceAt(log, 'unread', 3, T0);
    const partition = Number((await log.produce('read', [{ key: 'a', value: 'last', timestamp: T0 }]))[0]!.partition);
    // Group g committed everything on the partition holding key "a"; group h only ever read the other partition.
    log.commit('g', 'read', partition, 4);
    log.commit('h', 'read', 1 - partition, 0);

    const held = await log.prune({ retentionMs: HOUR, now: () => T0 + 2 * HOUR });
    expect(held.deleted).toBe(0);
    expect(held.heldBack).toEqual([{ topic: 'read', partition, groupId: 'h', nextOffset: 0 }]);
    expect(log.read('unread', 0, 0, 100).map((r) => r.value)).toEqual(['v0', 'v1', 'v2']);

    log.commit('h', 'read', partition, 4);
    const released = await log.prune({ retentionMs: HOUR, now: () => T0 + 2 * HOUR });
    expect(released.deleted).toBe(3); // the newest record of the partition stays
    expect(log.read('read', partition, 0, 100).map((r) => r.value)).toEqual(['last']);
  });

  it('a live group that has committed nothing holds back the records it has not read', async () => {
    const { log } = open();
    await log.ensureTopics([{ topic: 't', partitions: 1 }]);
    await produceAt(log, 't', 5, T0);
    log.commit('done', 't', 0, 5);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: LogRecord[] = [];
    let first!: () => void;
    const started = new Promise<void>((resolve) => (first = resolve));
    let all!: () => void;
    const everything = new Promise<void>((resolve) => (all = resolve));
    const consumer = log.consumer({ groupId: 'new-group', topics: ['t'], fromBeginning: true, maxBatchSize: 2 });
    await consumer.start(async (batch: Batch) => {
      seen.push(...batch.records);
      first();
      if (seen.length === 5) all();
      await gate; // its first batch is still in flight: nothing committed
    });
    await started;

    const report = await log.prune({ retentionMs: HOUR, now: () => T0 + 2 * HOUR });
    expect(report.deleted).toBe(0);
    expect(offsets(log, 't')).toEqual([0, 1, 2, 3, 4]);
    release();
    await everything;
    await consumer.stop();
    expect(seen.map((r) => r.value)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4']);
  });

  it('keeps the newest record of each partition, so offsets go on after a restart and groups miss nothing', async () => {
    const first = open();
    await first.log.ensureTopics([{ topic: 't', partitions: 1 }]);
    await produceAt(first.log, 't', 5, T0);
    first.log.commit('g', 't', 0, 5);
    expect((await first.log.prune({ retentionMs: HOUR, now: () => T0 + 2 * HOUR })).deleted).toBe(4);
    await first.log.close();

    const again = open(first.dataDir).log;
    const [meta] = await again.produce('t', [{ key: 'k', value: 'after restart' }]);
    expect(meta!.offset).toBe('5');
    const received: string[] = [];
    let done!: () => void;
    const got = new Promise<void>((resolve) => (done = resolve));
    const consumer = again.consumer({ groupId: 'g', topics: ['t'], fromBeginning: true });
    await consumer.start(async (batch) => {
      received.push(...batch.records.map((r) => r.value));
      done();
    });
    await got;
    await consumer.stop();
    expect(received).toEqual(['after restart']);
  });

  it('LogPruner logs each pass with its counts', async () => {
    const { log } = open();
    await log.ensureTopics([{ topic: 't', partitions: 1 }]);
    await produceAt(log, 't', 3, T0);
    log.commit('g', 't', 0, 3);
    const lines: Array<{ obj: object; msg?: string }> = [];
    const logger = {
      info: (obj: object, msg?: string) => lines.push({ obj, msg }),
      warn: (obj: object, msg?: string) => lines.push({ obj, msg }),
    };
    const pruner = new LogPruner(log, { retentionMs: 168 * HOUR, now: () => T0 + 169 * HOUR, logger });
    const report = await pruner.runOnce();
    expect(report?.deleted).toBe(2);
    expect(lines).toEqual([
      {
        obj: expect.objectContaining({ deleted: 2, chunks: 1, byTopic: { t: 2 }, heldBack: [], retentionHours: 168 }),
        msg: 'embedded event log pruned',
      },
    ]);

    await log.close();
    expect(await pruner.runOnce()).toBeUndefined();
    expect(lines[1]).toEqual({
      obj: { err: expect.objectContaining({ message: 'the embedded event log is closed' }) },
      msg: 'embedded event log pruning failed; trying again at the next interval',
    });
  });
});
