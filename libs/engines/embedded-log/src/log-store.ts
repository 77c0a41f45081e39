/**
 * The SQLite tables of the embedded log and the prepared statements over them. Everything here is
 * synchronous (better-sqlite3); the engine around it decides when to call what.
 */
import type Database from 'better-sqlite3';
import type { Headers, TopicSpec } from '@leadstream/ports';

/** Table names: plain in the log's own database, prefixed when the log lives in the store's database. */
export interface LogTables {
  topics: string;
  records: string;
  committed: string;
}

export const OWN_TABLES: LogTables = { topics: 'topics', records: 'records', committed: 'committed_offsets' };
/** In the document store's database (whose reserved prefix is `_leadstream`). */
export const SHARED_TABLES: LogTables = {
  topics: '_leadstream_log_topics',
  records: '_leadstream_log_records',
  committed: '_leadstream_log_committed_offsets',
};

const schema = (t: LogTables): string => `
  CREATE TABLE IF NOT EXISTS ${t.topics} (
    name TEXT PRIMARY KEY,
    partitions INTEGER NOT NULL,
    delay_ms INTEGER
  );
  -- One row per record; the key is its position in the log. WITHOUT ROWID keeps each row inside
  -- the primary-key b-tree, so a batch read is one range scan.
  CREATE TABLE IF NOT EXISTS ${t.records} (
    topic TEXT NOT NULL,
    partition_id INTEGER NOT NULL,
    log_offset INTEGER NOT NULL,
    key TEXT,
    value TEXT NOT NULL,
    headers TEXT,
    timestamp INTEGER NOT NULL,
    PRIMARY KEY (topic, partition_id, log_offset)
  ) WITHOUT ROWID;
  -- next_offset is Kafka's committed offset: the offset of the next record the group will read.
  CREATE TABLE IF NOT EXISTS ${t.committed} (
    group_id TEXT NOT NULL,
    topic TEXT NOT NULL,
    partition_id INTEGER NOT NULL,
    next_offset INTEGER NOT NULL,
    PRIMARY KEY (group_id, topic, partition_id)
  ) WITHOUT ROWID;
`;

export interface StoredTopic {
  topic: string;
  partitions: number;
  delayMs: number | undefined;
}

export interface RecordRow {
  topic: string;
  partition: number;
  offset: number;
  key: string | null;
  value: string;
  /** JSON, or null for no headers (the common case, which then costs no parsing). */
  headers: string | null;
  timestamp: number;
}

interface RecordSelectRow {
  log_offset: number;
  key: string | null;
  value: string;
  headers: string | null;
  timestamp: number;
}

export function encodeHeaders(headers: Headers | undefined): string | null {
  if (!headers) return null;
  for (const _ in headers) return JSON.stringify(headers);
  return null;
}

export function decodeHeaders(json: string | null): Headers {
  return json === null ? {} : (JSON.parse(json) as Headers);
}

export class LogStore {
  private readonly insertRecord: Database.Statement;
  private readonly selectRecords = new Map<number, Database.Statement>();
  private readonly upsertCommitted: Database.Statement;
  private readonly selectCommitted: Database.Statement;
  private readonly insertTopicStatement: Database.Statement;
  private readonly appendAll: (rows: RecordRow[]) => void;

