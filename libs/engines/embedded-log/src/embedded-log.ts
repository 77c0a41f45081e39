/**
 * The embedded engine of the event-log port: a durable log in one SQLite database under dataDir
 * (DESIGN.md section 3). Single-process by design; consumer groups coordinate in memory.
 *
 * Durability: WAL with synchronous=NORMAL by default. Every produce is one committed transaction
 * whose WAL frames are in the OS before produce() resolves, so an acknowledged record survives a
 * crash of the process; only a crash of the machine (power loss, kernel panic) can lose the last
 * commits. `synchronous: 'FULL'` fsyncs every commit and survives that too, at a large cost per
 * produce; choose it where a machine crash must not lose acknowledged records.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createPartitioner,
  type ConsumerOptions,
  type EventLog,
  type LogRecord,
  type ProduceRecord,
  type RecordMetadata,
  type TopicSpec,
} from '@leadstream/ports';
import { ConsumerGroup, tp } from './consumer-group';
import { lockDataDir } from './data-dir-lock';
import { type ConsumerHost, EmbeddedConsumer } from './embedded-consumer';
import { decodeHeaders, encodeHeaders, LogStore, type RecordRow } from './log-store';

/** The part of a pino logger this engine uses. */
export interface EmbeddedLogLogger {
  info(obj: object, msg?: string): void;
}

export interface EmbeddedLogOptions {
  dataDir: string;
  logger?: EmbeddedLogLogger;
  /** NORMAL (default) survives a process crash; FULL also a machine crash. */
  synchronous?: 'NORMAL' | 'FULL';
}

interface TopicInfo {
  partitions: number;
  delayMs: number | undefined;
}

export async function openEmbeddedLog(options: EmbeddedLogOptions): Promise<EventLog> {
  return EmbeddedLog.open(options);
}

export class EmbeddedLog implements EventLog, ConsumerHost {
  readonly engine = 'embedded' as const;
  private readonly topics = new Map<string, TopicInfo>();
  /** topic-partition -> offset the next record gets */
  private readonly ends = new Map<string, number>();
  private readonly groups = new Map<string, ConsumerGroup>();
  private readonly consumers = new Set<EmbeddedConsumer>();
  private readonly partitioner = createPartitioner();
  private memberCount = 0;
  private closed = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly store: LogStore,
    private readonly unlock: () => void,
  ) {
    for (const t of store.topics()) this.topics.set(t.topic, { partitions: t.partitions, delayMs: t.delayMs });
    for (const e of store.endOffsets()) this.ends.set(tp(e.topic, e.partition), e.end);
  }

  static open(options: EmbeddedLogOptions): EmbeddedLog {
    mkdirSync(options.dataDir, { recursive: true });
    // timeout 0: a locked dir must fail at once with a clear message, not wait.
    const db = new Database(join(options.dataDir, 'event-log.sqlite'), { timeout: 0 });
    try {
      const unlock = lockDataDir(db, options.dataDir);
      db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
      const log = new EmbeddedLog(db, new LogStore(db), unlock);
      options.logger?.info({ dataDir: options.dataDir, topics: log.topics.size }, 'embedded event log opened');
      return log;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    this.assertOpen();
    for (const spec of specs) {
      if (!Number.isInteger(spec.partitions) || spec.partitions < 1) {
        throw new RangeError(`topic ${spec.topic}: partition count must be a positive integer`);
      }
      if (this.topics.has(spec.topic)) continue; // like Kafka: an existing topic keeps its partitions
      this.store.createTopic(spec);
      this.topics.set(spec.topic, { partitions: spec.partitions, delayMs: spec.delayMs });
    }
  }

  async partitionCount(topic: string): Promise<number> {
    return this.topic(topic).partitions;
  }

  async produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
    this.assertOpen();
    const { partitions } = this.topic(topic);
    const now = Date.now();
    // Offsets are taken from a copy and published only after the transaction commits.
    const ends = new Map<number, number>();
    const rows: RecordRow[] = records.map((r) => {
      const partition = this.partitioner(topic, r.key, partitions);
      const offset = ends.get(partition) ?? this.endOffset(topic, partition);
      ends.set(partition, offset + 1);
      return {
        topic,
        partition,
        offset,
        key: r.key ?? null,
        value: r.value,
        headers: encodeHeaders(r.headers),
        timestamp: r.timestamp ?? now,
      };
    });
    this.store.append(rows);
    for (const [partition, end] of ends) this.ends.set(tp(topic, partition), end);
    for (const consumer of this.consumers) if (consumer.topics.includes(topic)) consumer.notifyProduced();
    return rows.map((r) => ({ topic, partition: r.partition, offset: String(r.offset) }));
  }

  consumer(options: ConsumerOptions): EmbeddedConsumer {
    this.assertOpen();
    return new EmbeddedConsumer(this, options);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.consumers].map((c) => c.stop()));
    this.closed = true;
    this.db.close();
    this.unlock();
  }

  // ConsumerHost: what the consumers of this log use.

  topic(name: string): TopicInfo {
    const info = this.topics.get(name);
    if (!info) throw new Error(`unknown topic ${name}: create it with ensureTopics first`);
    return info;
  }

  endOffset(topic: string, partition: number): number {
    return this.ends.get(tp(topic, partition)) ?? 0;
  }

  read(topic: string, partition: number, from: number, limit: number): LogRecord[] {
    return this.store.read(topic, partition, from, limit).map((r) => ({
      topic,
      partition,
      offset: String(r.log_offset),
      key: r.key,
      value: r.value,
      headers: decodeHeaders(r.headers),
      timestamp: r.timestamp,
    }));
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    return this.store.committed(groupId, topic, partition);
  }

  commit(groupId: string, topic: string, partition: number, nextOffset: number): void {
    this.store.commit(groupId, topic, partition, nextOffset);
  }

  group(groupId: string): ConsumerGroup {
    let group = this.groups.get(groupId);
    if (!group) {
      group = new ConsumerGroup(groupId, (topic) => this.topic(topic).partitions);
      this.groups.set(groupId, group);
    }
    return group;
  }

  dropGroupIfEmpty(group: ConsumerGroup): void {
    if (group.isEmpty() && this.groups.get(group.groupId) === group) this.groups.delete(group.groupId);
  }

  nextMemberId(): string {
    this.memberCount += 1;
    // Zero-padded so that sorting ids sorts members by join order.
    return `member-${String(this.memberCount).padStart(8, '0')}`;
  }

  attach(consumer: EmbeddedConsumer): void {
    this.consumers.add(consumer);
  }

  detach(consumer: EmbeddedConsumer): void {
    this.consumers.delete(consumer);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the embedded event log is closed');
  }
}
