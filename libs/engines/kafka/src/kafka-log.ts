/**
 * The Kafka engine of the event-log port, on kafkajs (README.md "Engines and configuration").
 *
 * Partitions are chosen here with the port's murmur2 partitioner (the Java client's default) and
 * sent explicitly, so the metadata of each record is known in input order: the broker answers
 * with a base offset per partition, and records of one partition in one send are consecutive.
 * kafkajs's DefaultPartitioner, which computes the same partitions (kafka-partitioner.spec.ts),
 * is configured too so kafkajs does not warn about its default.
 *
 * Delay settings are not a Kafka topic config: this log remembers them from ensureTopics, which
 * every process calls at start-up for the topics it uses.
 */
import type { Admin, ISocketFactory, Kafka as KafkaClient, Message } from 'kafkajs';
import {
  createPartitioner,
  type ConsumerOptions,
  type EventLog,
  type ProduceRecord,
  type RecordMetadata,
  type TopicSpec,
} from '@leadstream/ports';
import { KafkaLogConsumer, type KafkaConsumerTuning } from './kafka-consumer';
import { ProducerSession } from './producer-session';
import { Kafka, Partitioners } from './kafkajs-runtime';
import { KAFKAJS_LOG_LEVEL, kafkajsLogCreator, type KafkaLogLogger } from './kafkajs-logger';

export interface KafkaLogOptions {
  brokers: string[] | string;
  clientId: string;
  logger?: KafkaLogLogger;
  /** Group timings; the defaults favour quick rebalances (tests, small deployments). */
  consumer?: Partial<KafkaConsumerTuning>;
  /**
   * How long a topic's partition count is trusted before it is read again (partitions can be
   * added to a live topic; keys then move, as with Kafka's own producer). Default 30 s.
   */
  partitionRefreshMs?: number;
  /** The clock the refresh reads (tests). */
  now?: () => number;
  /** How the client opens its connections (kafkajs's plain TCP or TLS when absent; tests lose answers with it). */
  socketFactory?: ISocketFactory;
}

const DEFAULT_TUNING: KafkaConsumerTuning = {
  sessionTimeout: 6_000, // the broker's group.min.session.timeout.ms default
  heartbeatInterval: 1_000,
  rebalanceTimeout: 10_000,
  maxWaitTimeInMs: 250,
  // A member handles the batches of its partitions side by side (each partition still in order):
  // a stage's batch waits on the store and the broker, and one partition at a time left every
  // other partition's leads queued behind those round trips.
  partitionsConsumedConcurrently: 16,
};

export async function openKafkaLog(options: KafkaLogOptions): Promise<EventLog> {
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: typeof options.brokers === 'string' ? options.brokers.split(',').map((b) => b.trim()) : options.brokers,
    logLevel: KAFKAJS_LOG_LEVEL,
    logCreator: kafkajsLogCreator(options.logger),
    retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    connectionTimeout: 3_000,
    ...(options.socketFactory ? { socketFactory: options.socketFactory } : {}),
  });
  const admin = kafka.admin();
  const producers = new ProducerSession(() =>
    kafka.producer({
      allowAutoTopicCreation: false,
      // Not idempotent, and no retries of its own: ProducerSession says why, and retries itself.
      idempotent: false,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 0 },
      // The producer's own view of the partitions ages like ours (partitionCount), so a partition
      // added to a live topic becomes writable within one refresh interval.
      metadataMaxAge: options.partitionRefreshMs ?? 30_000,
    }),
  );
  await admin.connect();
  try {
    await producers.connect();
  } catch (error) {
    await admin.disconnect();
    throw error;
  }
  return new KafkaLog(
    kafka,
    admin,
    producers,
    { ...DEFAULT_TUNING, ...options.consumer },
    options.partitionRefreshMs ?? 30_000,
    options.now ?? Date.now,
  );
}

export class KafkaLog implements EventLog {
  readonly engine = 'kafka' as const;
  private readonly partitionCounts = new Map<string, { count: number; readAt: number }>();
  private readonly delays = new Map<string, number>();
  private readonly consumers = new Set<KafkaLogConsumer>();
  private readonly partitioner = createPartitioner();
  private closed = false;

