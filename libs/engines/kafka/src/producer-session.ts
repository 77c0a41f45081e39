/**
 * The one producer of a Kafka event log, and the rule that keeps its acknowledgements true.
 *
 * kafkajs's idempotent producer numbers each partition's batches. When a send fails, it gives the
 * batch's sequence numbers back, even when the broker may already have written the batch (the
 * answer was lost with the connection, or timed out). The next batch sent to that partition then
 * carries the same numbers; the broker takes it for a repeat of the written one, answers with that
 * one's offset and drops it. The caller is told its records were written when they were not: an
 * acknowledged lead lost (docs/chaos.md "A lead acknowledged while Kafka restarted, never written").
 *
 * So this session:
 * - sends one batch at a time (kafkajs retries a failed batch with the same records and numbers,
 *   which is what idempotence is for; no other batch may take the numbers meanwhile), and
 * - after a send fails, replaces the producer before the next send: a new producer id starts new
 *   numbers, so nothing sent later can be taken for the batch that may have been written.
 *
 * Sends that arrive while one is in flight wait and go out together in the next batch (per topic,
 * in arrival order), so serialising costs no throughput: one request per broker either way.
 */
import type { Message, Producer, ProducerBatch, RecordMetadata as KafkaRecordMetadata } from 'kafkajs';
import type { RecordMetadata } from '@leadstream/ports';

/** A coalesced batch stops growing at this many value bytes (a partition's batch must stay under the broker's 1 MB default). */
const MAX_BATCH_BYTES = 512 * 1024;

interface PendingSend {
  topic: string;
  messages: Message[];
  bytes: number;
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
}

export class ProducerSession {
  private producer: Producer | undefined;
  /** The last send failed: the producer's sequence numbers cannot be trusted. */
  private broken = false;
  private readonly queue: PendingSend[] = [];
  private draining: Promise<void> | undefined;
  /** How many producers this session has replaced after a failed send. */
  replaced = 0;

  constructor(
    private readonly createProducer: () => Producer,
    private readonly acks: ProducerBatch['acks'] = -1,
  ) {}

  async connect(): Promise<void> {
    const producer = this.createProducer();
    await producer.connect();
    this.producer = producer;
  }

  /** Sends `messages` (each with its partition set) and answers where each landed, in input order. */
  send(topic: string, messages: Message[]): Promise<RecordMetadata[]> {
    return new Promise<RecordMetadata[]>((resolve, reject) => {
      const bytes = messages.reduce((sum, m) => sum + byteLength(m.value), 0);
      this.queue.push({ topic, messages, bytes, resolve, reject });
      this.draining ??= this.drain().finally(() => (this.draining = undefined));
    });
  }

  /** Waits for the sends already asked for, then disconnects the producer. */
  async close(): Promise<void> {
    await this.draining;
    await this.producer?.disconnect();
    this.producer = undefined;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.take();
      try {
        const producer = await this.usableProducer();
        const answers = await producer.sendBatch({ topicMessages: topicMessagesOf(batch), acks: this.acks });
        settle(batch, answers);
      } catch (error) {
        this.broken = true;
        for (const pending of batch) pending.reject(error);
      }
    }
  }

  /** The pending sends that go out together: at least one, then as many as fit in MAX_BATCH_BYTES. */
  private take(): PendingSend[] {
    const batch = [this.queue.shift()!];
    let bytes = batch[0]!.bytes;
    while (this.queue.length > 0 && bytes + this.queue[0]!.bytes <= MAX_BATCH_BYTES) {
      const next = this.queue.shift()!;
      bytes += next.bytes;
      batch.push(next);
    }
    return batch;
  }

  private async usableProducer(): Promise<Producer> {
    if (this.producer && !this.broken) return this.producer;
    const previous = this.producer;
    this.producer = undefined;
    await previous?.disconnect().catch(() => undefined);
    const producer = this.createProducer();
    await producer.connect();
    this.producer = producer;
    this.broken = false;
    this.replaced++;
    return producer;
  }
}

function byteLength(value: Message['value']): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value) : value.length;
}

/** One entry per topic (kafkajs keeps only the last entry of a topic named twice), messages in arrival order. */
function topicMessagesOf(batch: PendingSend[]): ProducerBatch['topicMessages'] {
  const byTopic = new Map<string, Message[]>();
  for (const pending of batch) {
    const messages = byTopic.get(pending.topic) ?? [];
    messages.push(...pending.messages);
    byTopic.set(pending.topic, messages);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/**
 * The broker answers a base offset per topic and partition; the records of one partition in one
 * batch are consecutive, in the order they were given. A partition without an answer was not
 * written (kafkajs writes nothing to a partition its metadata does not know yet, e.g. one just
 * added): the sends with records there fail as retriable, the others succeed.
 */
function settle(batch: PendingSend[], answers: KafkaRecordMetadata[]): void {
  const next = new Map<string, bigint>();
  for (const answer of answers) {
    if (answer.baseOffset !== undefined) next.set(`${answer.topicName}/${answer.partition}`, BigInt(answer.baseOffset));
  }
  for (const pending of batch) {
    const metadata: RecordMetadata[] = [];
    let missing: number | undefined;
    for (const message of pending.messages) {
      const partition = message.partition!;
      const key = `${pending.topic}/${partition}`;
      const offset = next.get(key);
      if (offset === undefined) {
        missing = partition;
        continue;
      }
      next.set(key, offset + 1n);
      metadata.push({ topic: pending.topic, partition, offset: offset.toString() });
    }
    if (missing === undefined) pending.resolve(metadata);
    else
      pending.reject(
        Object.assign(
          new Error(
            `Kafka returned no offset for ${pending.topic}/${missing}: the producer does not know that partition yet`,
          ),
          { type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true },
        ),
      );
  }
}
