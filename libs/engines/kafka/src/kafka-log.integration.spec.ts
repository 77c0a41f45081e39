import { randomUUID } from 'node:crypto';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { eventLogContract } from '@leadstream/ports/contract/event-log.contract';
import { type EventLog, partitionForKey } from '@leadstream/ports';
import { Kafka, logLevel } from 'kafkajs';
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
