import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { eventLogContract } from '@leadstream/ports/contract/event-log.contract';
import { type EventLog, type LogRecord, partitionForKey } from '@leadstream/ports';
import { Kafka, logLevel, type ISocketFactory } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { openKafkaLog } from './index';

const kafka = lookupInfra('KAFKA_BROKERS');
const brokers = kafka.value;

eventLogContract(
  'kafka',
  brokers
    ? async () => {
        const open = (): Promise<EventLog> => openKafkaLog({ brokers, clientId: 'event-log-contract' });
        let log = await open();
        return {
          log,
          // A new client: the group's state lives in the broker, as after a process restart.
          reopen: async () => {
            await log.close();
            log = await open();
            return log;
          },
          cleanup: async () => {
            await log.close();
          },
        };
      }
    : undefined,
);

describe.skipIf(!brokers)('a handler that runs longer than the session timeout', () => {
  it('keeps its member in the group (heartbeats while it runs): the batch commits and the consumer does not crash', async () => {
    // The broker's session timeout is real time (6 s here): the handler must outlast it on the real clock.
    const log = await openKafkaLog({ brokers: brokers!, clientId: 'long-handler' });
    const topic = `long-handler-${randomUUID()}`;
    const groupId = `long-handler-${randomUUID()}`;
    try {
      await log.ensureTopics([{ topic, partitions: 1 }]);
      await log.produce(topic, [{ key: 'k', value: 'first' }]);
      const seen: string[] = [];
      const consumer = log.consumer({ groupId, topics: [topic], fromBeginning: true });
      await consumer.start(async (batch) => {
        for (const record of batch.records) seen.push(record.value);
        if (seen.length === 1) await new Promise((resolve) => setTimeout(resolve, 9_000));
      });
      await expect.poll(() => seen.length, { timeout: 15_000, interval: 200 }).toBe(1);
      await log.produce(topic, [{ key: 'k', value: 'second' }]);
      await expect.poll(() => seen, { timeout: 20_000, interval: 200 }).toEqual(['first', 'second']);
      let crashed: unknown;
      consumer.done.catch((error: unknown) => (crashed = error));
      await consumer.stop();
      expect(crashed).toBeUndefined();
    } finally {
      await log.close();
    }
  }, 60_000);
});

