/**
 * The log's end offsets, read when it opens: the same answer as grouping every record, found by
 * seeking in the primary key (the plans say so) rather than reading every record.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LogStore, OWN_TABLES } from './log-store';

describe('LogStore.endOffsets', () => {
  it('answers what a GROUP BY over every record answers, partitions without records left out', () => {
    const db = new Database(':memory:');
    const store = new LogStore(db);
    const rows = [
      ['a', 0, 4],
      ['a', 2, 0],
      ['a.b', 1, 7],
      ['b', 0, 2],
      ['leads.submitted', 3, 120],
    ] as const;
    let timestamp = 0;
    for (const [topic, partition, lastOffset] of rows)
      for (let offset = 0; offset <= lastOffset; offset++)
        store.append([{ topic, partition, offset, key: null, value: 'v', headers: null, timestamp: timestamp++ }]);
    const grouped = db
      .prepare(
        `SELECT topic, partition_id AS partition, MAX(log_offset) + 1 AS "end" FROM ${OWN_TABLES.records} GROUP BY topic, partition_id`,
      )
      .all();
    expect(store.endOffsets()).toEqual(grouped);
    expect(store.endOffsets()).toEqual([
      { topic: 'a', partition: 0, end: 5 },
      { topic: 'a', partition: 2, end: 1 },
      { topic: 'a.b', partition: 1, end: 8 },
      { topic: 'b', partition: 0, end: 3 },
      { topic: 'leads.submitted', partition: 3, end: 121 },
    ]);
    expect(new LogStore(new Database(':memory:')).endOffsets()).toEqual([]);
  });

  it('seeks in the primary key for the last offset of a partition and the record after it (no scan)', () => {
    const db = new Database(':memory:');
    new LogStore(db);
    const { records } = OWN_TABLES;
    const plans = [
      `SELECT topic, partition_id FROM ${records} WHERE (topic, partition_id, log_offset) > ('a', 0, 4) ORDER BY topic, partition_id, log_offset LIMIT 1`,
      `SELECT MAX(log_offset) FROM ${records} WHERE topic = 'a' AND partition_id = 0`,
    ].map((sql) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail));
    for (const plan of plans) {
      expect(plan.join(' ; ')).toMatch(/^SEARCH /);
    }
  });
});
