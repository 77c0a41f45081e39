/**
 * The embedded engine of the event-log port: a durable log in one SQLite database under dataDir
 * (README.md "Engines and configuration"). Single-process by design; consumer groups coordinate in memory.
 *
 * Durability: WAL with synchronous=NORMAL by default. Every produce is one committed transaction
 * whose WAL frames are in the OS before produce() resolves, so an acknowledged record survives a
 * crash of the process; only a crash of the machine (power loss, kernel panic) can lose the last
 * commits. `synchronous: 'FULL'` fsyncs every commit and survives that too, at a large cost per
 * produce; choose it where a machine crash must not lose acknowledged records.
 *
 * The directory is private to the user running the process (0700) and its files too (0600): the
 * database file is created 0600 before SQLite opens it, since SQLite gives its -wal the database
 * file's mode, and files an earlier version left readable are tightened.
 */
import Database from 'better-sqlite3';
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
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
import { decodeHeaders, encodeHeaders, LogStore, OWN_TABLES, SHARED_TABLES, type RecordRow } from './log-store';
import { type LogRetentionOptions, pruneLog, type PruneReport } from './log-retention';

/** The part of a pino logger this engine uses. */
export interface EmbeddedLogLogger {
  info(obj: object, msg?: string): void;
  warn?(obj: object, msg?: string): void;
}

/**
 * A connection the log shares with the embedded document store (EmbeddedStore fits), so that
 * documents, records and consumer offsets can commit in one transaction.
 */
export interface SharedConnection {
  readonly db: Database.Database;
  /** Runs `work` in one write transaction (a savepoint inside an open one). */
  transaction<R>(work: () => R): R;
}

export interface EmbeddedLogOptions {
  dataDir: string;
  logger?: EmbeddedLogLogger;
  /** NORMAL (default) survives a process crash; FULL also a machine crash. */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Keep the log's tables in this connection's database instead of `dataDir/event-log.sqlite`
   * (which then only holds the data-dir lock). A log kept in its own file before is moved in once.
   */
  shared?: SharedConnection;
  /**
   * Whether records of a topic are handed to this process's consumers before they are written
   * (EmbeddedLog.produce): `leadstream start` says so of leads.submitted, so that a submission is
   * written by the transaction of the chain batch that decides it instead of one of its own.
   */
  handOff?: (topic: string) => boolean;
}

/**
 * Appends and offset commits that ride on a transaction the caller has open on the shared
 * connection. Call `published()` once that transaction has committed: only then do consumers
 * see the records. A transaction that rolls back is simply forgotten.
 */
export interface LogTransaction {
  produce(topic: string, records: ProduceRecord[]): RecordMetadata[];
  commitOffset(groupId: string, topic: string, partition: number, nextOffset: number): void;
  published(): void;
}

/**
 * How long the offset of a batch that wrote nothing (EmbeddedLog.commitDeferred) may wait for the
 * next transaction on the connection before it is written in one of its own.
 */
export const DEFERRED_COMMIT_MS = 200;

interface OffsetCommit {
  groupId: string;
  topic: string;
  partition: number;
  nextOffset: number;
}

/**
 * How long records handed off to a consumer (EmbeddedLogOptions.handOff) may wait for a
 * transaction on the connection to write them before they are written in one of their own.
 */
export const HAND_OFF_MS = 50;

/** After a failed write of handed-off records, how long until the next try (their produce calls have failed). */
export const HAND_OFF_RETRY_MS = 1_000;

/**
 * A produce call whose records are handed off: offsets taken, not written yet. `settled` once its
 * call has answered: failed because the write meant to carry the records failed (they stay the
 * partition's tail and are written first by the next transaction that succeeds).
 */
interface HandOff {
  rows: RecordRow[];
  resolve: (metadata: RecordMetadata[]) => void;
  reject: (error: unknown) => void;
  settled: boolean;
}

/** A group's offset of one partition, as the maps of offsets key it. */
const offsetKey = (groupId: string, topic: string, partition: number): string =>
  `${groupId}\u0000${tp(topic, partition)}`;

interface TopicInfo {
  partitions: number;
  delayMs: number | undefined;
}

export async function openEmbeddedLog(options: EmbeddedLogOptions): Promise<EventLog> {
  return EmbeddedLog.open(options);
}