  constructor(
    private readonly kafka: KafkaClient,
    private readonly admin: Admin,
    private readonly producers: ProducerSession,
    private readonly tuning: KafkaConsumerTuning,
    private readonly partitionRefreshMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    for (const spec of specs) if (spec.delayMs) this.delays.set(spec.topic, spec.delayMs);
    const existing = new Set(await this.admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length > 0) {
      // createTopics answers false (no throw) for topics another process created meanwhile.
      await this.admin.createTopics({
        waitForLeaders: false,
        topics: missing.map((s) => ({ topic: s.topic, numPartitions: s.partitions })),
      });
      await this.waitForLeaders(missing.map((s) => s.topic));
    }
    for (const spec of specs) this.partitionCounts.delete(spec.topic);
  }

  /**
   * Waits until every partition of the new topics is served by its leader. kafkajs's own
   * `waitForLeaders` retries only LEADER_NOT_AVAILABLE, but a KRaft broker answers
   * UNKNOWN_TOPIC_OR_PARTITION for a moment after creating many topics at once; and once the
   * metadata names a leader, that broker may still answer NOT_LEADER_OR_FOLLOWER until it has taken
   * the partition up. A first produce then failed on some partitions after others were written, and
   * its retry wrote those again (docs/decisions.md "The Kafka producer"). So a topic is ready when
   * each partition's leader answers a ListOffsets request, which it serves only as the leader.
   */
  private async waitForLeaders(topics: string[], timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const metadata = await this.admin.fetchTopicMetadata({ topics });
        const ready = metadata.topics.every(
          (topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0),
        );
        if (ready) {
          // Side by side: at boot this is every pipeline topic, each its own request.
          await Promise.all(topics.map((topic) => this.admin.fetchTopicOffsets(topic)));
          return;
        }
      } catch (error) {
        const type = (error as { type?: string }).type;
        const retriable = (error as { retriable?: boolean }).retriable === true;
        const exhausted = (error as { name?: string }).name === 'KafkaJSNumberOfRetriesExceeded';
        if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' && type !== 'LEADER_NOT_AVAILABLE' && !retriable && !exhausted)
          throw error;
      }
      if (Date.now() > deadline) throw new Error(`topics have no leaders after ${timeoutMs} ms: ${topics.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The topic's partition count, read again once it is older than partitionRefreshMs. */
  async partitionCount(topic: string): Promise<number> {
    const cached = this.partitionCounts.get(topic);
    if (cached !== undefined && this.now() - cached.readAt < this.partitionRefreshMs) return cached.count;
    const { topics } = await this.admin.fetchTopicMetadata({ topics: [topic] });
    const count = topics[0]?.partitions.length ?? 0;
    if (count === 0) throw new Error(`unknown topic ${topic}: create it with ensureTopics first`);
    this.partitionCounts.set(topic, { count, readAt: this.now() });
    return count;
  }

  async produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
    try {
      return await this.produceOnce(topic, records);
    } catch (error) {
      // The count we hold may be stale (the topic was recreated, or changed meanwhile): read it again and retry once.
      if ((error as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
      this.partitionCounts.delete(topic);
      return this.produceOnce(topic, records);
    }
  }

  private async produceOnce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
    if (records.length === 0) return [];
    const partitions = await this.partitionCount(topic);
    const now = Date.now();
    const messages: Message[] = records.map((r) => ({
      partition: this.partitioner(topic, r.key, partitions),
      key: r.key ?? null,
      value: r.value,
      headers: r.headers,
      timestamp: String(r.timestamp ?? now),
    }));
    return this.producers.send(topic, messages);
  }

  consumer(options: ConsumerOptions): KafkaLogConsumer {
    if (this.closed) throw new Error('the Kafka event log is closed');
    const consumer = new KafkaLogConsumer(
      this.kafka,
      this.admin,
      options,
      (topic) => this.delays.get(topic),
      this.tuning,
      (finished) => this.consumers.delete(finished),
    );
    this.consumers.add(consumer);
    return consumer;
  }

  async ping(): Promise<void> {
    await this.admin.describeCluster();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([...this.consumers].map((c) => c.stop()));
    await Promise.allSettled([this.producers.close(), this.admin.disconnect()]);
  }
}
