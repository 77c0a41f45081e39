/**
 * The one producer of a Kafka event log, and the rules that keep its acknowledgements true.
 *
 * Not kafkajs's idempotent producer: it numbers each partition's batches and, when a send fails,
 * gives the batch's numbers back even when the broker may already have written the batch (the
 * answer was lost with the connection, or timed out). The next batch sent to that partition then
 * carries the same numbers; the broker takes it for a repeat of the written one, answers with
 * that one's offset and drops it. The caller is told its records were written when they were not:
 * an acknowledged lead lost (docs/chaos.md "A lead acknowledged while Kafka restarted, never
 * written"). Its retries of a batch spread over several brokers can do the same.
 *
 * So the producer here is a plain one that does not retry, and this session:
 * - sends one batch at a time, so records reach each partition in the order they were sent;
 * - retries a failed batch itself, with a new producer (a failed one may hold broken
 *   connections). A batch written by an attempt whose answer was lost is written again: the log
 *   promises at least once, and every consumer takes a repeat as what it is.
 *
 * Sends that arrive while one is in flight wait and go out together in the next batch (per topic,
 * in arrival order), so serialising costs no throughput: one request per broker either way.
 */
import type { Message, Producer, ProducerBatch, RecordMetadata as KafkaRecordMetadata } from 'kafkajs';
import type { RecordMetadata } from '@leadstream/ports';

/** A coalesced batch stops growing at this many value bytes (a partition's batch must stay under the broker's 1 MB default). */
const MAX_BATCH_BYTES = 512 * 1024;

/** How a failed batch is tried again: attempts after the first, and the waits between them (doubling). */
export interface SendRetry {
  retries: number;
  initialRetryTime: number;
  maxRetryTime: number;
}
const DEFAULT_RETRY: SendRetry = { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 };

interface PendingSend {
  topic: string;
  messages: Message[];
  bytes: number;
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
}

export class ProducerSession {
  private producer: Producer | undefined;
  /** The last send failed: the next attempt takes a new producer. */
  private broken = false;
  private readonly queue: PendingSend[] = [];
  private draining: Promise<void> | undefined;
  private closed = false;
  /** How many producers this session has replaced after a failed send. */
  replaced = 0;

  /** `createProducer` makes a producer that does not retry on its own (`retry: {retries: 0}`, not idempotent). */
  constructor(
    private readonly createProducer: () => Producer,
    private readonly retry: SendRetry = DEFAULT_RETRY,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async connect(): Promise<void> {
    this.producer = await connected(this.createProducer());
  }

  /** Sends `messages` (each with its partition set) and answers where each landed, in input order. */
  send(topic: string, messages: Message[]): Promise<RecordMetadata[]> {
    if (this.closed) return Promise.reject(new Error('the Kafka event log is closed'));
    return new Promise<RecordMetadata[]>((resolve, reject) => {
      const bytes = messages.reduce((sum, m) => sum + byteLength(m.value), 0);
      this.queue.push({ topic, messages, bytes, resolve, reject });
      if (this.draining === undefined) this.draining = this.drain();
    });
  }

  /** Waits for the sends already asked for, then disconnects the producer. */
  async close(): Promise<void> {
    this.closed = true;
    await this.draining;
    await this.producer?.disconnect();
    this.producer = undefined;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.take();
        try {
          settle(batch, await this.sendWithRetries(topicMessagesOf(batch)));
        } catch (error) {
          // The broker refused something of the batch for good (a record too large, invalid): it may
          // be one send's records, so each send goes again alone and only the refused ones fail. A
          // send the broker wrote before refusing another's is written again (at least once).
          if (batch.length > 1 && !isRetriable(error)) await this.sendEachAlone(batch);
          else for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      // Cleared in the same step as the last look at the queue: a send made from now on starts a new drain.
      this.draining = undefined;
    }
  }

  private async sendEachAlone(batch: PendingSend[]): Promise<void> {
    for (const pending of batch) {
      try {
        settle([pending], await this.sendWithRetries(topicMessagesOf([pending])));
      } catch (error) {
        pending.reject(error);
      }
    }
  }

  /** One batch, tried again with a new producer after each retriable failure. */
  private async sendWithRetries(topicMessages: ProducerBatch['topicMessages']): Promise<KafkaRecordMetadata[]> {
    for (let attempt = 0; ; attempt++) {
      // A producer that cannot connect has retried on its own already (the client's retry): the batch fails.
      const producer = await this.usableProducer();
      try {
        return await producer.sendBatch({ topicMessages, acks: -1 });
      } catch (error) {
        this.broken = true;
        if (!isRetriable(error) || attempt >= this.retry.retries || this.closed) throw error;
        await this.sleep(Math.min(this.retry.maxRetryTime, this.retry.initialRetryTime * 2 ** attempt));
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
    this.producer = await connected(this.createProducer());
    this.broken = false;
    this.replaced++;
    return this.producer;
  }
}

/** kafkajs says so of an error it would have retried had it been allowed to. */
function isRetriable(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'KafkaJSNumberOfRetriesExceeded';
}

/** The producer once connected; one that failed to connect is disconnected (it may hold the cluster's connections). */
async function connected(producer: Producer): Promise<Producer> {
  try {
    await producer.connect();
    return producer;
  } catch (error) {
    await producer.disconnect().catch(() => undefined);
    throw error;
  }
}

function byteLength(value: Message['value']): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? Buffer.byteLength(value) : value.length;
}

/** One entry per topic, messages in arrival order (so each partition's records are in the order they were sent). */
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
