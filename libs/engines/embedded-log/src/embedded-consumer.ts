/**
 * A member of a consumer group of the embedded log. One loop per member: find an owned partition
 * with records ready, claim it, hand the batch to the handler, commit, release; sleep on the wake
 * signal when there is nothing to do.
 */
import type {
  Assignment,
  Batch,
  BatchHandler,
  Consumer,
  ConsumerOptions,
  ConsumerState,
  LogRecord,
} from '@leadstream/ports';
import { type ConsumerGroup, tp } from './consumer-group';
import { WakeSignal } from './wake-signal';

/** What a consumer needs from the log that made it. */
export interface ConsumerHost {
  group(groupId: string): ConsumerGroup;
  /** Forgets a group with no members left (its offsets stay in the database). */
  dropGroupIfEmpty(group: ConsumerGroup): void;
  topic(name: string): { partitions: number; delayMs: number | undefined };
  endOffset(topic: string, partition: number): number;
  read(topic: string, partition: number, from: number, limit: number): LogRecord[];
  committed(groupId: string, topic: string, partition: number): number | undefined;
  commit(groupId: string, topic: string, partition: number, nextOffset: number): void;
  nextMemberId(): string;
  attach(consumer: EmbeddedConsumer): void;
  detach(consumer: EmbeddedConsumer): void;
}

/** Without a produce or rebalance to wake it, a member still looks around this often. */
const IDLE_RECHECK_MS = 1_000;
const DEFAULT_MAX_BATCH = 500;

export class EmbeddedConsumer implements Consumer {
  readonly done: Promise<void>;
  readonly topics: string[];
  private readonly signal = new WakeSignal();
  private readonly memberId: string;
  private readonly maxBatchSize: number;
  private current: ConsumerState = 'idle';
  private group: ConsumerGroup | undefined;
  private loop: Promise<void> | undefined;
  /** Where the round-robin over owned partitions resumes, for fairness between partitions. */
  private turn = 0;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };

  constructor(
    private readonly host: ConsumerHost,
    private readonly options: ConsumerOptions,
  ) {
    this.topics = [...options.topics];
    this.memberId = host.nextMemberId();
    this.maxBatchSize = Math.max(1, Math.floor(options.maxBatchSize ?? DEFAULT_MAX_BATCH));
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // A crash is reported through `done`; nobody awaiting it must not become an unhandled rejection.
    this.done.catch(() => undefined);
    // Known to the log from the start, so that closing the log also settles a consumer never started.
    host.attach(this);
  }

  async start(handler: BatchHandler): Promise<void> {
    if (this.current !== 'idle') throw new Error(`consumer of group ${this.options.groupId} was already started`);
    for (const topic of this.topics) this.host.topic(topic); // throws on an unknown topic
    this.current = 'running';
    this.group = this.host.group(this.options.groupId);
    this.group.join({ id: this.memberId, topics: this.topics, signal: this.signal });
    this.loop = this.run(handler);
  }

  async stop(): Promise<void> {
    if (this.current === 'idle') {
      this.current = 'stopped';
      this.settle.resolve();
      this.host.detach(this);
      return;
    }
    if (this.current === 'running') {
      this.current = 'stopping';
      this.signal.notify();
    }
    await this.loop;
  }

  assignment(): Assignment[] {
    return this.group && (this.current === 'running' || this.current === 'stopping')
      ? this.group.assignment(this.memberId)
      : [];
  }

  state(): ConsumerState {
    return this.current;
  }

  async lag(): Promise<Array<{ topic: string; partition: number; lag: number }>> {
    return this.assignment().flatMap(({ topic, partitions }) =>
      partitions.map((partition) => ({
        topic,
        partition,
        lag: Math.max(0, this.host.endOffset(topic, partition) - this.position(topic, partition)),
      })),
    );
  }

  /** Wakes the loop because records arrived on one of its topics. */
  notifyProduced(): void {
    this.signal.notify();
  }

  private async run(handler: BatchHandler): Promise<void> {
    try {
      while (this.current === 'running') {
        this.signal.clear();
        const next = this.nextBatch();
        if ('batch' in next) {
          await this.handle(handler, next.batch);
        } else {
          await this.signal.wait(Math.min(IDLE_RECHECK_MS, next.dueInMs));
        }
      }
      this.leave();
      this.current = 'stopped';
      this.settle.resolve();
    } catch (error) {
      this.leave();
      this.current = 'crashed';
      this.settle.reject(error);
    }
  }

  private async handle(handler: BatchHandler, batch: Batch): Promise<void> {
    const group = this.group!;
    try {
      await handler(batch);
      const nextOffset = Number(batch.records[batch.records.length - 1]!.offset) + 1;
      if (this.options.commitOffsets !== false)
        this.host.commit(group.groupId, batch.topic, batch.partition, nextOffset);
      group.positions.set(tp(batch.topic, batch.partition), nextOffset);
    } finally {
      // On a throw the claim goes back uncommitted: the next owner reads the batch again.
      group.release(this.memberId, batch.topic, batch.partition);
    }
  }

  /** A batch from the next owned partition with records ready, or how long until a delayed one is due. */
  private nextBatch(): { batch: Batch } | { dueInMs: number } {
    const group = this.group!;
    const owned = group.assignment(this.memberId).flatMap((a) => a.partitions.map((p) => [a.topic, p] as const));
    let dueInMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < owned.length; i++) {
      const [topic, partition] = owned[(this.turn + i) % owned.length]!;
      const from = this.position(topic, partition);
      if (from >= this.host.endOffset(topic, partition)) continue;
      if (!group.claim(this.memberId, topic, partition)) continue;
      // Read the position again: the member that held the claim may have committed meanwhile.
      const records = this.ready(
        topic,
        this.host.read(topic, partition, this.position(topic, partition), this.maxBatchSize),
      );
      if (records.ready.length === 0) {
        group.release(this.memberId, topic, partition);
        dueInMs = Math.min(dueInMs, records.dueInMs);
        continue;
      }
      this.turn = (this.turn + i + 1) % owned.length;
      return { batch: { topic, partition, records: records.ready } };
    }
    return { dueInMs };
  }

  /** For a delay topic, the records up to the first one not yet due (order is kept). */
  private ready(topic: string, records: LogRecord[]): { ready: LogRecord[]; dueInMs: number } {
    const { delayMs } = this.host.topic(topic);
    if (!delayMs) return { ready: records, dueInMs: Number.POSITIVE_INFINITY };
    const now = Date.now();
    const firstNotDue = records.findIndex((r) => r.timestamp + delayMs > now);
    if (firstNotDue === -1) return { ready: records, dueInMs: Number.POSITIVE_INFINITY };
    return { ready: records.slice(0, firstNotDue), dueInMs: records[firstNotDue]!.timestamp + delayMs - now };
  }

  /** The next offset this group reads from a partition: its committed offset, else where a new group starts. */
  private position(topic: string, partition: number): number {
    const group = this.group!;
    const key = tp(topic, partition);
    let position = group.positions.get(key);
    if (position === undefined) {
      position =
        this.host.committed(group.groupId, topic, partition) ??
        (this.options.fromBeginning === false ? this.host.endOffset(topic, partition) : 0);
      group.positions.set(key, position);
    }
    return position;
  }

  private leave(): void {
    this.host.detach(this);
    if (!this.group) return;
    this.group.leave(this.memberId);
    this.host.dropGroupIfEmpty(this.group);
  }
}
