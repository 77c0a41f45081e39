/**
 * A member of a consumer group on Kafka. kafkajs does the group protocol; this class turns its
 * eachBatch callback into the port's contract: the handler gets chunks of at most maxBatchSize
 * records of one partition, the offset after a chunk is committed as soon as the handler
 * resolves, and a handler throw stops the member with nothing of that chunk committed.
 */
import type { Admin, Consumer as KafkaJsConsumer, EachBatchPayload, IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import type {
  Assignment,
  BatchHandler,
  Consumer,
  ConsumerOptions,
  ConsumerState,
  Headers,
  LogRecord,
} from '@leadstream/ports';

const DEFAULT_MAX_BATCH = 500;
/** Longest sleep between heartbeats while a delay-topic record is not yet due. */
const DELAY_SLICE_MS = 1_000;
/** How long start() waits for the member to join its group. */
const JOIN_TIMEOUT_MS = 60_000;

export interface KafkaConsumerTuning {
  sessionTimeout: number;
  heartbeatInterval: number;
  rebalanceTimeout: number;
  maxWaitTimeInMs: number;
  partitionsConsumedConcurrently: number;
}

function headersOf(headers: IHeaders | undefined): Headers {
  const out: Headers = {};
  if (!headers) return out;
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    // Kafka allows repeated header names; the port keeps one value per name, the last.
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) out[name] = value.toString();
  }
  return out;
}

function toLogRecord(topic: string, partition: number, message: KafkaMessage): LogRecord {
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString() : null,
    value: message.value ? message.value.toString() : '',
    headers: headersOf(message.headers),
    timestamp: Number(message.timestamp),
  };
}

/**
 * Commits a partition's offsets in the background while the next chunk is handled, one request
 * at a time; offsets that queue up behind a request in flight collapse into the newest, which
 * covers them (a committed offset means "everything before it is done").
 */
class CoalescingCommitter {
  private pending: string | undefined;
  private running: Promise<void> | undefined;
  private failure: { error: unknown } | undefined;

  constructor(private readonly send: (offset: string) => Promise<void>) {}

  commit(offset: string): void {
    this.pending = offset;
    this.running ??= this.drain();
  }

  /** Resolves when every offset given is committed; throws the first commit error. */
  async flushed(): Promise<void> {
    await this.running;
    if (this.failure) throw this.failure.error;
  }

