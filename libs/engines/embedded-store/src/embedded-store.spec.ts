import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type BaseDocument, type DocumentStore } from '@leadstream/ports';
import { documentStoreContract } from '@leadstream/ports/contract/document-store.contract';
import { type EmbeddedCollection } from './embedded-collection';
import { openEmbeddedStore } from './index';

documentStoreContract('embedded (SQLite)', async ({ ttlSweepMs }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-'));
  let store: DocumentStore = await openEmbeddedStore({ dataDir, ttlSweepMs });
  return {
    store,
    reopen: async () => {
      await store.close();
      store = await openEmbeddedStore({ dataDir, ttlSweepMs });
      return store;
    },
    cleanup: async () => {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe('embedded document store', () => {
  it('stays writable after a unique index fails on stored duplicates', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-failed-index-'));
    const store = await openEmbeddedStore({ dataDir });
    try {
      const users = store.collection<BaseDocument>('users');
      await users.insertMany([
        { _id: 'a', email: 'same@example.edu' },
        { _id: 'b', email: 'same@example.edu' },
      ]);
      await expect(users.createIndex({ keys: { email: 1 }, name: 'email_unique', unique: true })).rejects.toMatchObject(
        {
          code: 'DUPLICATE_KEY',
        },
      );
      // The failed index added a column that its rollback took back; writes must not name it.
      await users.insertOne({ _id: 'c', email: 'other@example.edu' });
      await users.updateOne({ _id: 'a' }, { $set: { email: 'first@example.edu' } });
      expect(
        await users.find({ email: { $in: ['first@example.edu', 'other@example.edu'] } }, { sort: { _id: 1 } }),
      ).toEqual([
        { _id: 'a', email: 'first@example.edu' },
        { _id: 'c', email: 'other@example.edu' },
      ]);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('holds no read open between the pages of an iteration, so the WAL can be checkpointed past it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-iterate-'));
    // No background checkpoints: the test's own checkpoint is the only one.
    const store = await openEmbeddedStore({ dataDir, checkpointIntervalMs: 0 });
    try {
      const docs = store.collection<BaseDocument>('docs');
      await docs.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: `d${i}`, n: i })));
      const seen: number[] = [];
      for await (const doc of docs.iterate({}, { sort: { n: 1 }, batchSize: 2 })) {
        seen.push(doc['n'] as number);
        if (seen.length !== 3) continue;
        // Mid-iteration: writes go to the WAL, d9 is deleted, d5 changed; a checkpoint then copies
        // every frame (a reader still on an older snapshot would hold back the frames after it).
        for (let i = 0; i < 50; i++) await docs.insertOne({ _id: `later${i}`, n: 100 + i, pad: 'x'.repeat(2000) });
        await docs.deleteOne({ _id: 'd9' });
        await docs.updateOne({ _id: 'd5' }, { $set: { changed: true } });
        const [checkpoint] = store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{
          busy: number;
          log: number;
          checkpointed: number;
        }>;
        expect(checkpoint!.busy).toBe(0);
        expect(checkpoint!.log).toBeGreaterThan(0);
        expect(checkpoint!.checkpointed).toBe(checkpoint!.log);
      }
      // The matches of when the iteration began, less the deleted one, as they are when read.
      expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
      expect(await docs.findOne({ _id: 'd5' })).toEqual({ _id: 'd5', n: 5, changed: true });
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const withStore = async (run: (store: DocumentStore, dataDir: string) => Promise<void>): Promise<void> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-'));
    const store = await openEmbeddedStore({ dataDir });
    try {
      await run(store, dataDir);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  it('keeps temporary data, such as the statement journal of an insert into many indexes, in memory', async () => {
    // docs/store.md "Temporary data stays in memory": on disk every such insert wrote a temporary file.
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-temp-'));
    const store = await openEmbeddedStore({ dataDir });
    try {
      expect(store.db.pragma('temp_store', { simple: true })).toBe(2); // 2 = MEMORY
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps every acknowledged write when the process is killed without closing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-crash-'));
    try {
      // A child process writes, prints each acknowledgement, then dies with SIGKILL (no close).
      const index = fileURLToPath(new URL('./index.ts', import.meta.url));
      const script = `
        const { openEmbeddedStore } = await import(${JSON.stringify(index)});
        const store = await openEmbeddedStore({ dataDir: ${JSON.stringify(dataDir)} });
        const leads = store.collection('leads');
        for (let i = 0; i < 50; i++) {
          await leads.insertOne({ _id: 'l' + i, i, at: new Date(1700000000000 + i) });
          process.stdout.write('ack l' + i + '\\n');
        }
        await leads.updateOne({ _id: 'l7' }, { $set: { status: 'won' } });
        process.stdout.write('ack update\\n');
        process.kill(process.pid, 'SIGKILL');`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      const acked = child.stdout.split('\n').filter((line) => line.startsWith('ack '));
      expect(child.signal, child.stderr).toBe('SIGKILL');
      expect(acked).toHaveLength(51);

      const store = await openEmbeddedStore({ dataDir });
      const leads = store.collection<BaseDocument>('leads');
      expect(await leads.countDocuments({})).toBe(50);
      expect(await leads.findOne({ _id: 'l7' })).toEqual({
        _id: 'l7',
        i: 7,
        at: new Date(1_700_000_000_007),
        status: 'won',
      });
      await store.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps its directory (0700) and database files (0600, with -wal and -shm) private, and tightens those an earlier version made', async () => {
    const root = mkdtempSync(join(tmpdir(), 'embedded-store-modes-'));
    const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);
    try {
      const fresh = join(root, 'fresh', 'store');
      const store = await openEmbeddedStore({ dataDir: fresh });
      await store.collection('leads').insertOne({ _id: 'l1', email: 'ada@example.edu' });
      const file = join(fresh, 'documents.sqlite');
      expect([`${file}-wal`, `${file}-shm`].every((path) => existsSync(path))).toBe(true);
      expect([fresh, file, `${file}-wal`, `${file}-shm`].map(mode)).toEqual(['700', '600', '600', '600']);
      expect(mode(join(root, 'fresh'))).toBe('700');
      await store.close();

      // As an earlier version left them: a 0755 directory and a 0644 database.
      const earlier = join(root, 'earlier');
      mkdirSync(earlier, { mode: 0o755 });
      chmodSync(earlier, 0o755);
      const old = new Database(join(earlier, 'documents.sqlite'));
      old.exec('CREATE TABLE t (x)');
      old.close();
      chmodSync(join(earlier, 'documents.sqlite'), 0o644);
      const reopened = await openEmbeddedStore({ dataDir: earlier });
      await reopened.collection('leads').insertOne({ _id: 'l1' });
      const oldFile = join(earlier, 'documents.sqlite');
      expect([earlier, oldFile, `${oldFile}-wal`, `${oldFile}-shm`].map(mode)).toEqual(['700', '600', '600', '600']);
      await reopened.close();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses collection names and field paths outside [A-Za-z0-9_.-]', async () => {
    await withStore(async (store) => {
      expect(() => store.collection('leads; DROP TABLE x')).toThrow(/invalid collection name/);
      expect(() => store.collection('sqlite_master')).toThrow(/reserved/);
      const leads = store.collection('leads');
      await expect(leads.find({ "a') OR 1=1 --": 1 })).rejects.toThrow(/invalid field path/);
      await expect(leads.find({}, { sort: { 'a"b': 1 } })).rejects.toThrow(/invalid field path/);
    });
  });

  it('stores text that looks like a tagged date behind an escape: it reads back as text, and $regex sees the text', async () => {
    await withStore(async (store, dataDir) => {
      await store.collection('x').insertOne({ _id: 'a', s: '\u00012024-01-01T00:00:00.000Z' });
      expect(await store.collection('x').findOne({ _id: 'a' })).toEqual({
        _id: 'a',
        s: '\u00012024-01-01T00:00:00.000Z',
      });
      expect(await store.collection('x').countDocuments({ s: { $regex: '^\u00012024' } })).toBe(1);
      await store.close();
      const raw = new Database(join(dataDir, 'documents.sqlite'), { readonly: true });
      try {
        const row = raw.prepare('SELECT doc FROM "x"').get() as { doc: string } | undefined;
        expect(JSON.parse(row?.doc ?? 'null')).toEqual({ _id: 'a', s: '\u0002\u00012024-01-01T00:00:00.000Z' });
      } finally {
        raw.close();
      }
    });
  });

  it('uses the expression index for a filtered, sorted page (EXPLAIN QUERY PLAN, no temp sort)', async () => {
    await withStore(async (store) => {
      const leads = store.collection('leads');
      await leads.createIndex({ keys: { orgId: 1, createdAt: -1 }, name: 'org_created' });
      // The exact query find() runs for a page of one organization's newest leads.
      const plan = (leads as EmbeddedCollection<BaseDocument>).queryPlan(
        { orgId: 'o1' },
        { sort: { createdAt: -1 }, limit: 20 },
      );
      const mirrored = (leads as EmbeddedCollection<BaseDocument>).queryPlan(
        { orgId: 'o1' },
        { sort: { createdAt: 1 }, limit: 20 },
      );
      for (const details of [plan.join('\n'), mirrored.join('\n')]) {
        expect(details).toContain('USING INDEX leads$org_created');
        expect(details).not.toContain('TEMP B-TREE'); // the index delivers the order, no sort step
      }
      expect(await leads.explainIndexes({ orgId: 'o1' }, { sort: { createdAt: -1 }, limit: 20 })).toEqual([
        'org_created',
      ]);
    });
  });

  it('answers each limit with its own statement (the limit is SQL text, not bound) and refuses a limit that is not a whole number', async () => {
    await withStore(async (store) => {
      const c = store.collection<BaseDocument & { n: number }>('numbers');
      await c.insertMany(Array.from({ length: 5 }, (_, n) => ({ _id: `n${n}`, n })));
      for (const [limit, expected] of [
        [1, ['n0']],
        [3, ['n0', 'n1', 'n2']],
        [0, ['n0', 'n1', 'n2', 'n3', 'n4']],
        [2, ['n0', 'n1']],
      ] as const) {
        expect((await c.find({}, { sort: { n: 1 }, limit })).map((d) => d._id)).toEqual(expected);
      }
      expect((await c.find({}, { sort: { n: 1 }, skip: 3, limit: 1 })).map((d) => d._id)).toEqual(['n3']);
      await expect(c.find({}, { limit: 2.5 })).rejects.toThrow(/invalid limit 2.5/);
      await expect(c.find({}, { limit: -1 })).rejects.toThrow(/invalid limit -1/);
    });
  });

  it('drives a $contains page and count from the full-text table for a rare text, and walks the sort index for a common one', async () => {
    await withStore(async (store) => {
      const leads = store.collection('leads');
      await leads.createIndex({ keys: { orgId: 1, deletedAt: 1, createdAt: -1 }, name: 'org_visible_created' });
      await leads.createIndex({ keys: { orgId: 1, terms: 1 }, name: 'org_terms', substring: true });
      await leads.createIndex({ keys: { orgId: 1, digits: 1 }, name: 'org_digits', substring: true });
      await leads.insertMany(
        Array.from({ length: 1200 }, (_, i) => ({
          _id: `l${i}`,
          orgId: 'o1',
          deletedAt: null,
          createdAt: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T${String(i).padStart(5, '0')}`,
          terms: [`p${i}@example.edu`],
          digits: `1415555${1000 + i}`,
        })),
      );
      const collection = leads as EmbeddedCollection<BaseDocument>;
      const visible = { orgId: 'o1', deletedAt: null };
      const one = { ...visible, terms: { $contains: 'p42@' } };
      const either = {
        $or: [
          { ...visible, terms: { $contains: '1042' } },
          { ...visible, digits: { $contains: '1042' } },
        ],
      };
      for (const plan of [
        collection.queryPlan(one, { sort: { createdAt: -1 }, limit: 20 }),
        collection.countPlan(one),
        collection.queryPlan(either, { sort: { createdAt: -1 }, limit: 20 }),
      ]) {
        const details = plan.join('\n');
        expect(details).toContain('USING INTEGER PRIMARY KEY (rowid=?)');
        expect(details).not.toContain('org_visible_created');
      }
      expect(await leads.explainIndexes(one, { sort: { createdAt: -1 }, limit: 20 })).toEqual(['org_terms']);
      expect((await leads.find(one)).map((doc) => doc._id)).toEqual(['l42']);
      expect((await leads.find(either, { sort: { createdAt: -1 } })).map((doc) => doc._id)).toEqual(['l42', 'l1042']); // 1042 in the terms of one, the digits of the other
      // Every row holds the domain (1,000 rows or more): the page walks the sort index instead.
      const common = { ...visible, terms: { $contains: 'example.edu' } };
      const commonPlan = collection.queryPlan(common, { sort: { createdAt: -1 }, limit: 20 }).join('\n');
      expect(commonPlan).toContain('USING INDEX leads$org_visible_created');
      expect(commonPlan).toContain('SCAN leads$org_terms VIRTUAL TABLE');
      expect((await leads.explainIndexes(common, { sort: { createdAt: -1 }, limit: 20 })).sort()).toEqual([
        'org_terms',
        'org_visible_created',
      ]);
      expect((await leads.find(common, { sort: { createdAt: -1 }, limit: 3 })).map((doc) => doc._id)).toEqual([
        'l1175',
        'l1147',
        'l1119',
      ]);
      expect(await leads.countDocuments(common)).toBe(1200);
    });
  });

  it('answers $contains with what another connection committed since the last answer', async () => {
    await withStore(async (store, dataDir) => {
      const mine = store.collection('people');
      await mine.createIndex({ keys: { terms: 1 }, name: 'terms', substring: true });
      await mine.insertOne({ _id: 'a', terms: ['ada@gmail.com'] });
      const found = async (text: string): Promise<string[]> =>
        (await mine.find({ terms: { $contains: text } })).map((doc) => doc._id);
      expect(await found('gmail')).toEqual(['a']);
      const other = await openEmbeddedStore({ dataDir, checkpointIntervalMs: 0 });
      try {
        await other.collection('people').updateOne({ _id: 'a' }, { $set: { terms: ['ada@proton.me'] } });
        await other.collection('people').insertOne({ _id: 'b', terms: ['bob@gmail.com'] });
      } finally {
        await other.close();
      }
      expect(await found('gmail')).toEqual(['b']);
      expect(await found('proton')).toEqual(['a']);
    });
  });

  it('counts from the index alone when every filtered field is in it (covering index, null included)', async () => {
    await withStore(async (store) => {
      const leads = store.collection('leads');
      await leads.createIndex({
        keys: { orgId: 1, deletedAt: 1, status: 1, createdAt: -1 },
        name: 'org_visible_status',
      });
      await leads.insertMany([
        { _id: 'a', orgId: 'o1', deletedAt: null, status: 'active', createdAt: '2026-01-01' },
        { _id: 'b', orgId: 'o1', status: 'active', createdAt: '2026-01-02' },
        { _id: 'c', orgId: 'o1', deletedAt: '2026-02-01', status: 'active', createdAt: '2026-01-03' },
        { _id: 'd', orgId: 'o1', deletedAt: null, status: 'rejected', createdAt: '2026-01-04' },
      ]);
      const collection = leads as EmbeddedCollection<BaseDocument>;
      const filter = { orgId: 'o1', deletedAt: null, status: 'active' };
      expect(collection.countPlan(filter).join('\n')).toContain('USING COVERING INDEX leads$org_visible_status');
      expect(await leads.countDocuments(filter)).toBe(2); // a missing deletedAt counts as null, as in MongoDB
      // A field outside the index needs the documents.
      expect(collection.countPlan({ ...filter, program: 'MBA' }).join('\n')).not.toContain('COVERING');
    });
  });

  it('keeps every index column equal to json_extract of the document through every kind of write', async () => {
    await withStore(async (store, dataDir) => {
      const leads = store.collection('leads');
      await leads.createIndex({ keys: { org: 1, status: 1, 'address.city': 1 }, name: 'org_status_city' });
      await leads.createIndex({ keys: { email: 1 }, name: 'email_unique', unique: true });
      await leads.createIndex({ keys: { at: 1 }, name: 'at_ttl', expireAfterSeconds: 3600 });
      await leads.insertMany([
        {
          _id: 'a',
          org: 'o1',
          status: 'new',
          email: 'a@x.edu',
          address: { city: 'Boston' },
          at: new Date(1_700_000_000_000),
          n: 1,
        },
        { _id: 'b', org: 'o1', email: 'b@x.edu', tags: ['x'] },
      ]);
      await leads.insertOne({ _id: 'c', org: 'o2', status: 'new', email: 'c@x.edu', address: { city: 'Lima' } });
      await leads.updateOne({ _id: 'a' }, { $set: { 'address.city': 'Paris', note: 'unindexed' } });
      await leads.updateOne({ _id: 'a' }, { $inc: { n: 1 } }); // touches no indexed field
      await leads.updateOne({ _id: 'b' }, { $set: { status: true, address: { city: 7 } }, $push: { tags: 'y' } });
      await leads.updateMany({ org: 'o1' }, { $unset: { email: '' } });
      await leads.findOneAndUpdate({ _id: 'c' }, { $set: { status: 'won', at: new Date(1_700_000_100_000) } });
      await leads.updateOne(
        { _id: 'd' },
        { $set: { status: 'new', email: 'd@x.edu' }, $setOnInsert: { org: 'o3' } },
        { upsert: true },
      );
      // Another process that opened the collection before the indexes existed writes no columns
      // (and knows none of them: what its store answers the repair triggers).
      const other = new Database(join(dataDir, 'documents.sqlite'));
      other.function('leadstream_known_columns', (_collection: unknown) => 0);
      other
        .prepare(`INSERT INTO leads (id, doc) VALUES ('e', ?)`)
        .run(JSON.stringify({ _id: 'e', org: 'o4', status: 'new', email: 'e@x.edu', address: { city: 'Oslo' } }));
      other
        .prepare(`UPDATE leads SET doc = ? WHERE id = 'c'`)
        .run(JSON.stringify({ _id: 'c', org: 'o2', status: 'lost', email: 'c2@x.edu' }));
      other.close();
      const db = new Database(join(dataDir, 'documents.sqlite'), { readonly: true });
      try {
        const rows = db
          .prepare(
            `SELECT id, "f:org" IS json_extract(doc, '$."org"') AS org, "f:status" IS json_extract(doc, '$."status"') AS status,
               "f:address.city" IS json_extract(doc, '$."address"."city"') AS city, "f:email" IS json_extract(doc, '$."email"') AS email,
               "f:at" IS json_extract(doc, '$."at"') AS at FROM leads ORDER BY id`,
          )
          .all() as Record<string, unknown>[];
        expect(rows).toEqual(
          ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, org: 1, status: 1, city: 1, email: 1, at: 1 })),
        );
      } finally {
        db.close();
      }
      expect((await leads.find({ org: 'o1', status: true })).map((doc) => doc._id)).toEqual(['b']);
      expect((await leads.find({ 'address.city': 'Paris' })).map((doc) => doc._id)).toEqual(['a']);
      expect(await leads.countDocuments({ email: null })).toBe(2);
      expect((await leads.find({ 'address.city': 'Oslo' })).map((doc) => doc._id)).toEqual(['e']);
      expect((await leads.find({ status: 'lost' })).map((doc) => doc._id)).toEqual(['c']);
    });
  });

  it('rebuilds indexes a store built on json_extract expressions, keeping their names and documents', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-upgrade-'));
    try {
      // The layout of a store written before index columns existed.
      const old = new Database(join(dataDir, 'documents.sqlite'));
      old.exec(
        `CREATE TABLE _leadstream_indexes (collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name))`,
      );
      old.exec(`CREATE TABLE "users" (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      old
        .prepare(`INSERT INTO _leadstream_indexes VALUES ('users', 'email_unique', ?)`)
        .run(JSON.stringify({ keys: { email: 1 }, name: 'email_unique', unique: true }));
      old.exec(`CREATE UNIQUE INDEX "users$email_unique" ON "users" (json_extract(doc, '$."email"') ASC)`);
      old.prepare(`INSERT INTO users VALUES (?, ?)`).run('u1', JSON.stringify({ _id: 'u1', email: 'ann@x.edu' }));
      old.close();

      const store = await openEmbeddedStore({ dataDir });
      try {
        const users = store.collection('users');
        expect(await users.findOne({ email: 'ann@x.edu' })).toEqual({ _id: 'u1', email: 'ann@x.edu' });
        expect(await users.explainIndexes({ email: 'ann@x.edu' })).toEqual(['email_unique']);
        await expect(users.insertOne({ _id: 'u2', email: 'ann@x.edu' })).rejects.toMatchObject({
          index: 'email_unique',
        });
        const plan = (users as EmbeddedCollection<BaseDocument>).queryPlan({ email: 'ann@x.edu' }).join('\n');
        expect(plan).toContain('users$email_unique');
      } finally {
        await store.close();
      }
      const db = new Database(join(dataDir, 'documents.sqlite'), { readonly: true });
      try {
        const sql = db
          .prepare(`SELECT sql FROM sqlite_master WHERE name = 'users$email_unique'`)
          .pluck()
          .get() as string;
        expect(sql).not.toContain('json_extract');
        expect(sql).toContain('"f:email"');
      } finally {
        db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('finishes close() in a process that has nothing else to do (the checkpoint worker is awaited)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-close-'));
    try {
      const index = fileURLToPath(new URL('./index.ts', import.meta.url));
      const script = `
        const { openEmbeddedStore } = await import(${JSON.stringify(index)});
        const store = await openEmbeddedStore({ dataDir: ${JSON.stringify(dataDir)} });
        await store.collection('leads').insertOne({ _id: 'l1' });
        await store.close();
        process.stdout.write('closed\\n');`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      expect(child.stdout, child.stderr).toBe('closed\n');
      expect(child.status).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('checkpoints the WAL from a worker thread, not in the writing connection', async () => {
    await withStore(async (store, dataDir) => {
      const docs = store.collection('docs');
      const text = 'x'.repeat(4000); // about one page per document
      for (let round = 0; round < 6; round++) {
        await docs.insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: `d${round}_${i}`, text })));
        await new Promise((resolve) => setTimeout(resolve, 300)); // the worker checkpoints meanwhile
      }
      // The writer's own threshold is far above what was written (3,000+ pages), so only the
      // worker can have copied the pages to the database file and let the WAL start over.
      const walBytes = statSync(join(dataDir, 'documents.sqlite-wal')).size;
      const fileBytes = statSync(join(dataDir, 'documents.sqlite')).size;
      expect(fileBytes).toBeGreaterThan(3_000 * 4000);
      expect(walBytes).toBeLessThan(fileBytes / 2);
      expect(await docs.countDocuments({})).toBe(3_000);
    });
  });

  it('reopened store still sweeps TTL indexes declared before the restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'embedded-store-ttl-'));
    try {
      const first = await openEmbeddedStore({ dataDir });
      await first.collection('sessions').createIndex({ keys: { at: 1 }, expireAfterSeconds: 1 });
      await first.collection('sessions').insertOne({ _id: 's', at: new Date(Date.now() - 10_000) });
      await first.close();
      const second = await openEmbeddedStore({ dataDir });
      expect(await second.sweepExpired()).toBe(1);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
