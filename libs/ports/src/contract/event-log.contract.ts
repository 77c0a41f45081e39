/**
 * The contract every event-log engine passes (README.md "Engines and configuration"): one suite, run against the
 * embedded engine and against Kafka. Topic and group names carry a random suffix so that suites
 * can share a broker.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Consumer, EventLog, LogRecord, ProduceRecord } from '../event-log.port';
import { partitionForKey } from '../partitioner';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

export interface EventLogHarness {
  log: EventLog;
  /** Closes `log` and opens the engine again on the same storage, as after a process restart. */
  reopen?: () => Promise<EventLog>;
  /** Closes whatever log is open and removes what the test left behind. */
  cleanup: () => Promise<void>;
}

export interface EventLogContractOptions {
  /** How long to wait for something that should happen (a delivery, a rebalance). */
  waitMs?: number;
}

/**
 * Registers the suite. Pass `undefined` as factory to skip it (the engine's server is absent;
 * the caller prints why).
 */
export function eventLogContract(
  name: string,
  factory: (() => Promise<EventLogHarness>) | undefined,
  options: EventLogContractOptions = {},
): void {
  const waitMs = options.waitMs ?? 20_000;

  describe.skipIf(!factory)(`event log contract: ${name}`, () => {
    let harness: EventLogHarness;
    let log: EventLog;
    const consumers: Consumer[] = [];

    beforeEach(async () => {
      harness = await factory!();
      log = harness.log;
    });

    afterEach(async () => {
      await Promise.allSettled(consumers.splice(0).map((c) => c.stop()));
      await harness.cleanup();
    });

    const unique = (prefix: string): string => `contract.${prefix}.${randomUUID().slice(0, 8)}`;

    /** Polls until `check` holds; a failed wait names what was expected. */
    async function waitFor(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
      const deadline = Date.now() + waitMs;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out after ${waitMs} ms waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    /** Settles with `promise`, or fails naming what did not happen in time. */
    async function within<T>(what: string, promise: Promise<T>): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${waitMs} ms waiting for ${what}`)), waitMs);
      });
      try {
        return await Promise.race([promise, timeout]);
      } finally {
        clearTimeout(timer);
      }
    }

    /** Starts a consumer that collects every record it is handed (with the time it saw it). */
    async function collect(
      target: EventLog,
      groupId: string,
      topics: string[],
      extra: { maxBatchSize?: number; commitOffsets?: boolean } = {},
    ): Promise<{ consumer: Consumer; records: LogRecord[]; seenAt: number[] }> {
      const consumer = target.consumer({ groupId, topics, fromBeginning: true, ...extra });
      consumers.push(consumer);
      const records: LogRecord[] = [];
      const seenAt: number[] = [];
      await consumer.start(async (batch) => {
        for (const r of batch.records) {
          expect(r.topic).toBe(batch.topic);
          expect(r.partition).toBe(batch.partition);
          records.push(r);
          seenAt.push(Date.now());
        }
      });
      return { consumer, records, seenAt };
    }

    const values = (records: LogRecord[]): string[] => records.map((r) => r.value);
    const messages = (prefix: string, count: number, keys = 8): ProduceRecord[] =>
      Array.from({ length: count }, (_, i) => ({ key: `${prefix}-key-${i % keys}`, value: `${prefix}-${i}` }));

    it('creates topics with the partition count asked for, idempotently', async () => {
      const topic = unique('ensure');
      await log.ensureTopics([{ topic, partitions: 3 }]);
      await log.ensureTopics([{ topic, partitions: 3 }]);
      expect(await log.partitionCount(topic)).toBe(3);
      const other = unique('ensure');
      await log.ensureTopics([{ topic: other, partitions: 7 }]);
      expect(await log.partitionCount(other)).toBe(7);
    });

    it('puts a key on the partition murmur2 picks, in the metadata and where the consumer sees it', async () => {
      const topic = unique('placement');
      await log.ensureTopics([{ topic, partitions: 6 }]);
      const records = Array.from({ length: 60 }, (_, i) => ({ key: `lead-${i}`, value: String(i) }));
      const metadata = await log.produce(topic, records);
      expect(metadata).toHaveLength(records.length);
      metadata.forEach((m, i) => {
        expect(m.topic).toBe(topic);
        expect(m.partition).toBe(partitionForKey(records[i]!.key, 6));
      });
      // Where Kafka's Java client puts two keys of its UtilsTest vectors on 6 partitions: "abc"
      // (murmur2 479470107) on 3, "21" (murmur2 -973932308: masked, not Math.abs) on 0.
      const [abc, twentyOne] = await log.produce(topic, [
        { key: 'abc', value: 'java-abc' },
        { key: '21', value: 'java-21' },
      ]);
      expect(abc!.partition).toBe(3);
      expect(twentyOne!.partition).toBe(0);

      const { records: seen } = await collect(log, unique('placement'), [topic]);
      await waitFor('every record', () => seen.length >= records.length + 2);
      for (const r of seen) expect(r.partition).toBe(partitionForKey(r.key!, 6));
      expect(new Set(seen.map((r) => r.partition)).size).toBe(6);
    });

    it('keeps the order of records within a partition', async () => {
      const topic = unique('order');
      await log.ensureTopics([{ topic, partitions: 3 }]);
      const produced: ProduceRecord[] = [];
      for (let call = 0; call < 10; call++) {
        const batch = Array.from({ length: 20 }, (_, i) => ({ key: `k${i % 4}`, value: `${call * 20 + i}` }));
        produced.push(...batch);
        const metadata = await log.produce(topic, batch);
        // Offsets within a partition grow by one per record, in the order given.
        const last = new Map<number, bigint>();
        for (const m of metadata) {
          const previous = last.get(m.partition);
          if (previous !== undefined) expect(BigInt(m.offset)).toBe(previous + 1n);
          last.set(m.partition, BigInt(m.offset));
        }
      }
      const { records: delivered } = await collect(log, unique('order'), [topic], { maxBatchSize: 7 });
      const firstDeliveries = (): LogRecord[] => {
        // At-least-once: a rebalance while the group forms may deliver an uncommitted batch again.
        // Order is about first deliveries; a repeat must be a record already seen.
        const seenOffsets = new Set<string>();
        return delivered.filter(
          (r) => !seenOffsets.has(`${r.partition}:${r.offset}`) && seenOffsets.add(`${r.partition}:${r.offset}`),
        );
      };
      await waitFor('every record', () => firstDeliveries().length >= produced.length);
      const records = firstDeliveries();
      // At-least-once produce: a batch whose attempt failed after the broker wrote some of it is
      // written again (Kafka fails a whole request for one partition's error), so a record may be
      // stored twice, later in its partition. Order is about each record's first copy; nothing is
      // lost, and a second copy is always of a record already stored.
      const firstCopies = (rs: LogRecord[]): LogRecord[] => {
        const seenValues = new Set<string>();
        return rs.filter((r) => !seenValues.has(r.value) && seenValues.add(r.value));
      };
      for (const key of ['k0', 'k1', 'k2', 'k3']) {
        const expected = produced.filter((r) => r.key === key).map((r) => r.value);
        expect(values(firstCopies(records.filter((r) => r.key === key)))).toEqual(expected);
      }
      for (let p = 0; p < 3; p++) {
        const offsets = records.filter((r) => r.partition === p).map((r) => BigInt(r.offset));
        expect(offsets).toEqual([...offsets].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }
    });

    it("splits partitions between members of a group and hands a leaving member's partitions over", async () => {
      const topic = unique('split');
      const groupId = unique('split');
      await log.ensureTopics([{ topic, partitions: 4 }]);
      const a = await collect(log, groupId, [topic]);
      const b = await collect(log, groupId, [topic]);
      const owned = (c: Consumer): number[] => c.assignment().flatMap((x) => x.partitions);
      await waitFor('both members to own partitions', () => {
        const pa = owned(a.consumer);
        const pb = owned(b.consumer);
        return pa.length > 0 && pb.length > 0 && new Set([...pa, ...pb]).size === 4 && pa.length + pb.length === 4;
      });
      const first = messages('first', 80, 16);
      await log.produce(topic, first);
      await waitFor('the first records', () => new Set(values([...a.records, ...b.records])).size === first.length);
      // Each member saw only its own partitions, and both saw some.
      const pa = new Set(owned(a.consumer));
      expect(a.records.every((r) => pa.has(r.partition))).toBe(true);
      expect(b.records.every((r) => !pa.has(r.partition))).toBe(true);
      expect(a.records.length).toBeGreaterThan(0);
      expect(b.records.length).toBeGreaterThan(0);

      await a.consumer.stop();
      await expect(a.consumer.done).resolves.toBeUndefined();
      await waitFor('the remaining member to own every partition', () => owned(b.consumer).length === 4);
      const seenByA = a.records.length;
      const rest = messages('rest', 80, 16);
      await log.produce(topic, rest);
      await waitFor('the rest at the remaining member', () =>
        rest.every((r) => b.records.some((s) => s.value === r.value)),
      );
      expect(a.records.length).toBe(seenByA);
    });

    it('delivers every record to each of two groups', async () => {
      const topic = unique('groups');
      await log.ensureTopics([{ topic, partitions: 3 }]);
      const g1 = await collect(log, unique('g1'), [topic]);
      const g2 = await collect(log, unique('g2'), [topic]);
      const produced = messages('both', 50);
      await log.produce(topic, produced);
      await waitFor('both groups to see every record', () =>
        [g1, g2].every((g) => new Set(values(g.records)).size === produced.length),
      );
      expect(new Set(values(g1.records))).toEqual(new Set(produced.map((r) => r.value)));
      expect(new Set(values(g2.records))).toEqual(new Set(produced.map((r) => r.value)));
    });

    it('resumes a group after its committed offsets when a new consumer starts (after a restart if the engine can)', async () => {
      const topic = unique('resume');
      const groupId = unique('resume');
      await log.ensureTopics([{ topic, partitions: 2 }]);
      const before = messages('before', 30);
      await log.produce(topic, before);
      const first = await collect(log, groupId, [topic]);
      await waitFor('the first records', () => first.records.length >= before.length);
      await first.consumer.stop();

      let current = log;
      if (harness.reopen) current = await harness.reopen();
      const after = messages('after', 20);
      await current.produce(topic, after);
      const second = await collect(current, groupId, [topic]);
      await waitFor('the new records', () => second.records.length >= after.length);
      // Nothing lost, nothing from before the commit again.
      expect(new Set(values(second.records))).toEqual(new Set(after.map((r) => r.value)));
      expect(second.records).toHaveLength(after.length);
    });

    it('commits nothing for a member that asks not to (commitOffsets: false): the group starts over', async () => {
      const topic = unique('nocommit');
      const groupId = unique('nocommit');
      await log.ensureTopics([{ topic, partitions: 2 }]);
      const sent = messages('sent', 12);
      await log.produce(topic, sent);
      const first = await collect(log, groupId, [topic], { commitOffsets: false });
      await waitFor('every record', () => first.records.length >= sent.length);
      await first.consumer.stop();
      const second = await collect(log, groupId, [topic]);
      await waitFor('every record again', () => second.records.length >= sent.length);
      expect(new Set(values(second.records))).toEqual(new Set(sent.map((r) => r.value)));
    });

    it('delivers a batch again to the next consumer after its handler threw', async () => {
      const topic = unique('crash');
      const groupId = unique('crash');
      await log.ensureTopics([{ topic, partitions: 1 }]);
      const produced = Array.from({ length: 10 }, (_, i) => ({ key: 'one', value: `v${i}` }));
      await log.produce(topic, produced);

      const handled: string[] = [];
      const crashing = log.consumer({ groupId, topics: [topic], fromBeginning: true, maxBatchSize: 4 });
      consumers.push(crashing);
      const failure = new Error('handler failed');
      await crashing.start(async (batch) => {
        // The first batch (v0..v3) succeeds and is committed; the second throws.
        if (handled.length > 0) throw failure;
        handled.push(...values(batch.records));
      });
      await expect(within('the consumer to crash', crashing.done)).rejects.toBe(failure);
      expect(crashing.state()).toBe('crashed');
      expect(handled).toEqual(['v0', 'v1', 'v2', 'v3']);

      const next = await collect(log, groupId, [topic]);
      await waitFor('the records after the committed batch', () => next.records.length >= 6);
      expect(values(next.records)).toEqual(['v4', 'v5', 'v6', 'v7', 'v8', 'v9']);
    });

    it('reports the lag of the partitions a member owns: records not yet committed', async () => {
      const topic = unique('lag');
      await log.ensureTopics([{ topic, partitions: 1 }]);
      await log.produce(topic, messages('lag', 10));
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let handled = 0;
      const consumer = log.consumer({ groupId: unique('lag'), topics: [topic], fromBeginning: true });
      consumers.push(consumer);
      await consumer.start(async (batch) => {
        await gate; // holds the first batch in flight, uncommitted
        handled += batch.records.length;
      });
      await waitFor('the partition to be assigned', () => consumer.assignment().length === 1);
      expect(await consumer.lag()).toEqual([{ topic, partition: 0, lag: 10 }]);
      open();
      await waitFor('every record', () => handled >= 10);
      // The commit follows the handler; Kafka reports it a moment later.
      await waitFor('the lag to drop to 0', async () => (await consumer.lag())[0]?.lag === 0);
      expect(await consumer.lag()).toEqual([{ topic, partition: 0, lag: 0 }]);
    });

    it('round-trips keys, values, headers and timestamps', async () => {
      const topic = unique('headers');
      await log.ensureTopics([{ topic, partitions: 2 }]);
      const timestamp = Date.now() - 60_000;
      await log.produce(topic, [
        // W3C trace context rides in headers too (docs/operations.md, "Tracing").
        {
          key: 'h1',
          value: '{"a":"é ✓"}',
          headers: { 'x-event-id': 'e-1', 'x-schema': 'lead.v1', traceparent: TRACEPARENT, tracestate: 'vendor=abc' },
          timestamp,
        },
        { key: null, value: 'no headers' },
      ]);
      const { records } = await collect(log, unique('headers'), [topic]);
      await waitFor('both records', () => records.length >= 2);
      const withHeaders = records.find((r) => r.key === 'h1')!;
      expect(withHeaders.value).toBe('{"a":"é ✓"}');
      expect(withHeaders.headers).toEqual({
        'x-event-id': 'e-1',
        'x-schema': 'lead.v1',
        traceparent: TRACEPARENT,
        tracestate: 'vendor=abc',
      });
      expect(withHeaders.timestamp).toBe(timestamp);
      const without = records.find((r) => r.value === 'no headers')!;
      expect(without.key).toBeNull();
      expect(without.headers).toEqual({});
    });

    it('holds a record of a delay topic back until its timestamp plus the delay', async () => {
      const topic = unique('delay');
      const delayMs = 1_500;
      await log.ensureTopics([{ topic, partitions: 1, delayMs }]);
      const { records, seenAt } = await collect(log, unique('delay'), [topic]);
      const timestamp = Date.now();
      await log.produce(topic, [{ key: 'w', value: 'later', timestamp }]);
      await waitFor('the delayed record', () => records.length >= 1);
      expect(records[0]!.value).toBe('later');
      expect(seenAt[0]!).toBeGreaterThanOrEqual(timestamp + delayMs);
    });
  });
}