  /** Never rejects: a failure is kept for flushed(), so no rejection goes unhandled meanwhile. */
  private async drain(): Promise<void> {
    try {
      while (this.pending !== undefined) {
        const offset = this.pending;
        this.pending = undefined;
        await this.send(offset);
      }
    } catch (error) {
      this.failure ??= { error };
      this.pending = undefined;
    } finally {
      this.running = undefined;
    }
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class KafkaLogConsumer implements Consumer {
  readonly done: Promise<void>;
  private readonly client: KafkaJsConsumer;
  private readonly maxBatchSize: number;
  private readonly partitionsConsumedConcurrently: number;
  private readonly heartbeatEveryMs: number;
  private current: ConsumerState = 'idle';
  private owned: Assignment[] = [];
  private failure: { error: unknown } | undefined;
  private stopping: Promise<void> | undefined;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };

  constructor(
    kafka: Kafka,
    private readonly admin: Admin,
    private readonly options: ConsumerOptions,
    private readonly delayOf: (topic: string) => number | undefined,
    tuning: KafkaConsumerTuning,
    private readonly onFinished: (consumer: KafkaLogConsumer) => void,
  ) {
    this.maxBatchSize = Math.max(1, options.maxBatchSize ?? DEFAULT_MAX_BATCH);
    this.client = kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: tuning.sessionTimeout,
      heartbeatInterval: tuning.heartbeatInterval,
      rebalanceTimeout: tuning.rebalanceTimeout,
      maxWaitTimeInMs: tuning.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
      retry: { retries: 5, initialRetryTime: 100, maxRetryTime: 2_000 },
    });
    this.partitionsConsumedConcurrently = tuning.partitionsConsumedConcurrently;
    this.heartbeatEveryMs = tuning.heartbeatInterval;
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // A crash is reported through `done`; nobody awaiting it must not become an unhandled rejection.
    this.done.catch(() => undefined);
  }

  async start(handler: BatchHandler): Promise<void> {
    if (this.current !== 'idle') throw new Error(`consumer of group ${this.options.groupId} was already started`);
    this.current = 'running';
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`group ${this.options.groupId}: not joined after ${JOIN_TIMEOUT_MS} ms`)),
        JOIN_TIMEOUT_MS,
      );
      this.client.on(this.client.events.GROUP_JOIN, ({ payload }) => {
        this.owned = Object.entries(payload.memberAssignment).map(([topic, partitions]) => ({
          topic,
          partitions: [...partitions].sort((a, b) => a - b),
        }));
        clearTimeout(timer);
        resolve();
      });
    });
    this.client.on(this.client.events.REBALANCING, () => {
      this.owned = [];
    });
    // kafkajs restarts itself after retriable errors; anything else ends the member.
    this.client.on(this.client.events.CRASH, ({ payload }) => {
      if (!payload.restart) this.crash(payload.error);
    });
    try {
      await this.client.connect();
      await this.client.subscribe({ topics: this.options.topics, fromBeginning: this.options.fromBeginning ?? true });
      await this.client.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: this.partitionsConsumedConcurrently,
        eachBatch: (payload) => this.eachBatch(handler, payload),
      });
      await joined;
    } catch (error) {
      this.crash(error);
      throw error;
    }
  }

  async stop(): Promise<void> {
    if (this.current === 'idle') {
      this.current = 'stopped';
      this.settle.resolve();
      this.onFinished(this);
      return;
    }
    if (this.current === 'running') {
      this.current = 'stopping';
      // disconnect() lets the batch in flight finish (it commits itself), then leaves the group.
      this.stopping = this.client.disconnect().then(
        () => this.finish(),
        (error: unknown) => this.finish(error),
      );
    }
    if (this.current === 'crashed') {
      // The crash is reported by `done`; stop() only waits for the member to have left.
      await this.done.catch(() => undefined);
      return;
    }
    await this.stopping;
  }

  assignment(): Assignment[] {
    return this.current === 'running' || this.current === 'stopping'
      ? this.owned.map((a) => ({ topic: a.topic, partitions: [...a.partitions] }))
      : [];
  }

  state(): ConsumerState {
    return this.current;
  }

  /**
   * Right after topics are created or leaders move, a KRaft broker briefly answers offset requests
   * with retriable errors (NOT_LEADER_FOR_PARTITION, LEADER_NOT_AVAILABLE) that kafkajs's admin
   * passes on; lag is a read, so ask again a few times before giving up.
   */
  async lag(): Promise<Array<{ topic: string; partition: number; lag: number }>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.readLag();
      } catch (error) {
        const retriable = (error as { retriable?: boolean }).retriable === true;
        if (!retriable || attempt >= 10) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  private async readLag(): Promise<Array<{ topic: string; partition: number; lag: number }>> {
    const owned = this.assignment();
    if (owned.length === 0) return [];
    const committed = await this.admin.fetchOffsets({
      groupId: this.options.groupId,
      topics: owned.map((a) => a.topic),
    });
    const out: Array<{ topic: string; partition: number; lag: number }> = [];
    for (const { topic, partitions } of owned) {
      const ends = await this.admin.fetchTopicOffsets(topic);
      for (const partition of partitions) {
        const end = ends.find((e) => e.partition === partition);
        if (!end) continue;
        const done = committed.find((c) => c.topic === topic)?.partitions.find((p) => p.partition === partition);
        // -1: the group has committed nothing there yet, so everything from the log start is lag.
        const from = done && done.offset !== '-1' ? BigInt(done.offset) : BigInt(end.low);
        out.push({ topic, partition, lag: Number(BigInt(end.high) - from) });
      }
    }
    return out;
  }

  private async eachBatch(handler: BatchHandler, payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const { topic, partition } = batch;
    const delayMs = this.delayOf(topic) ?? 0;
    const records = batch.messages.map((m) => toLogRecord(topic, partition, m));
    const commits = new CoalescingCommitter((offset) => this.client.commitOffsets([{ topic, partition, offset }]));
    try {
      let next = 0;
      while (next < records.length) {
        // After a crash, a stop or a rebalance, take nothing more: unresolved records are fetched
        // again by whoever owns the partition, from the last commit.
        if (this.failure || !payload.isRunning() || payload.isStale()) return;
        const now = Date.now();
        let end = next;
        while (end < records.length && end - next < this.maxBatchSize && records[end]!.timestamp + delayMs <= now)
          end++;
        if (end === next) {
          // The head record of a delay topic is not due: sleep in slices, heartbeating, so the
          // member stays in the group and notices a stop or rebalance.
          await sleep(Math.min(DELAY_SLICE_MS, records[next]!.timestamp + delayMs - now));
          await payload.heartbeat();
          continue;
        }
        const chunk = records.slice(next, end);
        // A handler may take longer than the session timeout (a recalculation over many leads, a
        // slow store): heartbeat while it runs, so the broker does not evict the member and end
        // the process. A heartbeat refused during a rebalance is noticed at the next chunk.
        const beating = setInterval(() => void payload.heartbeat().catch(() => undefined), this.heartbeatEveryMs);
        try {
          await handler({ topic, partition, records: chunk });
        } catch (error) {
          this.crash(error);
          return;
        } finally {
          clearInterval(beating);
        }
        const last = chunk[chunk.length - 1]!.offset;
        payload.resolveOffset(last);
        if (this.options.commitOffsets !== false) commits.commit((BigInt(last) + 1n).toString());
        await payload.heartbeat();
        next = end;
      }
    } finally {
      // Every chunk whose handler resolved is committed before kafkajs may leave the group.
      await commits.flushed();
    }
  }

  /** Ends the member after a handler throw (or a fatal kafkajs error), committing nothing more. */
  private crash(error: unknown): void {
    if (this.failure || this.current === 'stopped' || this.current === 'crashed') return;
    this.failure = { error };
    this.current = 'crashed';
    // Disconnect outside eachBatch: kafkajs waits for the running batch before leaving.
    setImmediate(() => {
      this.client.disconnect().then(
        () => this.finish(),
        () => this.finish(),
      );
    });
  }

  private finish(disconnectError?: unknown): void {
    this.owned = [];
    if (this.failure) {
      this.settle.reject(this.failure.error);
    } else if (disconnectError !== undefined) {
      this.current = 'crashed';
      this.settle.reject(disconnectError);
    } else {
      this.current = 'stopped';
      this.settle.resolve();
    }
    this.onFinished(this);
  }
}