/** Sets `mode` on a file or directory this user owns that is open to others; leaves a missing one alone. */
function tighten(path: string, mode: number): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  // Someone else's file or directory is theirs to set (and chmod would fail).
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) chmodSync(path, mode);
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

  /** Offsets committed by this process, to skip writing the same one again. */
  private readonly committedHere = new Map<string, number>();
  /** Offsets of batches that wrote nothing, not written yet (commitDeferred), by group and partition. */
  private readonly deferred = new Map<string, OffsetCommit>();
  private deferredTimer: NodeJS.Timeout | undefined;
  /** Produce calls handed off, in offset order (their records are the tail of each partition). */
  private readonly handOffs: HandOff[] = [];
  /** The same records by topic-partition, as consumers read them. */
  private readonly handedOff = new Map<string, LogRecord[]>();
  private handOffTimer: NodeJS.Timeout | undefined;
  /**
   * The last write of handed-off records failed (a full disk): until a write succeeds, records are
   * written by their own produce call, which so fails at once instead of waiting for a carrier.
   */
  private writeFailing = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly store: LogStore,
    private readonly unlock: () => void,
    private readonly write: <R>(work: () => R) => R,
    private readonly lockDb: Database.Database | undefined,
    private readonly logger: EmbeddedLogLogger | undefined,
    private readonly handsOff: (topic: string) => boolean = () => false,
  ) {
    for (const t of store.topics()) this.topics.set(t.topic, { partitions: t.partitions, delayMs: t.delayMs });
    for (const e of store.endOffsets()) this.ends.set(tp(e.topic, e.partition), e.end);
  }

  static open(options: EmbeddedLogOptions): EmbeddedLog {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    tighten(options.dataDir, 0o700);
    const file = join(options.dataDir, 'event-log.sqlite');
    closeSync(openSync(file, 'a', 0o600));
    for (const path of [file, `${file}-wal`, `${file}-shm`, join(options.dataDir, 'LOCK')]) tighten(path, 0o600);
    // timeout 0: a locked dir must fail at once with a clear message, not wait.
    const own = new Database(file, { timeout: 0 });
    try {
      const unlock = lockDataDir(own, options.dataDir);
      own.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
      const ownStore = new LogStore(own, OWN_TABLES);
      let log: EmbeddedLog;
      if (options.shared) {
        const shared = options.shared;
        const store = new LogStore(shared.db, SHARED_TABLES);
        if (store.isEmpty() && !ownStore.isEmpty()) moveLog(ownStore, store, shared, own, options.logger);
        log = new EmbeddedLog(
          shared.db,
          store,
          unlock,
          (work) => shared.transaction(work),
          own,
          options.logger,
          options.handOff,
        );
      } else {
        log = new EmbeddedLog(
          own,
          ownStore,
          unlock,
          (work) => own.transaction(work).immediate(),
          undefined,
          options.logger,
          options.handOff,
        );
      }
      options.logger?.info(
        { dataDir: options.dataDir, topics: log.topics.size, shared: options.shared !== undefined },
        'embedded event log opened',
      );
      return log;
    } catch (error) {
      own.close();
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
      this.write(() => this.store.createTopic(spec));
      this.topics.set(spec.topic, { partitions: spec.partitions, delayMs: spec.delayMs });
    }
  }

  async partitionCount(topic: string): Promise<number> {
    return this.topic(topic).partitions;
  }

  /**
   * Appends records in a transaction of their own; resolves once they are committed. Records of a
   * hand-off topic (EmbeddedLogOptions.handOff) that a running consumer of this process
   * reads are handed off instead: they take their offsets and go to the topic's consumers at once,
   * and are written by the next transaction on the connection (usually the batch of the consumer
   * that decides them, with its outputs and offset), or on their own after HAND_OFF_MS, or at
   * close. The call still resolves only once they are written: a crash before loses only records
   * nobody was told are stored.
   */
  async produce(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
    this.assertOpen();
    if (records.length > 0 && !this.writeFailing && this.handsOff(topic) && this.isConsumed(topic))
      return this.handOff(topic, records);
    const transaction = this.beginTransaction();
    const metadata = this.write(() => transaction.produce(topic, records));
    transaction.published();
    return metadata;
  }

  /** Whether a running consumer of this process reads `topic`. */
  private isConsumed(topic: string): boolean {
    for (const consumer of this.consumers)
      if (consumer.state() === 'running' && consumer.topics.includes(topic)) return true;
    return false;
  }

  private handOff(topic: string, records: ProduceRecord[]): Promise<RecordMetadata[]> {
    // What could make the append fail is refused here, before any record takes an offset, rather
    // than in the transaction that writes them (another batch's).
    for (const r of records)
      if (typeof r.value !== 'string') throw new TypeError(`record value for ${topic} must be a string`);
    const rows = this.rowsOf(topic, records, this.ends);
    for (const row of rows) {
      const key = tp(topic, row.partition);
      const tail = this.handedOff.get(key);
      if (tail) tail.push(toLogRecord(row));
      else this.handedOff.set(key, [toLogRecord(row)]);
    }
    const written = new Promise<RecordMetadata[]>((resolve, reject) =>
      this.handOffs.push({ rows, resolve, reject, settled: false }),
    );
    this.armHandOffTimer();
    for (const consumer of this.consumers) if (consumer.topics.includes(topic)) consumer.notifyProduced();
    return written;
  }

  private armHandOffTimer(ms = HAND_OFF_MS): void {
    if (this.handOffTimer === undefined) this.handOffTimer = this.flushAfter(ms, () => (this.handOffTimer = undefined));
  }

  /** A timer that writes what waits for a transaction (flushPending); after a failure it tries again. */
  private flushAfter(ms: number, fired: () => void): NodeJS.Timeout {
    return setTimeout(() => {
      fired();
      try {
        this.flushPending();
      } catch (error) {
        // The store is busy or failing: what waits stays waiting and is tried again while it is open.
        this.logger?.warn?.(
          { err: error, records: this.handOffs.length, offsets: this.deferred.size },
          'handed-off records or deferred consumer offsets not written yet',
        );
        this.failHandOffs(error);
        this.retryPendingLater();
      }
    }, ms);
  }

  /**
   * The write meant to carry the handed-off records failed: their produce calls fail with its
   * error now (a full disk is refused at once, not answered late), and later calls write their
   * own records until a write succeeds. The records stay handed off: a consumer may hold them
   * already, so their offsets are never given to others; the next transaction that succeeds
   * writes them first.
   */
  private failHandOffs(error: unknown): void {
    if (this.handOffs.length === 0) return;
    this.writeFailing = true;
    for (const handOff of this.handOffs) {
      if (handOff.settled) continue;
      handOff.settled = true;
      handOff.reject(error);
    }
  }

  /** After a failed write of what waits for a transaction: each kind tries again on its own timer. */
  private retryPendingLater(): void {
    if (!this.db.open) return;
    if (this.handOffs.length > 0) this.armHandOffTimer(HAND_OFF_RETRY_MS);
    if (this.deferred.size > 0) this.armDeferredTimer();
  }

  /**
   * Appends and offset commits for a transaction the caller holds open on the shared connection
   * (see LogTransaction). Offsets are taken from a copy and published only after the commit.
   */
  beginTransaction(): LogTransaction {
    return this.openTransaction().transaction;
  }

  /**
   * A LogTransaction, and how it takes what waits for a transaction (which its first write does
   * anyway): the handed-off records and the deferred offsets.
   */
  private openTransaction(): { transaction: LogTransaction; takePending: () => void } {
    this.assertOpen();
    const ends = new Map<string, number>();
    const commits = new Map<string, OffsetCommit>();
    const touched = new Set<string>();
    // Handed-off records and deferred offsets ride on the transaction's first write: the records
    // before any of its own (they hold the earlier offsets), the offsets before its own commits
    // (which are later positions of their groups, so they win where both name one).
    let pendingTaken = false;
    let handOffsTaken = 0;
    const takePending = (): void => {
      if (pendingTaken) return;
      pendingTaken = true;
      handOffsTaken = this.handOffs.length;
      for (const handOff of this.handOffs) this.store.append(handOff.rows);
      for (const [key, commit] of this.deferred) {
        // Passed meanwhile by a commit of the group's own: stale, and never written over it.
        if ((this.committedHere.get(key) ?? -1) >= commit.nextOffset) continue;
        this.store.commit(commit.groupId, commit.topic, commit.partition, commit.nextOffset);
        commits.set(key, commit);
      }
    };
    const transaction: LogTransaction = {
      produce: (topic, records) => {
        takePending();
        const rows = this.rowsOf(topic, records, ends);
        this.store.append(rows);
        touched.add(topic);
        return metadataOf(rows);
      },
      commitOffset: (groupId, topic, partition, nextOffset) => {
        takePending();
        this.store.commit(groupId, topic, partition, nextOffset);
        commits.set(offsetKey(groupId, topic, partition), { groupId, topic, partition, nextOffset });
      },
      published: () => {
        // Only a transaction that wrote something shows that writes succeed again (one that wrote
        // nothing commits even on a full disk).
        if (pendingTaken) this.writeFailing = false;
        for (const [key, end] of ends) this.ends.set(key, end);
        for (const [key, commit] of commits) {
          this.committedHere.set(key, commit.nextOffset);
          this.groups.get(commit.groupId)?.positions.set(tp(commit.topic, commit.partition), commit.nextOffset);
          const deferred = this.deferred.get(key);
          if (deferred !== undefined && deferred.nextOffset <= commit.nextOffset) this.deferred.delete(key);
        }
        for (const consumer of this.consumers)
          if (consumer.topics.some((topic) => touched.has(topic))) consumer.notifyProduced();
        this.publishHandOffs(handOffsTaken);
      },
    };
    return { transaction, takePending };
  }

  /** The first `count` hand-offs are written: they leave the tails, and their produce calls resolve. */
  private publishHandOffs(count: number): void {
    if (count === 0) return;
    const written = this.handOffs.splice(0, count);
    const leaving = new Map<string, number>();
    for (const { rows } of written)
      for (const row of rows) {
        const key = tp(row.topic, row.partition);
        leaving.set(key, (leaving.get(key) ?? 0) + 1);
      }
    for (const [key, n] of leaving) {
      const tail = this.handedOff.get(key)!;
      if (tail.length === n) this.handedOff.delete(key);
      else tail.splice(0, n);
    }
    if (this.handOffs.length === 0) {
      clearTimeout(this.handOffTimer);
      this.handOffTimer = undefined;
    }
    for (const { rows, resolve, settled } of written) if (!settled) resolve(metadataOf(rows));
  }

  /**
   * Rows for `records`, each given the next offset of its partition in `ends` (where `ends` has
   * none yet, the log's end), which it advances.
   */
  private rowsOf(topic: string, records: ProduceRecord[], ends: Map<string, number>): RecordRow[] {
    const { partitions } = this.topic(topic);
    const now = Date.now();
    return records.map((r) => {
      const partition = this.partitioner(topic, r.key, partitions);
      const key = tp(topic, partition);
      const offset = ends.get(key) ?? this.endOffset(topic, partition);
      ends.set(key, offset + 1);
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
  }

  consumer(options: ConsumerOptions): EmbeddedConsumer {
    this.assertOpen();
    return new EmbeddedConsumer(this, options);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.db.prepare('SELECT 1').get();
  }

  /**
   * Deletes the records every consumer group has committed past that are older than the
   * retention period, in chunks (log-retention.ts). Run it on the process that owns the log.
   */
  prune(options: LogRetentionOptions): Promise<PruneReport> {
    return pruneLog(
      {
        db: this.db,
        tables: this.store.tables,
        write: (work) => this.write(work),
        topics: () => [...this.topics].map(([topic, info]) => ({ topic, partitions: info.partitions })),
        // The newest record written is kept; handed-off ones are not written yet.
        endOffset: (topic, partition) => this.writtenEnd(topic, partition),
        liveGroups: () =>
          [...this.groups.values()].map((group) => ({
            groupId: group.groupId,
            topics: group.subscribedTopics(),
            positions: group.positions,
          })),
        assertOpen: () => this.assertOpen(),
      },
      options,
    );
  }

  /** Whether the log's tables live in the document store's database (one transaction for both). */
  get sharesConnection(): boolean {
    return this.lockDb !== undefined;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.consumers].map((c) => c.stop()));
    try {
      this.flushPending();
    } catch (error) {
      // Handed-off records were never acknowledged (their produce fails now); deferred offsets are
      // those of batches that wrote nothing: their records are handed to the groups again.
      this.logger?.warn?.(
        { err: error, offsets: this.deferred.size, records: this.handOffs.length },
        'handed-off records or deferred consumer offsets not written at close',
      );
    }
    this.closed = true;
    clearTimeout(this.handOffTimer);
    for (const { reject, settled } of this.handOffs.splice(0))
      if (!settled) reject(new Error('the embedded event log closed before writing'));
    this.handedOff.clear();
    if (this.lockDb) {
      // The shared connection belongs to the store, which closes it.
      this.lockDb.close();
    } else {
      this.db.close();
    }
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

  /** The offset after the last record of a partition that is written (handed-off records are not yet). */
  private writtenEnd(topic: string, partition: number): number {
    const tail = this.handedOff.get(tp(topic, partition));
    return tail ? Number(tail[0]!.offset) : this.endOffset(topic, partition);
  }

  read(topic: string, partition: number, from: number, limit: number): LogRecord[] {
    // Handed-off records are the partition's tail: everything before the first of them is written.
    const tail = this.handedOff.get(tp(topic, partition));
    const firstHandedOff = tail ? Number(tail[0]!.offset) : Number.POSITIVE_INFINITY;
    const records: LogRecord[] =
      from < firstHandedOff
        ? this.store.read(topic, partition, from, limit).map((r) => ({
            topic,
            partition,
            offset: String(r.log_offset),
            key: r.key,
            value: r.value,
            headers: decodeHeaders(r.headers),
            timestamp: r.timestamp,
          }))
        : [];
    if (tail && records.length < limit) {
      const start = Math.max(0, from + records.length - firstHandedOff);
      for (const record of tail.slice(start, start + limit - records.length))
        records.push({ ...record, headers: { ...record.headers } });
    }
    return records;
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    const deferred = this.deferred.get(offsetKey(groupId, topic, partition));
    return deferred?.nextOffset ?? this.store.committed(groupId, topic, partition);
  }

  commit(groupId: string, topic: string, partition: number, nextOffset: number): void {
    // A stage that committed its offset inside its batch transaction (or deferred it) needs no second commit.
    const key = offsetKey(groupId, topic, partition);
    if (this.committedHere.get(key) === nextOffset || this.deferred.get(key)?.nextOffset === nextOffset) return;
    // Through a LogTransaction: an offset past handed-off records is written with them.
    const { transaction } = this.openTransaction();
    this.write(() => transaction.commitOffset(groupId, topic, partition, nextOffset));
    transaction.published();
  }

  /**
   * Commits the offset of a batch that wrote nothing (every record of it was a no-op for its
   * group) without a transaction of its own: the offset is written with the next transaction on
   * this connection, or on its own after DEFERRED_COMMIT_MS, or when the log closes. In the
   * meantime the group reads on from it in memory. A crash before it is written hands those
   * records to the group again, which again writes nothing for them (docs/pipeline.md).
   */
  commitDeferred(groupId: string, topic: string, partition: number, nextOffset: number): void {
    this.assertOpen();
    const key = offsetKey(groupId, topic, partition);
    if (this.committedHere.get(key) === nextOffset) return;
    this.deferred.set(key, { groupId, topic, partition, nextOffset });
    this.groups.get(groupId)?.positions.set(tp(topic, partition), nextOffset);
    this.armDeferredTimer();
  }

  private armDeferredTimer(): void {
    if (this.deferredTimer !== undefined) return;
    this.deferredTimer = this.flushAfter(DEFERRED_COMMIT_MS, () => (this.deferredTimer = undefined));
    this.deferredTimer.unref(); // close() writes what is left
  }

  /** Writes the handed-off records and the deferred offsets in one transaction of their own. */
  private flushPending(): void {
    clearTimeout(this.deferredTimer);
    this.deferredTimer = undefined;
    if ((this.deferred.size === 0 && this.handOffs.length === 0) || this.closed) return;
    const { transaction, takePending } = this.openTransaction();
    this.write(takePending);
    transaction.published();
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

function metadataOf(rows: RecordRow[]): RecordMetadata[] {
  return rows.map((r) => ({ topic: r.topic, partition: r.partition, offset: String(r.offset) }));
}

function toLogRecord(row: RecordRow): LogRecord {
  return {
    topic: row.topic,
    partition: row.partition,
    offset: String(row.offset),
    key: row.key,
    value: row.value,
    headers: decodeHeaders(row.headers),
    timestamp: row.timestamp,
  };
}

/** Moves a log kept in its own file (before logs shared the store's database) into the shared one, once. */
function moveLog(
  from: LogStore,
  to: LogStore,
  shared: SharedConnection,
  own: Database.Database,
  logger: EmbeddedLogLogger | undefined,
): void {
  let moved = 0;
  shared.transaction(() => {
    for (const topic of from.topics()) to.createTopic(topic);
    let rows: RecordRow[] = [];
    for (const row of from.allRecords()) {
      rows.push(row);
      if (rows.length >= 1_000) {
        to.append(rows);
        moved += rows.length;
        rows = [];
      }
    }
    to.append(rows);
    moved += rows.length;
    for (const c of from.allCommitted()) to.commit(c.groupId, c.topic, c.partition, c.nextOffset);
  });
  own.transaction(() => from.dropAll())();
  logger?.info({ records: moved }, 'embedded event log moved into the document store database');
}