describe.skipIf(!brokers)('Kafka event log partitions', () => {
  it('reads a topic\u2019s partition count again after partitionRefreshMs, so keys reach partitions added to a live topic', async () => {
    let now = 1_000_000;
    // kafkajs's producer ages its own metadata on the real clock (metadataMaxAge = partitionRefreshMs).
    const log = await openKafkaLog({
      brokers: brokers!,
      clientId: 'partition-refresh',
      partitionRefreshMs: 300,
      now: () => now,
    });
    const admin = new Kafka({
      brokers: brokers!.split(','),
      clientId: 'partition-refresh-admin',
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      const topic = `partition-refresh-${randomUUID().slice(0, 8)}`;
      await log.ensureTopics([{ topic, partitions: 1 }]);
      // A key whose murmur2 partition is 2 or 3 once the topic has 4 partitions.
      const key = Array.from({ length: 100 }, (_, i) => `key-${i}`).find(
        (candidate) => partitionForKey(candidate, 4) >= 2,
      )!;
      expect((await log.produce(topic, [{ key, value: 'before' }]))[0]?.partition).toBe(0);
      await admin.createPartitions({ topicPartitions: [{ topic, count: 4 }] });
      // Within the refresh interval the count held is used.
      expect((await log.produce(topic, [{ key, value: 'cached' }]))[0]?.partition).toBe(0);
      now += 301;
      expect(await log.partitionCount(topic)).toBe(4);
      // Until the producer's metadata has caught up, a produce fails as retriable (writing nothing).
      const deadline = Date.now() + 15_000;
      let landed: number | undefined;
      while (landed === undefined) {
        try {
          landed = (await log.produce(topic, [{ key, value: 'after' }]))[0]?.partition;
        } catch (error) {
          expect(error).toMatchObject({ retriable: true });
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(landed).toBe(partitionForKey(key, 4));
    } finally {
      await admin.disconnect();
      await log.close();
    }
  });
});

/** Every record of `topics`, read from the start by a new group, once `count` have arrived. */
async function readBack(log: EventLog, topics: string[], count: number): Promise<LogRecord[]> {
  const seen: LogRecord[] = [];
  const consumer = log.consumer({ groupId: `read-back-${randomUUID()}`, topics, fromBeginning: true });
  await consumer.start(async (batch) => {
    seen.push(...batch.records);
  });
  try {
    await expect.poll(() => seen.length, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(count);
  } finally {
    await consumer.stop();
  }
  return seen;
}

/**
 * Connections that pass everything except, while `losing` is set, the broker's answers to Produce
 * requests: the connection is cut when the answer arrives, so the broker has written the batch
 * but the client never hears so.
 */
function lossyConnections(): { factory: ISocketFactory; lose: (on: boolean) => void } {
  let losing = false;
  const factory: ISocketFactory = ({ host, port, onConnect }) => {
    const socket = net.connect({ host, port }, onConnect);
    let produceAnswerDue = false;
    const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
    socket.write = (chunk: unknown, ...rest: unknown[]) => {
      // A request starts with its size (int32) and its API key (int16); Produce is key 0.
      if (losing && Buffer.isBuffer(chunk) && chunk.length >= 6 && chunk.readInt16BE(4) === 0) produceAnswerDue = true;
      return write(chunk, ...rest);
    };
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'data' && produceAnswerDue) {
        socket.destroy(new Error('the answer to a Produce request was lost'));
        return true;
      }
      return emit(event, ...args);
    }) as typeof socket.emit;
    return socket;
  };
  return { factory, lose: (on) => (losing = on) };
}

describe.skipIf(!brokers)('Kafka event log acknowledgements', () => {
  it('a send acknowledged after an earlier send failed with its answer lost is written (not taken for a repeat of the failed one)', async () => {
    const connections = lossyConnections();
    const log = await openKafkaLog({ brokers: brokers!, clientId: 'lost-answer', socketFactory: connections.factory });
    const topic = `lost-answer-${randomUUID().slice(0, 8)}`;
    try {
      await log.ensureTopics([{ topic, partitions: 1 }]);
      await log.produce(topic, [{ key: 'k', value: 'before' }]);
      // Every answer to this send is lost, through all of the log's retries: the caller is told it
      // failed, though the broker wrote it (once an attempt: at least once).
      connections.lose(true);
      await expect(log.produce(topic, [{ key: 'k', value: 'unanswered' }])).rejects.toThrow();
      connections.lose(false);
      const [acknowledged] = await log.produce(topic, [{ key: 'k', value: 'acknowledged' }]);

      const records = await readBack(log, [topic], 3);
      const values = records.map((r) => r.value);
      expect(values[0]).toBe('before');
      expect(values.at(-1)).toBe('acknowledged');
      expect(new Set(values.slice(1, -1))).toEqual(new Set(['unanswered']));
      expect(records.find((r) => r.offset === acknowledged!.offset)?.value).toBe('acknowledged');
    } finally {
      await log.close();
    }
  }, 60_000);

  it('writes each record of the first produce to a topic just created once (no partition written twice by a retry)', async () => {
    const log = await openKafkaLog({ brokers: brokers!, clientId: 'first-produce' });
    const run = randomUUID().slice(0, 8);
    try {
      // Before ensureTopics waited for each partition's leader to serve it, most rounds had a
      // partition the leader refused (NOT_LEADER_OR_FOLLOWER) while others were written, and the
      // retried batch wrote those others again.
      for (let round = 0; round < 10; round++) {
        const topic = `first-produce-${run}-${round}`;
        await log.ensureTopics([{ topic, partitions: 6 }]);
        const sent = await log.produce(
          topic,
          Array.from({ length: 12 }, (_, i) => ({ key: `key-${i}`, value: `value-${i}` })),
        );
        const perPartition = new Map<number, number>();
        for (const meta of sent) perPartition.set(meta.partition, (perPartition.get(meta.partition) ?? 0) + 1);
        // Offsets of a partition written once run from 0 to its count of records less one.
        const beyond = sent.filter((meta) => Number(meta.offset) >= perPartition.get(meta.partition)!);
        expect(
          beyond.map((meta) => `${meta.partition}/${meta.offset}`),
          `round ${round}`,
        ).toEqual([]);
      }
    } finally {
      await log.close();
    }
  }, 120_000);

  it('sends made side by side each answer where their own records landed', async () => {
    const log = await openKafkaLog({ brokers: brokers!, clientId: 'side-by-side' });
    const topics = [`side-a-${randomUUID().slice(0, 8)}`, `side-b-${randomUUID().slice(0, 8)}`];
    try {
      await log.ensureTopics(topics.map((topic) => ({ topic, partitions: 3 })));
      const sends = Array.from({ length: 40 }, (_, i) => {
        const topic = topics[i % 2]!;
        const records = Array.from({ length: 1 + (i % 3) }, (_, j) => ({
          key: `key-${i}-${j}`,
          value: `value-${i}-${j}`,
        }));
        return log.produce(topic, records).then((metadata) => ({ topic, records, metadata }));
      });
      const answered = await Promise.all(sends);
      const written = answered.reduce((sum, a) => sum + a.records.length, 0);
      const records = await readBack(log, topics, written);
      expect(records).toHaveLength(written);
      const where = new Map(records.map((r) => [`${r.topic}/${r.partition}/${r.offset}`, r.value]));
      for (const { topic, records: sent, metadata } of answered) {
        expect(metadata).toHaveLength(sent.length);
        sent.forEach((record, j) => {
          expect(metadata[j]!.topic).toBe(topic);
          expect(metadata[j]!.partition).toBe(partitionForKey(record.key, 3));
          expect(where.get(`${topic}/${metadata[j]!.partition}/${metadata[j]!.offset}`)).toBe(record.value);
        });
      }
    } finally {
      await log.close();
    }
  }, 60_000);
});
