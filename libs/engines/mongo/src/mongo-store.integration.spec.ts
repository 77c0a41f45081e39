import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { documentStoreContract } from '@leadstream/ports/contract/document-store.contract';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { type BaseDocument, type BulkWriteOperation, type DocumentStore } from '@leadstream/ports';
import { describe, expect, it } from 'vitest';
import { openMongoStore } from './index';
import { ID_LOOKUPS_MAX } from './mongo-collection';

const { value: uri } = lookupInfra('MONGODB_URI');

/** Drops a test's database (each test names its own). */
async function dropDatabase(dbName: string): Promise<void> {
  const client = new MongoClient(uri!);
  try {
    await client.db(dbName).dropDatabase();
  } finally {
    await client.close();
  }
}

/** FerretDB answers buildInfo with its own version; it never answers a filter from an index. */
async function isFerretDb(serverUri: string): Promise<boolean> {
  const client = new MongoClient(serverUri);
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return typeof info['ferretdbVersion'] === 'string';
  } finally {
    await client.close();
  }
}

documentStoreContract(
  'mongodb driver',
  uri
    ? async ({ ttlSweepMs }) => {
        // A database per run: suites can share the server and cleanup drops everything at once.
        const dbName = `leadstream_contract_${randomUUID().slice(0, 8)}`;
        const open = (): Promise<DocumentStore> => openMongoStore({ uri, dbName, ttlSweepMs });
        let store = await open();
        const ferret = await isFerretDb(uri);
        return {
          store,
          gaps: ferret
            ? {
                indexPlans:
                  'FerretDB 1.24 answers every filter with a collection scan (PostgreSQL backend: equality is pushed down, but as a jsonb @> filter no index serves)',
                atomicUpdates:
                  'FerretDB 1.24 does not apply conditional updates atomically on either backend (PostgreSQL: several winners in 50 of 50 rounds of 6 writers)',
              }
            : {},
          reopen: async () => {
            await store.close();
            store = await open();
            return store;
          },
          cleanup: async () => {
            await store.close();
            await dropDatabase(dbName);
          },
        };
      }
    : undefined,
);

describe.skipIf(!uri)('mongodb store background sweep', () => {
  it('sweeps in one process a turn: a second store on the same database waits for the next', async () => {
    const dbName = `leadstream_turns_${randomUUID().slice(0, 8)}`;
    const [a, b] = await Promise.all([
      openMongoStore({ uri: uri!, dbName, ttlSweepMs: 60_000 }),
      openMongoStore({ uri: uri!, dbName, ttlSweepMs: 60_000 }),
    ]);
    try {
      const t0 = Date.parse('2026-11-28T10:00:00.000Z');
      const at = (ms: number) => new Date(t0 + ms);
      const first = await Promise.all([a.takeSweepTurn(at(0)), b.takeSweepTurn(at(0))]);
      expect(first.filter(Boolean)).toHaveLength(1);
      expect(await a.takeSweepTurn(at(30_000))).toBe(false);
      expect(await b.takeSweepTurn(at(30_000))).toBe(false);
      // Due a little before the holder's next tick (90 % of the interval).
      expect(await b.takeSweepTurn(at(54_000))).toBe(true);
      expect(await a.takeSweepTurn(at(54_000))).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await dropDatabase(dbName);
    }
  });
});

describe.skipIf(!uri)('mongodb stores starting together', () => {
  it('make the same TTL and substring indexes at the same moment, every one of them without an error', async () => {
    const dbName = `leadstream_start_race_${randomUUID().slice(0, 8)}`;
    const stores = await Promise.all(Array.from({ length: 4 }, () => openMongoStore({ uri: uri!, dbName })));
    try {
      // Each round a new collection, as processes that start on a fresh database: every store
      // records the index in the engine's own catalog with an upsert of the same _id at once.
      for (let round = 0; round < 5; round++) {
        const name = `race_${round}`;
        await Promise.all(
          stores.map((store) =>
            store
              .collection(name)
              .createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 }),
          ),
        );
        await Promise.all(
          stores.map((store) =>
            store.collection(name).createIndex({ keys: { tenant: 1, text: 1 }, name: 'tenant_text', substring: true }),
          ),
        );
      }
      // The catalog holds each index once, and a sweep by any of them expires what the index covers.
      const expiring = stores[0]!.collection<BaseDocument & { expires_at: Date }>('race_4');
      await expiring.insertOne({ _id: 'old', expires_at: new Date(Date.now() - 60_000) });
      await stores[3]!.sweepExpired();
      expect(await expiring.find({})).toEqual([]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await dropDatabase(dbName);
    }
  });
});

