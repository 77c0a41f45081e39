/**
 * The analytics port's contract suite (README.md "Engines and configuration"): every analytics engine runs it, and an
 * engine that does not pass it is not done. Each test writes its SQL once, as a constant string, so
 * passing on two engines proves the same SQL text runs on both.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Analytics, Migration } from '../analytics.port';

/** What the suite needs of a batcher; the engine supplies one (ports cannot import engines). */
export interface AnalyticsBatcherUnderTest {
  add(table: string, rows: Array<Record<string, unknown>>): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface AnalyticsContractSubject {
  /** An open, empty analytics engine (no tables), private to one test. */
  analytics: Analytics;
  createBatcher(analytics: Analytics, options: { maxRows: number; maxDelayMs: number }): AnalyticsBatcherUnderTest;
  /** Closes `analytics` (it may already be closed) and removes whatever the factory created. */
  dispose(): Promise<void>;
}

const createEvents: Migration = {
  version: 1,
  name: 'create contract_events',
  statements: [
    `CREATE TABLE IF NOT EXISTS contract_events (
      id String,
      name String,
      score UInt32,
      at DateTime64(3, 'UTC')
    ) ENGINE = MergeTree ORDER BY (at, id)`,
  ],
};
const createVendors: Migration = {
  version: 2,
  name: 'create contract_vendors',
  statements: ['CREATE TABLE IF NOT EXISTS contract_vendors (id String) ENGINE = MergeTree ORDER BY id'],
};
const addVendorName: Migration = {
  version: 3,
  name: 'add contract_vendors.name',
  statements: ["ALTER TABLE contract_vendors ADD COLUMN IF NOT EXISTS name String DEFAULT ''"],
};

const COUNT_EVENTS = 'SELECT count() AS n FROM contract_events';

// A type alias, not an interface, so that it is assignable to Record<string, unknown>.
type EventRow = { id: string; name: string; score: number; at: string };

function event(id: string, name: string, score: number, at: string): EventRow {
  return { id, name, score, at };
}

async function countEvents(analytics: Analytics): Promise<number> {
  const [row] = await analytics.query<{ n: number }>(COUNT_EVENTS);
  return row?.n ?? -1;
}

/** An Analytics that records the inserts passing through it, to see when a batcher writes. */
function recordingInserts(analytics: Analytics): {
  analytics: Analytics;
  inserts: Array<{ table: string; rows: number }>;
} {
  const inserts: Array<{ table: string; rows: number }> = [];
  const recording: Analytics = {
    engine: analytics.engine,
    migrate: (migrations) => analytics.migrate(migrations),
    insert: async (table, rows) => {
      inserts.push({ table, rows: rows.length });
      return analytics.insert(table, rows);
    },
    query: (sql, params) => analytics.query(sql, params),
    command: (sql, params) => analytics.command(sql, params),
    ping: () => analytics.ping(),
    close: () => analytics.close(),
  };
  return { analytics: recording, inserts };
}

export function analyticsContract(name: string, factory: () => Promise<AnalyticsContractSubject>): void {
  describe(`analytics contract: ${name}`, () => {
    let subject: AnalyticsContractSubject;
    let analytics: Analytics;

    beforeEach(async () => {
      subject = await factory();
      analytics = subject.analytics;
    });

    afterEach(async () => {
      vi.useRealTimers();
      await subject.dispose();
    });

    describe('migrate', () => {
      it('applies each migration once and records it in schema_migrations', async () => {
        expect(await analytics.migrate([createEvents, createVendors])).toEqual([1, 2]);
        expect(await analytics.migrate([createEvents, createVendors])).toEqual([]);
        expect(await analytics.migrate([createEvents, createVendors, addVendorName])).toEqual([3]);

        const recorded = await analytics.query<{ version: number; name: string }>(
          'SELECT version, name FROM schema_migrations ORDER BY version',
        );
        expect(recorded).toEqual([
          { version: 1, name: 'create contract_events' },
          { version: 2, name: 'create contract_vendors' },
          { version: 3, name: 'add contract_vendors.name' },
        ]);
        // The statements really ran: the column added by migration 3 exists.
        await analytics.insert('contract_vendors', [{ id: 'v1', name: 'Acme' }]);
        expect(await analytics.query('SELECT id, name FROM contract_vendors')).toEqual([{ id: 'v1', name: 'Acme' }]);
      });

      it('applies migrations in ascending version order whatever the order given', async () => {
        // Migration 3 alters the table migration 2 creates: run first, it would fail.
        expect(await analytics.migrate([addVendorName, createVendors])).toEqual([2, 3]);
      });

      it('does not record a migration whose statement fails, and applies it once fixed', async () => {
        const broken: Migration = {
          version: 7,
          name: 'broken',
          statements: ['CREATE TABLE contract_broken (id Strin) ENGINE = MergeTree ORDER BY id'],
        };
        await expect(analytics.migrate([createEvents, broken])).rejects.toThrow();
        // The migration before it stays applied; the broken one is not recorded.
        expect(await analytics.query('SELECT version FROM schema_migrations ORDER BY version')).toEqual([
          { version: 1 },
        ]);

        const fixed: Migration = {
          ...broken,
          statements: ['CREATE TABLE contract_broken (id String) ENGINE = MergeTree ORDER BY id'],
        };
        expect(await analytics.migrate([createEvents, fixed])).toEqual([7]);
      });

      it('refuses two migrations with one version', async () => {
        await expect(analytics.migrate([createEvents, { ...createVendors, version: 1 }])).rejects.toThrow(/twice/);
      });
    });

    describe('insert and query', () => {
      beforeEach(async () => {
        await analytics.migrate([createEvents]);
      });

      it('reads batched inserts back with count() and aggregates', async () => {
        await analytics.insert('contract_events', [
          event('e1', 'inquiry', 10, '2024-03-01 10:00:00.000'),
          event('e2', 'inquiry', 20, '2024-03-01 11:00:00.000'),
          event('e3', 'application', 5, '2024-03-02 09:30:00.250'),
        ]);
        await analytics.insert('contract_events', [
          event('e4', 'application', 7, '2024-03-03 08:00:00.000'),
          event('e5', 'inquiry', 30, '2024-03-04 12:00:00.000'),
        ]);
        await analytics.insert('contract_events', []);

        expect(await countEvents(analytics)).toBe(5);
        const byName = await analytics.query<{ name: string; n: number; total: number; first: string }>(
          'SELECT name, count() AS n, sum(score) AS total, min(at) AS first FROM contract_events GROUP BY name ORDER BY name',
        );
        expect(byName).toEqual([
          { name: 'application', n: 2, total: 12, first: '2024-03-02 09:30:00.250' },
          { name: 'inquiry', n: 3, total: 60, first: '2024-03-01 10:00:00.000' },
        ]);
      });

      it('accepts ISO 8601 timestamps and Dates in inserted rows', async () => {
        await analytics.insert('contract_events', [
          { id: 'iso', name: 'n', score: 1, at: '2024-03-01T10:00:00.123Z' },
          { id: 'date', name: 'n', score: 1, at: new Date(Date.UTC(2024, 2, 1, 10, 0, 0, 456)) },
        ]);
        expect(await analytics.query('SELECT id, at FROM contract_events ORDER BY at')).toEqual([
          { id: 'iso', at: '2024-03-01 10:00:00.123' },
          { id: 'date', at: '2024-03-01 10:00:00.456' },
        ]);
      });

      describe('parameters', () => {
        beforeEach(async () => {
          await analytics.insert('contract_events', [
            event('a', 'inquiry', 10, '2024-03-01 10:00:00.499'),
            event('b', "O'Brien", 20, '2024-03-01 10:00:00.500'),
            event('c', 'inquiry', 30, '2024-03-01 10:00:00.501'),
            event('d', 'application', 40, '2024-03-02 00:00:00.000'),
          ]);
        });

        const SELECT_IDS_BY_NAME = 'SELECT id FROM contract_events WHERE name = {name:String} ORDER BY id';

        it('binds {name:String}', async () => {
          expect(await analytics.query(SELECT_IDS_BY_NAME, { name: 'inquiry' })).toEqual([{ id: 'a' }, { id: 'c' }]);
        });

        it('binds a value containing a quote as data, not SQL', async () => {
          expect(await analytics.query(SELECT_IDS_BY_NAME, { name: "O'Brien" })).toEqual([{ id: 'b' }]);
          // Were the value spliced into the SQL text, this would select every row (or fail to parse).
          expect(await analytics.query(SELECT_IDS_BY_NAME, { name: "x' OR '1'='1" })).toEqual([]);
          expect(await analytics.query(SELECT_IDS_BY_NAME, { name: "x\\' OR 1=1 --" })).toEqual([]);
        });

        it('binds {n:UInt32}', async () => {
          expect(
            await analytics.query('SELECT id FROM contract_events WHERE score >= {n:UInt32} ORDER BY id', { n: 30 }),
          ).toEqual([{ id: 'c' }, { id: 'd' }]);
        });

        it('binds {d:DateTime64(3)} from a Date, to the millisecond and independent of time zone', async () => {
          const sql = 'SELECT id FROM contract_events WHERE at >= {d:DateTime64(3)} ORDER BY id';
          expect(await analytics.query(sql, { d: new Date('2024-03-01T10:00:00.500Z') })).toEqual([
            { id: 'b' },
            { id: 'c' },
            { id: 'd' },
          ]);
          expect(await analytics.query(sql, { d: new Date('2024-03-01T10:00:00.501Z') })).toEqual([
            { id: 'c' },
            { id: 'd' },
          ]);
        });

        it('binds {ids:Array(String)}', async () => {
          const sql = 'SELECT id FROM contract_events WHERE has({ids:Array(String)}, id) ORDER BY id';
          expect(await analytics.query(sql, { ids: ['d', 'a', 'zz', "b' OR 1=1"] })).toEqual([
            { id: 'a' },
            { id: 'd' },
          ]);
          expect(await analytics.query(sql, { ids: [] })).toEqual([]);
        });

        it('binds parameters in commands', async () => {
          await analytics.command(
            'INSERT INTO contract_events (id, name, score, at) SELECT {id:String}, name, score + {n:UInt32}, at FROM contract_events WHERE id = {from:String}',
            { id: 'a2', n: 5, from: 'a' },
          );
          expect(
            await analytics.query('SELECT id, score FROM contract_events WHERE id = {id:String}', { id: 'a2' }),
          ).toEqual([{ id: 'a2', score: 15 }]);
        });
      });

      it('rejects a table name that is not an identifier', async () => {
        await expect(analytics.insert('contract_events; DROP TABLE contract_events', [{ id: 'x' }])).rejects.toThrow(
          /table name/,
        );
        expect(await countEvents(analytics)).toBe(0);
      });
    });

    describe('ping and close', () => {
      it('pings while open and refuses work once closed', async () => {
        await expect(analytics.ping()).resolves.toBeUndefined();
        await analytics.close();
        await expect(analytics.ping()).rejects.toThrow(/closed/);
        await expect(analytics.query('SELECT 1')).rejects.toThrow(/closed/);
        await analytics.close(); // idempotent
      });
    });

    describe('batcher', () => {
      beforeEach(async () => {
        await analytics.migrate([createEvents]);
      });

      it('flushes when maxRows rows are buffered', async () => {
        const recorded = recordingInserts(analytics);
        const batcher = subject.createBatcher(recorded.analytics, { maxRows: 3, maxDelayMs: 3_600_000 });

        await batcher.add('contract_events', [
          event('1', 'n', 1, '2024-01-01 00:00:00.000'),
          event('2', 'n', 1, '2024-01-01 00:00:00.000'),
        ]);
        expect(recorded.inserts).toEqual([]);
        expect(await countEvents(analytics)).toBe(0);

        // The add that reaches maxRows resolves once its flush has written everything buffered.
        await batcher.add('contract_events', [event('3', 'n', 1, '2024-01-01 00:00:00.000')]);
        expect(recorded.inserts).toEqual([{ table: 'contract_events', rows: 3 }]);
        expect(await countEvents(analytics)).toBe(3);
        await batcher.close();
      });

      it('flushes maxDelayMs after the first buffered row', async () => {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        const recorded = recordingInserts(analytics);
        const batcher = subject.createBatcher(recorded.analytics, { maxRows: 1000, maxDelayMs: 5000 });

        await batcher.add('contract_events', [event('1', 'n', 1, '2024-01-01 00:00:00.000')]);
        await vi.advanceTimersByTimeAsync(4000);
        await batcher.add('contract_events', [event('2', 'n', 1, '2024-01-01 00:00:00.000')]);
        await vi.advanceTimersByTimeAsync(999);
        expect(recorded.inserts).toEqual([]);

        await vi.advanceTimersByTimeAsync(1);
        await vi.waitFor(async () => expect(await countEvents(analytics)).toBe(2));
        expect(recorded.inserts).toEqual([{ table: 'contract_events', rows: 2 }]);
        await batcher.close();
      });

      it('flushes on close, one insert per table, and refuses rows afterwards', async () => {
        await analytics.migrate([createVendors]);
        const recorded = recordingInserts(analytics);
        const batcher = subject.createBatcher(recorded.analytics, { maxRows: 1000, maxDelayMs: 3_600_000 });
        await batcher.add('contract_events', [event('1', 'n', 1, '2024-01-01 00:00:00.000')]);
        await batcher.add('contract_vendors', [{ id: 'v1' }]);
        await batcher.add('contract_events', [event('2', 'n', 1, '2024-01-01 00:00:00.000')]);
        expect(recorded.inserts).toEqual([]);

        await batcher.close();
        expect(recorded.inserts).toEqual([
          { table: 'contract_events', rows: 2 },
          { table: 'contract_vendors', rows: 1 },
        ]);
        expect(await countEvents(analytics)).toBe(2);
        await expect(batcher.add('contract_events', [event('3', 'n', 1, '2024-01-01 00:00:00.000')])).rejects.toThrow(
          /closed/,
        );
      });

      it('surfaces an insert error to the caller of flush and keeps the rows for the next flush', async () => {
        const batcher = subject.createBatcher(analytics, { maxRows: 1000, maxDelayMs: 3_600_000 });
        await batcher.add('contract_vendors', [{ id: 'v1' }, { id: 'v2' }]);
        await batcher.add('contract_events', [event('1', 'n', 1, '2024-01-01 00:00:00.000')]);

        // contract_vendors does not exist yet.
        await expect(batcher.flush()).rejects.toThrow();
        expect(await countEvents(analytics)).toBe(1);

        await analytics.migrate([createVendors]);
        await batcher.flush();
        expect(await analytics.query('SELECT id FROM contract_vendors ORDER BY id')).toEqual([
          { id: 'v1' },
          { id: 'v2' },
        ]);
        expect(await countEvents(analytics)).toBe(1);
        await batcher.close();
      });
    });
  });
}
