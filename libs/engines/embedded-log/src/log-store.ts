/**
 * The SQLite tables of the embedded log and the prepared statements over them. Everything here is
 * synchronous (better-sqlite3); the engine around it decides when to call what.
 */
import type Database from 'better-sqlite3';
import type { Headers, TopicSpec } from '@leadstream/ports';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS topics (
    name TEXT PRIMARY KEY,
    partitions INTEGER NOT NULL,
    delay_ms INTEGER
  );
  -- One row per record; the key is its position in the log. WITHOUT ROWID keeps each row inside
  -- the primary-key b-tree, so a batch read is one range scan.
  CREATE TABLE IF NOT EXISTS records (
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
  CREATE TABLE IF NOT EXISTS committed_offsets (
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
  private readonly selectRecords: Database.Statement;
  private readonly upsertCommitted: Database.Statement;
  private readonly selectCommitted: Database.Statement;
  private readonly insertTopicStatement: Database.Statement;
  private readonly appendAll: (rows: RecordRow[]) => void;

  constructor(private readonly db: Database.Database) {
    db.exec(SCHEMA);
    this.insertRecord = db.prepare(
      'INSERT INTO records (topic, partition_id, log_offset, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectRecords = db.prepare(
      `SELECT log_offset, key, value, headers, timestamp FROM records
       WHERE topic = ? AND partition_id = ? AND log_offset >= ? ORDER BY log_offset LIMIT ?`,
    );
    this.upsertCommitted = db.prepare(
      `INSERT INTO committed_offsets (group_id, topic, partition_id, next_offset) VALUES (?, ?, ?, ?)
       ON CONFLICT (group_id, topic, partition_id) DO UPDATE SET next_offset = excluded.next_offset`,
    );
    this.selectCommitted = db
      .prepare('SELECT next_offset FROM committed_offsets WHERE group_id = ? AND topic = ? AND partition_id = ?')
      .pluck();
    this.insertTopicStatement = db.prepare(
      'INSERT INTO topics (name, partitions, delay_ms) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING',
    );
    // One transaction per produce call: one WAL commit however many records it carries.
    this.appendAll = db.transaction((rows: RecordRow[]) => {
      for (const r of rows) {
        this.insertRecord.run(r.topic, r.partition, r.offset, r.key, r.value, r.headers, r.timestamp);
      }
    });
  }

  topics(): StoredTopic[] {
    const rows = this.db.prepare('SELECT name, partitions, delay_ms FROM topics').all() as Array<{
      name: string;
      partitions: number;
      delay_ms: number | null;
    }>;
    return rows.map((r) => ({ topic: r.name, partitions: r.partitions, delayMs: r.delay_ms ?? undefined }));
  }

  createTopic(spec: TopicSpec): void {
    this.insertTopicStatement.run(spec.topic, spec.partitions, spec.delayMs ?? null);
  }

  /** The offset the next record of each partition gets, for partitions holding records. */
  endOffsets(): Array<{ topic: string; partition: number; end: number }> {
    const rows = this.db
      .prepare('SELECT topic, partition_id, MAX(log_offset) AS last FROM records GROUP BY topic, partition_id')
      .all() as Array<{ topic: string; partition_id: number; last: number }>;
    return rows.map((r) => ({ topic: r.topic, partition: r.partition_id, end: r.last + 1 }));
  }

  append(rows: RecordRow[]): void {
    this.appendAll(rows);
  }

  read(topic: string, partition: number, from: number, limit: number): RecordSelectRow[] {
    return this.selectRecords.all(topic, partition, from, limit) as RecordSelectRow[];
  }

  committed(groupId: string, topic: string, partition: number): number | undefined {
    return this.selectCommitted.get(groupId, topic, partition) as number | undefined;
  }

  commit(groupId: string, topic: string, partition: number, nextOffset: number): void {
    this.upsertCommitted.run(groupId, topic, partition, nextOffset);
  }
}