describe.skipIf(!uri)('mongodb store explicit sweep', () => {
  it('sweeps what a TTL index made during a running sweep expires (the call waits for a sweep after it)', async () => {
    const dbName = `leadstream_sweep_${randomUUID().slice(0, 8)}`;
    const store = await openMongoStore({ uri: uri!, dbName, ttlSweepMs: 3_600_000 });
    try {
      // A collection the sweep takes a while over (FerretDB reads every document for a `$lt`).
      const slow = store.collection<BaseDocument & { expires_at: Date }>('slow');
      await slow.createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
      const later = new Date(Date.now() + 3_600_000);
      await slow.insertMany(Array.from({ length: 3_000 }, (_, i) => ({ _id: `s${i}`, expires_at: later })));
      const old = store.collection<BaseDocument & { expires_at: Date }>('expiring');
      await old.insertOne({ _id: 'gone', expires_at: new Date(Date.now() - 60_000) });
      // A sweep is running (it read the TTL list: `slow` only) when the index is made.
      const running = store.sweepExpired();
      await old.createIndex({ keys: { expires_at: 1 }, name: 'expires_at_ttl', expireAfterSeconds: 0 });
      await store.sweepExpired();
      await running;
      expect(await old.find({})).toEqual([]);
    } finally {
      await store.close();
      await dropDatabase(dbName);
    }
  });
});

describe.skipIf(!uri)('mongodb store round trips', () => {
  it('finds a few ids as one lookup each on FerretDB, and many as the one $in query (one query on MongoDB)', async () => {
    const dbName = `leadstream_id_lists_${randomUUID().slice(0, 8)}`;
    const store = await openMongoStore({ uri: uri!, dbName });
    const ferret = await isFerretDb(uri!);
    try {
      const records = store.collection<BaseDocument & { n: number }>('records');
      const count = ID_LOOKUPS_MAX + 1;
      await records.insertMany(Array.from({ length: count }, (_, n) => ({ _id: `r${n}`, n })));
      const idsOf = (n: number): string[] => Array.from({ length: n }, (_, i) => `r${i}`).concat('missing');
      const found = async (ids: string[]): Promise<{ numbers: number[]; commands: number }> => {
        const start = store.commands;
        const docs = await records.find({ _id: { $in: ids } });
        return { numbers: docs.map((doc) => doc.n).sort((a, b) => a - b), commands: store.commands - start };
      };
      const few = await found(idsOf(3));
      expect(few).toEqual({ numbers: [0, 1, 2], commands: ferret ? 4 : 1 });
      const many = await found(idsOf(count));
      expect(many).toEqual({ numbers: Array.from({ length: count }, (_, n) => n), commands: 1 });
    } finally {
      await store.close();
      await dropDatabase(dbName);
    }
  });

  it('counts the commands it sends: one a query, one for a bulk write of records, none for a refused collection name', async () => {
    const dbName = `leadstream_commands_${randomUUID().slice(0, 8)}`;
    const store = await openMongoStore({ uri: uri!, dbName });
    try {
      const records = store.collection<BaseDocument>('records');
      const start = store.commands;
      await records.findOne({ _id: 'none' });
      expect(store.commands - start).toBe(1);
      const upsert = (id: string): BulkWriteOperation<BaseDocument> => ({
        updateOne: { filter: { _id: id }, update: { $setOnInsert: { text: null } }, upsert: true },
      });
      await records.bulkWrite([upsert('a'), upsert('b'), upsert('c')]);
      expect(store.commands - start).toBe(2);
      expect(() => store.collection('bad name')).toThrow(TypeError);
      expect(store.commands - start).toBe(2);
    } finally {
      await store.close();
      await dropDatabase(dbName);
    }
  });
});