  constructor(
    private readonly db: Database.Database,
    readonly tables: LogTables = OWN_TABLES,
  ) {
    db.exec(schema(tables));
    this.insertRecord = db.prepare(
      `INSERT INTO ${tables.records} (topic, partition_id, log_offset, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.upsertCommitted = db.prepare(
      `INSERT INTO ${tables.committed} (group_id, topic, partition_id, next_offset) VALUES (?, ?, ?, ?)
       ON CONFLICT (group_id, topic, partition_id) DO UPDATE SET next_offset = excluded.next_offset`,
    );
    this.selectCommitted = db
      .prepare(`SELECT next_offset FROM ${tables.committed} WHERE group_id = ? AND topic = ? AND partition_id = ?`)
      .pluck();
    this.insertTopicStatement = db.prepare(
      `INSERT INTO ${tables.topics} (name, partitions, delay_ms) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING`,
    );
    // Called inside the engine's write transaction: one commit however many records it carries.
    this.appendAll = (rows: RecordRow[]) => {
      for (const r of rows) {
        this.insertRecord.run(r.topic, r.partition, r.offset, r.key, r.value, r.headers, r.timestamp);
      }
    };
  }

  /** Whether this database holds any topic (a fresh shared database does not). */
  isEmpty(): boolean {
    return this.db.prepare(`SELECT count(*) FROM ${this.tables.topics}`).pluck().get() === 0;
  }

  /** Every record, in log order, for copying a log into another database. */
  *allRecords(): IterableIterator<RecordRow> {
    const rows = this.db
      .prepare(
        `SELECT topic, partition_id, log_offset, key, value, headers, timestamp FROM ${this.tables.records} ORDER BY topic, partition_id, log_offset`,
      )
      .iterate() as IterableIterator<{
      topic: string;
      partition_id: number;
      log_offset: number;
      key: string | null;
      value: string;
      headers: string | null;
      timestamp: number;
    }>;
    for (const r of rows)
      yield {
        topic: r.topic,
        partition: r.partition_id,
        offset: r.log_offset,
        key: r.key,
        value: r.value,
        headers: r.headers,
        timestamp: r.timestamp,
      };
  }

  allCommitted(): Array<{ groupId: string; topic: string; partition: number; nextOffset: number }> {
    const rows = this.db
      .prepare(`SELECT group_id, topic, partition_id, next_offset FROM ${this.tables.committed}`)
      .all() as Array<{ group_id: string; topic: string; partition_id: number; next_offset: number }>;
    return rows.map((r) => ({
      groupId: r.group_id,
      topic: r.topic,
      partition: r.partition_id,
      nextOffset: r.next_offset,
    }));
  }

  /** Empties this log's tables (after its content moved to the shared database). */
  dropAll(): void {
    this.db.exec(
      `DELETE FROM ${this.tables.records}; DELETE FROM ${this.tables.committed}; DELETE FROM ${this.tables.topics};`,
    );
  }

  topics(): StoredTopic[] {
    const rows = this.db.prepare(`SELECT name, partitions, delay_ms FROM ${this.tables.topics}`).all() as Array<{
      name: string;
      partitions: number;
      delay_ms: number | null;
    }>;
    return rows.map((r) => ({ topic: r.name, partitions: r.partitions, delayMs: r.delay_ms ?? undefined }));
  }

  createTopic(spec: TopicSpec): void {
    this.insertTopicStatement.run(spec.topic, spec.partitions, spec.delayMs ?? null);
  }

  /**
   * The offset the next record of each partition gets, for partitions holding records. Read when
   * the log opens by seeking in the primary key: a partition's last offset, then the first record
   * after it, which starts the next partition; two seeks a partition. (A GROUP BY read every
   * record: seconds at start-up for a log of millions.)
   */
  endOffsets(): Array<{ topic: string; partition: number; end: number }> {
    const { records } = this.tables;
    type Position = { topic: string; partition_id: number };
    const first = this.db.prepare(`SELECT topic, partition_id FROM ${records} ORDER BY topic, partition_id LIMIT 1`);
    const last = this.db.prepare(`SELECT MAX(log_offset) FROM ${records} WHERE topic = ? AND partition_id = ?`).pluck();
    const after = this.db.prepare(
      `SELECT topic, partition_id FROM ${records} WHERE (topic, partition_id, log_offset) > (?, ?, ?)
       ORDER BY topic, partition_id, log_offset LIMIT 1`,
    );
    const ends: Array<{ topic: string; partition: number; end: number }> = [];
    let at = first.get() as Position | undefined;
    while (at) {
      const lastOffset = last.get(at.topic, at.partition_id) as number;
      ends.push({ topic: at.topic, partition: at.partition_id, end: lastOffset + 1 });
      at = after.get(at.topic, at.partition_id, lastOffset) as Position | undefined;
    }
    return ends;
  }

  append(rows: RecordRow[]): void {
    this.appendAll(rows);
  }

  read(topic: string, partition: number, from: number, limit: number): RecordSelectRow[] {
    return this.selectRecordsUpTo(limit).all(topic, partition, from) as RecordSelectRow[];
  }

  /**
   * The read of up to `limit` records, with the limit in the SQL text: a bound LIMIT makes SQLite
   * (built with STAT4) prepare the statement again on every run. Consumers use one or two batch
   * sizes, so one statement per size is kept.
   */
  private selectRecordsUpTo(limit: number): Database.Statement {
    let statement = this.selectRecords.get(limit);
    if (!statement) {
      if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError(`invalid read limit ${limit}`);
      statement = this.db.prepare(
        `SELECT log_offset, key, value, headers, timestamp FROM ${this.tables.records}
         WHERE topic = ? AND partition_id = ? AND log_offset >= ? ORDER BY log_offset LIMIT ${limit}`,
      );
      if (this.selectRecords.size >= 16) this.selectRecords.clear();
      this.selectRecords.set(limit, statement);
    }
    return statement;
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    return this.selectCommitted.get(groupId, topic, partition) as number | undefined;
  }

  commit(groupId: string, topic: string, partition: number, nextOffset: number): void {
    this.upsertCommitted.run(groupId, topic, partition, nextOffset);
  }
}
