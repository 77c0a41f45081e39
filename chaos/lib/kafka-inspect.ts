/**
 * Reading the private Kafka directly (kafkajs, as an operator's tools would): every consumer
 * group's lag, the dead-letter topics, and whole topics (leads.events). Nothing here commits an
 * offset; the reader's throwaway group is left out of the lag.
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin } from 'kafkajs';

/** Groups that never commit by design: each api process's decision reader (apps/api decision-waiter.ts). */
const UNCOMMITTED_GROUPS = /^api-decisions\./;
const READER_PREFIX = 'chaos-reader-';

export interface GroupLag {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

export interface RawRecord {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
}

export class KafkaInspector {
  private readonly kafka: Kafka;
  private admin: Admin | undefined;

  constructor(brokers: string) {
    this.kafka = new Kafka({
      clientId: 'leadstream-chaos',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
      retry: { retries: 3 },
    });
  }

  private async connected(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }

  async close(): Promise<void> {
    await this.admin?.disconnect().catch(() => undefined);
    this.admin = undefined;
  }

  /** End offsets (high watermarks) and starts of a topic's partitions. */
  private async ends(topic: string): Promise<Map<number, { low: number; high: number }>> {
    const offsets = await (await this.connected()).fetchTopicOffsets(topic);
    return new Map(offsets.map((entry) => [entry.partition, { low: Number(entry.low), high: Number(entry.high) }]));
  }

  /** The lag of every group that commits offsets, per partition it has a position on or should have. */
  async lag(): Promise<GroupLag[]> {
    const admin = await this.connected();
    const { groups } = await admin.listGroups();
    const result: GroupLag[] = [];
    const endsOf = new Map<string, Map<number, { low: number; high: number }>>();
    for (const { groupId } of groups) {
      if (UNCOMMITTED_GROUPS.test(groupId) || groupId.startsWith(READER_PREFIX)) continue;
      const committed = await admin.fetchOffsets({ groupId });
      for (const { topic, partitions } of committed) {
        if (!endsOf.has(topic)) endsOf.set(topic, await this.ends(topic));
        const ends = endsOf.get(topic)!;
        for (const { partition, offset } of partitions) {
          const end = ends.get(partition);
          if (!end) continue;
          const position = Number(offset) < 0 ? end.low : Number(offset);
          result.push({ group: groupId, topic, partition, lag: Math.max(0, end.high - position) });
        }
      }
    }
    return result;
  }

  /** The dead-letter topics and how many records each holds. */
  async deadLetterCounts(): Promise<Map<string, number>> {
    const admin = await this.connected();
    const counts = new Map<string, number>();
    for (const topic of (await admin.listTopics()).filter((name) => name.endsWith('.dlq'))) {
      let count = 0;
      for (const { low, high } of (await this.ends(topic)).values()) count += high - low;
      counts.set(topic, count);
    }
    return counts;
  }

  /** Every record of the given topics, read to their current ends with a throwaway group that commits nothing. */
  async read(topics: string[], timeoutMs = 60_000): Promise<RawRecord[]> {
    const targets = new Map<string, number>(); // "topic/partition" -> last offset to read
    for (const topic of topics)
      for (const [partition, { low, high }] of await this.ends(topic))
        if (high > low) targets.set(`${topic}/${partition}`, high - 1);
    if (targets.size === 0) return [];
    const records: RawRecord[] = [];
    const consumer = this.kafka.consumer({
      groupId: `${READER_PREFIX}${randomUUID()}`,
      allowAutoTopicCreation: false,
      maxWaitTimeInMs: 100,
    });
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    try {
      await consumer.connect();
      await consumer.subscribe({ topics, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            records.push({
              topic: batch.topic,
              partition: batch.partition,
              offset: message.offset,
              key: message.key?.toString('utf8') ?? null,
              value: message.value?.toString('utf8') ?? '',
            });
            const target = targets.get(`${batch.topic}/${batch.partition}`);
            if (target !== undefined && Number(message.offset) >= target)
              targets.delete(`${batch.topic}/${batch.partition}`);
          }
          if (targets.size === 0) finish();
        },
      });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        finished,
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () =>
              reject(new Error(`could not read ${[...targets.keys()].join(', ')} to the end within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]).finally(() => clearTimeout(timer));
    } finally {
      await consumer.disconnect().catch(() => undefined);
    }
    return records;
  }
}
