/**
 * The event-log port: the subset of Apache Kafka's semantics the domain needs.
 *
 * - Topics have a fixed number of partitions; a keyed record lands on the partition Kafka's
 *   default (murmur2) partitioner picks, so both engines agree on placement.
 * - Order is kept within a partition. Delivery is at-least-once: a batch whose handler has not
 *   resolved is not committed, and is delivered again after a crash or a rebalance.
 * - Members of one consumer group split the partitions of its topics; a member leaving hands its
 *   partitions to the others. Different groups each receive every record.
 * - A delay topic (TopicSpec.delayMs) holds each record back until `timestamp + delayMs`.
 */

export type Headers = Record<string, string>;

export interface TopicSpec {
  topic: string;
  partitions: number;
  /** Records of a delay topic reach consumers no earlier than their timestamp plus this delay. */
  delayMs?: number;
}

export interface ProduceRecord {
  /** Records with the same key go to the same partition, in order. Null keys spread round-robin. */
  key?: string | null;
  value: string;
  headers?: Headers;
  /** Milliseconds since the epoch; defaults to the time of producing. */
  timestamp?: number;
}

export interface RecordMetadata {
  topic: string;
  partition: number;
  /** Kafka offsets are 64-bit, so they travel as decimal strings. */
  offset: string;
}

export interface LogRecord {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string;
  headers: Headers;
  timestamp: number;
}

export interface Batch {
  topic: string;
  partition: number;
  records: LogRecord[];
}

/**
 * Called with consecutive records of one partition. When it resolves, the engine commits the
 * offset after the last record. When it throws, nothing of the batch is committed and the
 * consumer stops (a crash): the records are delivered again to whoever owns the partition next.
 */
export type BatchHandler = (batch: Batch) => Promise<void>;

export interface ConsumerOptions {
  groupId: string;
  topics: string[];
  /** Where a group with no committed offset starts. Defaults to the earliest record. */
  fromBeginning?: boolean;
  /** Largest batch handed to the handler at once. */
  maxBatchSize?: number;
  /**
   * False for a member that never resumes (a group unique to one process that starts at the end,
   * such as the api's decision reader): its offsets are never committed, saving a write per
   * batch. Defaults to true.
   */
  commitOffsets?: boolean;
}

export type ConsumerState = 'idle' | 'running' | 'stopping' | 'stopped' | 'crashed';

export interface Assignment {
  topic: string;
  partitions: number[];
}

export interface Consumer {
  /** Joins the group and starts handing batches to the handler. Resolves once the member has joined. */
  start(handler: BatchHandler): Promise<void>;
  /** Stops taking batches, lets the batch in flight finish, commits, leaves the group. */
  stop(): Promise<void>;
  /** The partitions this member owns now. */
  assignment(): Assignment[];
  state(): ConsumerState;
  /** Resolves when the consumer has stopped; rejects with the handler's error after a crash. */
  readonly done: Promise<void>;
  /** Committed-offset lag of the partitions this member owns (records not yet committed), where the engine knows it. */
  lag(): Promise<Array<{ topic: string; partition: number; lag: number }>>;
}

export interface EventLog {
  readonly engine: 'kafka' | 'embedded';
  /** Creates missing topics with the given partition counts (and remembers delay settings). */
  ensureTopics(specs: TopicSpec[]): Promise<void>;
  partitionCount(topic: string): Promise<number>;
  produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]>;
  consumer(options: ConsumerOptions): Consumer;
  /** Throws when the engine cannot be reached. */
  ping(): Promise<void>;
  /** Stops every consumer made by this log (gracefully) and releases the engine. */
  close(): Promise<void>;
}
