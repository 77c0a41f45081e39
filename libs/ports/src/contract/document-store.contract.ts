/**
 * The contract every document-store engine passes (README.md "Engines and configuration"): one suite, run against
 * the embedded engine (SQLite) and against a MongoDB-protocol server (MongoDB or FerretDB).
 * It stays within what MongoDB and FerretDB 1.24 both do; docs/store.md lists the differences.
 * Collection names carry a per-run suffix so suites can share a server.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BaseDocument,
  type BulkWriteOperation,
  type Collection,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type FindOptions,
} from '../document-store.port';

export interface DocumentStoreHarness {
  store: DocumentStore;
  /** Closes `store` and opens the engine again on the same storage, as after a process restart. */
  reopen?: () => Promise<DocumentStore>;
  /** Closes whatever store is open and removes what the suite left behind. */
  cleanup: () => Promise<void>;
  /**
   * What this server is known not to do, each with the reason the skipped test prints. Only for
   * test servers with documented gaps (docs/store.md); a production engine declares none.
   */
  gaps?: {
    /** Filters are never answered from a secondary index (FerretDB 1.x: no filter pushdown). */
    indexPlans?: string;
    /** Conditional updates are not atomic, so compare-and-set cannot hold (FerretDB 1.24). */
    atomicUpdates?: string;
  };
}

export interface DocumentStoreFactoryOptions {
  /** The periodic TTL sweep interval the store must be opened with. */
  ttlSweepMs: number;
}

export type DocumentStoreFactory = (options: DocumentStoreFactoryOptions) => Promise<DocumentStoreHarness>;

interface Person extends BaseDocument {
  name: string;
  age: number;
  score?: number | string;
  active?: boolean | number;
  tags: string[];
  address?: { city: string; zip?: string };
  createdAt: Date | string;
  note?: string | null;
}

/** Five people chosen so every operator has something to include and something to leave out. */
const PEOPLE: Person[] = [
  {
    _id: 'p1',
    name: 'Ada',
    age: 36,
    score: 9.5,
    active: true,
    tags: ['math', 'poetry'],
    address: { city: 'London', zip: 'N1' },
    createdAt: new Date('2024-01-10T10:00:00.000Z'),
    note: null,
  },
  {
    _id: 'p2',
    name: 'alan',
    age: 41,
    score: 7,
    active: false,
    tags: ['math', 'crypto'],
    address: { city: 'Manchester' },
    createdAt: new Date('2024-03-05T08:30:00.000Z'),
  },
  {
    // score is a string: numeric ranges must not see it (type bracketing).
    _id: 'p3',
    name: 'Grace',
    age: 85,
    score: '8',
    active: true,
    tags: ['navy'],
    address: { city: 'New York', zip: '10001' },
    createdAt: new Date('2023-12-31T23:59:59.999Z'),
  },
  {
    // active is the number 1, which `{active: true}` must not match.
    _id: 'p4',
    name: 'Edsger',
    age: 72,
    active: 1,
    tags: [],
    createdAt: new Date('2024-06-01T00:00:00.000Z'),
    note: 'x',
  },
  {
    // createdAt is a string, which date comparisons must not see.
    _id: 'p5',
    name: 'Barbara',
    age: 36,
    score: 3,
    tags: ['math'],
    address: { city: 'london' },
    createdAt: '2024-02-01',
  },
];

const FILTER_CASES: [string, Filter, string[]][] = [
  ['implicit equality on a string', { name: 'Ada' }, ['p1']],
  ['implicit equality on a number', { age: 36 }, ['p1', 'p5']],
  ['equality on true does not match 1', { active: true }, ['p1', 'p3']],
  ['$eq false', { active: { $eq: false } }, ['p2']],
  ['$eq on a string', { name: { $eq: 'Grace' } }, ['p3']],
  ['$ne matches missing fields too', { note: { $ne: 'x' } }, ['p1', 'p2', 'p3', 'p5']],
  ['$ne on a string', { name: { $ne: 'Ada' } }, ['p2', 'p3', 'p4', 'p5']],
  ['null matches null and missing', { note: null }, ['p1', 'p2', 'p3', 'p5']],
  ['$eq null matches null and missing', { note: { $eq: null } }, ['p1', 'p2', 'p3', 'p5']],
  ['$ne null means present and not null', { note: { $ne: null } }, ['p4']],
  ['$exists true includes explicit null', { note: { $exists: true } }, ['p1', 'p4']],
  ['$exists false', { note: { $exists: false } }, ['p2', 'p3', 'p5']],
  ['$exists on a dotted path', { 'address.zip': { $exists: true } }, ['p1', 'p3']],
  ['$in on strings', { name: { $in: ['Ada', 'Grace', 'Nobody'] } }, ['p1', 'p3']],
  ['$in on numbers', { age: { $in: [41, 85] } }, ['p2', 'p3']],
  ['$in with null matches missing', { note: { $in: [null] } }, ['p1', 'p2', 'p3', 'p5']],
  ['$nin', { name: { $nin: ['Ada', 'alan'] } }, ['p3', 'p4', 'p5']],
  ['$nin matches missing fields', { note: { $nin: ['x'] } }, ['p1', 'p2', 'p3', 'p5']],
  ['$gt', { age: { $gt: 41 } }, ['p3', 'p4']],
  ['$gte', { age: { $gte: 41 } }, ['p2', 'p3', 'p4']],
  ['$lt', { age: { $lt: 41 } }, ['p1', 'p5']],
  ['$lte', { age: { $lte: 41 } }, ['p1', 'p2', 'p5']],
  ['two bounds on one field', { age: { $gt: 36, $lt: 80 } }, ['p2', 'p4']],
  ['numeric range skips strings', { score: { $gt: 5 } }, ['p1', 'p2']],
  ['string range skips numbers', { score: { $gte: '0' } }, ['p3']],
  ['string $gt is binary order', { name: { $gt: 'B' } }, ['p2', 'p3', 'p4', 'p5']],
  ['string $lt', { name: { $lt: 'C' } }, ['p1', 'p5']],
  ['date $gte skips strings', { createdAt: { $gte: new Date('2024-01-01T00:00:00.000Z') } }, ['p1', 'p2', 'p4']],
  ['date $lt skips strings', { createdAt: { $lt: new Date('2024-02-01T00:00:00.000Z') } }, ['p1', 'p3']],
  ['date equality', { createdAt: new Date('2024-03-05T08:30:00.000Z') }, ['p2']],
  [
    'date between',
    { createdAt: { $gt: new Date('2024-01-01T00:00:00.000Z'), $lt: new Date('2024-05-01T00:00:00.000Z') } },
    ['p1', 'p2'],
  ],
  ['$regex is case-sensitive', { name: { $regex: '^a' } }, ['p2']],
  ["$regex with $options 'i'", { name: { $regex: '^a', $options: 'i' } }, ['p1', 'p2']],
  ['$regex unanchored on a dotted path', { 'address.city': { $regex: 'ondo', $options: 'i' } }, ['p1', 'p5']],
  ['$all with one value', { tags: { $all: ['math'] } }, ['p1', 'p2', 'p5']],
  ['$all with two values', { tags: { $all: ['math', 'crypto'] } }, ['p2']],
  ['$all with values no array holds together', { tags: { $all: ['navy', 'math'] } }, []],
  ['dotted path equality', { 'address.city': 'London' }, ['p1']],
  ['$or', { $or: [{ name: 'Ada' }, { age: { $gt: 80 } }] }, ['p1', 'p3']],
  ['$and', { $and: [{ age: { $gte: 36 } }, { age: { $lte: 41 } }] }, ['p1', 'p2', 'p5']],
  ['$or inside $and', { $and: [{ $or: [{ age: 36 }, { age: 85 }] }, { tags: { $all: ['math'] } }] }, ['p1', 'p5']],
  ['implicit and of two fields', { age: 36, name: 'Barbara' }, ['p5']],
  ['implicit and with a dotted path', { active: true, 'address.city': 'New York' }, ['p3']],
  ['$in on _id', { _id: { $in: ['p1', 'p4', 'zz'] } }, ['p1', 'p4']],
  ['range on _id', { _id: { $gt: 'p3' } }, ['p4', 'p5']],
];

const SORT_CASES: [string, FindOptions, string[]][] = [
  ['ascending, two keys', { sort: { age: 1, name: 1 } }, ['p1', 'p5', 'p2', 'p4', 'p3']],
  ['descending, two keys', { sort: { age: -1, name: -1 } }, ['p3', 'p4', 'p2', 'p5', 'p1']],
  ['mixed directions', { sort: { age: 1, name: -1 } }, ['p5', 'p1', 'p2', 'p4', 'p3']],
  ['dotted path, missing first', { sort: { 'address.city': 1 } }, ['p4', 'p1', 'p2', 'p3', 'p5']],
  ['skip and limit', { sort: { age: 1, name: 1 }, skip: 1, limit: 2 }, ['p5', 'p2']],
  ['limit only', { sort: { age: -1 }, limit: 1 }, ['p3']],
];

const ids = (docs: BaseDocument[]): string[] => docs.map((d) => d._id).sort();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Registers the suite. Pass `undefined` as factory to skip it (the engine's server is absent;
 * the caller prints why).
 */
export function documentStoreContract(name: string, factory: DocumentStoreFactory | undefined): void {
  const ttlSweepMs = 200;

  describe.skipIf(!factory)(`document store contract: ${name}`, () => {
    let harness: DocumentStoreHarness;
    let store: DocumentStore;
    const run = `c${Date.now().toString(36)}${randomUUID().slice(0, 4)}`;
    const coll = <T extends BaseDocument>(suffix: string): Collection<T> => store.collection<T>(`${run}_${suffix}`);

    beforeAll(async () => {
      harness = await factory!({ ttlSweepMs });
      store = harness.store;
    });

    afterAll(async () => {
      await harness?.cleanup();
    });

    describe('writes and reads by _id', () => {
      it('insertOne then findOne returns the document, Dates as Dates', async () => {
        const c = coll<BaseDocument>('roundtrip');
        const doc = {
          _id: 'r1',
          text: 'héllo ✓',
          empty: '',
          int: 42,
          float: -1.25,
          yes: true,
          no: false,
          nothing: null,
          list: ['a', 2, false],
          nested: { deep: { value: 'v' }, at: new Date('2024-05-06T07:08:09.010Z') },
          when: new Date('2030-12-31T23:59:59.999Z'),
        };
        await c.insertOne(doc);
        const found = await c.findOne({ _id: 'r1' });
        expect(found).toEqual(doc);
        expect(found?.['when']).toBeInstanceOf(Date);
        expect(await c.findOne({ _id: 'r2' })).toBeNull();
      });

      it('keeps any text, control characters first included, as text: stored, found by equality, not a date', async () => {
        const c = coll<BaseDocument>('control_text');
        const texts = ['\u0001', '\u00012024-05-06T07:08:09.010Z', '\u0002x', '\u0002\u0001y'];
        await c.insertMany(texts.map((text, index) => ({ _id: `t${index}`, text, nested: { text } })));
        for (const [index, text] of texts.entries()) {
          expect(await c.findOne({ text })).toEqual({ _id: `t${index}`, text, nested: { text } });
          expect(await c.findOne({ 'nested.text': text }), text).toMatchObject({ _id: `t${index}` });
        }
        await c.updateOne({ _id: 't0' }, { $set: { text: '\u0001updated' } });
        expect((await c.findOne({ _id: 't0' }))?.['text']).toBe('\u0001updated');
        expect(await c.countDocuments({ text: { $gte: new Date('2000-01-01T00:00:00.000Z') } })).toBe(0);
      });

      it('insertMany stores every document; find by _id returns each', async () => {
        const c = coll<Person>('many');
        await c.insertMany(PEOPLE);
        expect(ids(await c.find({}))).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
        for (const person of PEOPLE) expect(await c.findOne({ _id: person._id })).toEqual(person);
      });

      it('a second document with the same _id raises DuplicateKeyError', async () => {
        const c = coll<BaseDocument>('dup_id');
        await c.insertOne({ _id: 'same', v: 1 });
        const error = await c.insertOne({ _id: 'same', v: 2 }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DuplicateKeyError);
        expect((error as DuplicateKeyError).collection).toBe(c.name);
        expect(await c.findOne({ _id: 'same' })).toEqual({ _id: 'same', v: 1 });
      });

      it('insertMany is ordered: documents before a duplicate stay, later ones are not written', async () => {
        const c = coll<BaseDocument>('ordered');
        await c.insertOne({ _id: 'b' });
        await expect(c.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }])).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(ids(await c.find({}))).toEqual(['a', 'b']);
      });
    });

    describe('filters', () => {
      let people: Collection<Person>;
      beforeAll(async () => {
        people = coll<Person>('people');
        await people.insertMany(PEOPLE);
      });

      it.for(FILTER_CASES)('%s', async ([, filter, expected]) => {
        expect(ids(await people.find(filter))).toEqual(expected);
        expect(await people.countDocuments(filter)).toBe(expected.length);
      });

      it('findOne returns the first match in sort order, or null', async () => {
        expect((await people.findOne({ age: 36 }, { sort: { name: -1 } }))?._id).toBe('p5');
        expect(await people.findOne({ name: 'Nobody' })).toBeNull();
      });

      it.for(SORT_CASES)('sort: %s', async ([, options, expected]) => {
        expect((await people.find({}, options)).map((d) => d._id)).toEqual(expected);
      });

      it('sorts by Date', async () => {
        const found = await people.find({ _id: { $ne: 'p5' } }, { sort: { createdAt: -1 } });
        expect(found.map((d) => d._id)).toEqual(['p4', 'p2', 'p1', 'p3']);
      });

      it('countDocuments counts all or matches', async () => {
        expect(await people.countDocuments({})).toBe(5);
        expect(await people.countDocuments({ tags: { $all: ['math'] }, age: { $lt: 40 } })).toBe(2);
      });
    });

    describe('updates', () => {
      it('$set, $unset, $inc and $push, including dotted paths', async () => {
        const c = coll<BaseDocument>('update_ops');
        await c.insertOne({
          _id: 'u',
          name: 'old',
          gone: 1,
          n: 5,
          list: ['a'],
          address: { city: 'Paris', zip: '75001' },
        });
        const result = await c.updateOne(
          { _id: 'u' },
          {
            $set: {
              name: 'new',
              'address.city': 'Lyon',
              'profile.level': 'gold',
              at: new Date('2024-01-01T00:00:00.000Z'),
            },
            $unset: { gone: 1, 'address.zip': '' },
            $inc: { n: 2, fresh: 3, 'stats.views': 1 },
            $push: { list: 'b', newList: { x: 1 } },
          },
        );
        expect(result).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await c.findOne({ _id: 'u' })).toEqual({
          _id: 'u',
          name: 'new',
          n: 7,
          fresh: 3,
          list: ['a', 'b'],
          newList: [{ x: 1 }],
          address: { city: 'Lyon' },
          profile: { level: 'gold' },
          stats: { views: 1 },
          at: new Date('2024-01-01T00:00:00.000Z'),
        });
      });

      it('updateOne reports no match; updateMany changes every match', async () => {
        const c = coll<BaseDocument>('update_many');
        await c.insertMany([
          { _id: 'a', s: 'x', n: 1 },
          { _id: 'b', s: 'x', n: 2 },
          { _id: 'c', s: 'y', n: 3 },
        ]);
        expect(await c.updateOne({ _id: 'zz' }, { $set: { s: 'z' } })).toEqual({
          matchedCount: 0,
          modifiedCount: 0,
          upsertedId: null,
        });
        const result = await c.updateMany({ s: 'x' }, { $inc: { n: 10 } });
        expect(result).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
        expect((await c.find({}, { sort: { _id: 1 } })).map((d) => d['n'])).toEqual([11, 12, 3]);
      });

      it('$setOnInsert does nothing when the document exists', async () => {
        const c = coll<BaseDocument>('soi_existing');
        await c.insertOne({ _id: 'e', created: 'first' });
        await c.updateOne(
          { _id: 'e' },
          { $set: { touched: true }, $setOnInsert: { created: 'second' } },
          { upsert: true },
        );
        expect(await c.findOne({ _id: 'e' })).toEqual({ _id: 'e', created: 'first', touched: true });
      });

      it('upsert inserts from the filter, $set and $setOnInsert; a second upsert only updates', async () => {
        const c = coll<BaseDocument>('upsert');
        const update = { $set: { status: 'seen' }, $setOnInsert: { firstSeen: 'one' }, $inc: { hits: 1 } };
        const first = await c.updateOne({ _id: 'k', org: 'o1' }, update, { upsert: true });
        expect(first).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: 'k' });
        expect(await c.findOne({ _id: 'k' })).toEqual({
          _id: 'k',
          org: 'o1',
          status: 'seen',
          firstSeen: 'one',
          hits: 1,
        });
        const second = await c.updateOne(
          { _id: 'k', org: 'o1' },
          { ...update, $setOnInsert: { firstSeen: 'two' } },
          { upsert: true },
        );
        expect(second).toEqual({ matchedCount: 1, modifiedCount: 1, upsertedId: null });
        expect(await c.findOne({ _id: 'k' })).toEqual({
          _id: 'k',
          org: 'o1',
          status: 'seen',
          firstSeen: 'one',
          hits: 2,
        });
      });

      it('an upsert keeps the null fields of $setOnInsert, top-level and nested, by every kind of write', async () => {
        const c = coll<BaseDocument>('upsert_nulls');
        const fields = { phone: null, program: 'MBA', custom: { a: null, b: 1 } };
        await c.updateOne({ _id: 'u1' }, { $setOnInsert: fields }, { upsert: true });
        await c.bulkWrite([{ updateOne: { filter: { _id: 'u2' }, update: { $setOnInsert: fields }, upsert: true } }]);
        await c.findOneAndUpdate({ _id: 'u3' }, { $setOnInsert: fields }, { upsert: true });
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual(['u1', 'u2', 'u3'].map((_id) => ({ _id, ...fields })));
        // On a document that exists, $setOnInsert still adds nothing, null fields included.
        await c.insertOne({ _id: 'u4', program: 'BA' });
        await c.updateOne({ _id: 'u4' }, { $setOnInsert: fields }, { upsert: true });
        expect(await c.findOne({ _id: 'u4' })).toEqual({ _id: 'u4', program: 'BA' });
      });

      it('upsert may take _id from $setOnInsert when the filter is a unique key', async () => {
        const c = coll<BaseDocument>('upsert_key');
        await c.updateOne({ email: 'a@x.edu' }, { $setOnInsert: { _id: 'id-1' }, $set: { seen: 1 } }, { upsert: true });
        expect(await c.find({})).toEqual([{ _id: 'id-1', email: 'a@x.edu', seen: 1 }]);
      });

      it('bulkWrite applies inserts, compare-and-set updates and upserts in order, counting each kind', async () => {
        const c = coll<BaseDocument>('bulk');
        await c.insertOne({ _id: 'a', v: 1, version: 1 });
        const result = await c.bulkWrite([
          { insertOne: { document: { _id: 'b', v: 2, version: 1 } } },
          { updateOne: { filter: { _id: 'a', version: 1 }, update: { $set: { v: 10, version: 2 } } } },
          // The version moved on: this compare-and-set matches nothing and changes nothing.
          { updateOne: { filter: { _id: 'a', version: 1 }, update: { $set: { v: 99, version: 2 } } } },
          { updateOne: { filter: { _id: 'c' }, update: { $setOnInsert: { v: 3 } }, upsert: true } },
          { updateOne: { filter: { _id: 'c' }, update: { $setOnInsert: { v: 4 } }, upsert: true } },
        ]);
        expect(result).toEqual({ insertedCount: 1, matchedCount: 2, modifiedCount: 1, upsertedCount: 1 });
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', v: 10, version: 2 },
          { _id: 'b', v: 2, version: 1 },
          { _id: 'c', v: 3 },
        ]);
      });

      it('bulkWrite stops at a duplicate key, keeping the operations before it', async () => {
        const c = coll<BaseDocument>('bulk_dup');
        await c.insertOne({ _id: 'x', v: 0 });
        await expect(
          c.bulkWrite([
            { insertOne: { document: { _id: 'y', v: 1 } } },
            { insertOne: { document: { _id: 'x', v: 2 } } },
            { insertOne: { document: { _id: 'z', v: 3 } } },
          ]),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'x', v: 0 },
          { _id: 'y', v: 1 },
        ]);
      });

      it("bulkWrite applies a stage batch's worth of updates and upserts (120), counting each and stopping at a late duplicate", async () => {
        // A stage's batch after a backlog is hundreds of leads in one bulk write. FerretDB 1.24
        // keeps a PostgreSQL connection for each update of one command until the command ends, from
        // a pool of 50: a bulk write of 50 updates or more waited forever, and the server with it.
        const c = coll<BaseDocument>('bulk_many');
        await c.insertMany(
          Array.from({ length: 100 }, (_, i) => ({ _id: `m${String(i).padStart(3, '0')}`, v: 0, version: 1 })),
        );
        const updates = Array.from({ length: 100 }, (_, i) => ({
          updateOne: {
            filter: { _id: `m${String(i).padStart(3, '0')}`, version: 1 },
            update: { $set: { v: i, version: 2 } },
          },
        }));
        const upserts = Array.from({ length: 20 }, (_, i) => ({
          updateOne: {
            filter: { _id: `n${String(i).padStart(3, '0')}` },
            update: { $setOnInsert: { v: 100 + i } },
            upsert: true,
          },
        }));
        expect(await c.bulkWrite([...updates, ...upserts])).toEqual({
          insertedCount: 0,
          matchedCount: 100,
          modifiedCount: 100,
          upsertedCount: 20,
        });
        const stored = await c.find({}, { sort: { _id: 1 } });
        expect(stored).toHaveLength(120);
        expect(stored.filter((doc) => doc['version'] === 2).map((doc) => doc['v'])).toEqual(
          Array.from({ length: 100 }, (_, i) => i),
        );
        expect(stored.filter((doc) => String(doc._id).startsWith('n')).map((doc) => doc['v'])).toEqual(
          Array.from({ length: 20 }, (_, i) => 100 + i),
        );
        // Ordered: a duplicate at the 61st operation keeps the 60 before it and nothing after.
        const inserts = Array.from({ length: 80 }, (_, i) => ({
          insertOne: { document: { _id: i === 60 ? 'm000' : `p${String(i).padStart(3, '0')}`, v: i } },
        }));
        await expect(c.bulkWrite(inserts)).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.countDocuments({ _id: { $in: inserts.map((op) => String(op.insertOne.document._id)) } })).toBe(
          61,
        );
        expect(await c.findOne({ _id: 'p059' })).toEqual({ _id: 'p059', v: 59 });
        expect(await c.findOne({ _id: 'p061' })).toBeNull();
      });

      it('findOneAndUpdate returns the new document, or the old one when asked', async () => {
        const c = coll<BaseDocument>('foau');
        await c.insertOne({ _id: 'f', n: 1 });
        expect(await c.findOneAndUpdate({ _id: 'f' }, { $inc: { n: 1 } })).toEqual({ _id: 'f', n: 2 });
        expect(await c.findOneAndUpdate({ _id: 'f' }, { $inc: { n: 1 } }, { returnDocument: 'before' })).toEqual({
          _id: 'f',
          n: 2,
        });
        expect(await c.findOne({ _id: 'f' })).toEqual({ _id: 'f', n: 3 });
        expect(await c.findOneAndUpdate({ _id: 'nope' }, { $inc: { n: 1 } })).toBeNull();
      });

      it('findOneAndUpdate with upsert inserts and returns the new document (null as "before")', async () => {
        const c = coll<BaseDocument>('foau_upsert');
        const after = await c.findOneAndUpdate({ _id: 'n1' }, { $setOnInsert: { v: 1 } }, { upsert: true });
        expect(after).toEqual({ _id: 'n1', v: 1 });
        const before = await c.findOneAndUpdate(
          { _id: 'n2' },
          { $setOnInsert: { v: 2 } },
          { upsert: true, returnDocument: 'before' },
        );
        expect(before).toBeNull();
        expect(await c.findOne({ _id: 'n2' })).toEqual({ _id: 'n2', v: 2 });
      });

      it('upserts of the same new document at the same moment are none of them refused', async () => {
        // Processes starting together record the same index; two first configuration changes of an
        // organization meet. A server that runs an upsert as a find and an insert lets one of them
        // meet the other's insert: the store settles that race, the caller never sees it.
        const c = coll<BaseDocument>('upsert_race');
        for (let round = 0; round < 5; round++) {
          const _id = `r${round}`;
          const update = { $set: { seen: true }, $setOnInsert: { first: round } };
          const answers = await Promise.all(
            Array.from({ length: 4 }, (_, i) =>
              i % 2 === 0
                ? c.updateOne({ _id }, update, { upsert: true })
                : c.findOneAndUpdate({ _id }, update, { upsert: true }),
            ),
          );
          expect(answers[1]).toEqual({ _id, seen: true, first: round });
          expect(answers[3]).toEqual({ _id, seen: true, first: round });
          expect(await c.find({ _id })).toEqual([{ _id, seen: true, first: round }]);
        }
      });

      it('upserts of the same new document at the same moment each apply once', async ({ skip }) => {
        if (harness.gaps?.atomicUpdates) skip(harness.gaps.atomicUpdates);
        const c = coll<BaseDocument & { n?: number }>('upsert_count');
        for (let round = 0; round < 5; round++) {
          const _id = `r${round}`;
          const seen = await Promise.all(
            Array.from({ length: 4 }, () =>
              c.findOneAndUpdate({ _id }, { $inc: { n: 1 } }, { upsert: true }).then((doc) => doc?.n),
            ),
          );
          // Every writer saw its own increment.
          expect([...seen].sort()).toEqual([1, 2, 3, 4]);
          expect(await c.findOne({ _id })).toEqual({ _id, n: 4 });
        }
      });

      it('findOneAndUpdate takes the first match in sort order', async () => {
        const c = coll<BaseDocument>('foau_sort');
        await c.insertMany([
          { _id: 'a', due: 3, state: 'ready' },
          { _id: 'b', due: 1, state: 'ready' },
          { _id: 'c', due: 2, state: 'ready' },
        ]);
        const claimed = await c.findOneAndUpdate(
          { state: 'ready' },
          { $set: { state: 'taken' } },
          { sort: { due: 1 } },
        );
        expect(claimed).toEqual({ _id: 'b', due: 1, state: 'taken' });
      });

      it('compare-and-set on a version: of concurrent writers exactly one wins', async ({ skip }) => {
        if (harness.gaps?.atomicUpdates) skip(harness.gaps.atomicUpdates);
        const c = coll<BaseDocument>('cas');
        await c.insertOne({ _id: 'actor', version: 1, owner: 'none' });
        const writers = ['w1', 'w2', 'w3', 'w4', 'w5', 'w6'];
        const results = await Promise.all(
          writers.map((w) =>
            c.findOneAndUpdate({ _id: 'actor', version: 1 }, { $set: { owner: w }, $inc: { version: 1 } }),
          ),
        );
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        expect(await c.findOne({ _id: 'actor' })).toEqual({ _id: 'actor', version: 2, owner: winners[0]?.['owner'] });
      });
    });

    describe('deletes', () => {
      it('deleteOne removes one match and reports 0 when none; deleteMany reports its count', async () => {
        const c = coll<BaseDocument>('deletes');
        await c.insertMany([
          { _id: 'a', s: 'x' },
          { _id: 'b', s: 'x' },
          { _id: 'c', s: 'x' },
          { _id: 'd', s: 'y' },
        ]);
        expect(await c.deleteOne({ _id: 'a' })).toBe(1);
        expect(await c.deleteOne({ _id: 'a' })).toBe(0);
        expect(await c.deleteMany({ s: 'x' })).toBe(2);
        expect(await c.deleteMany({ s: 'x' })).toBe(0);
        expect(ids(await c.find({}))).toEqual(['d']);
      });
    });

    describe('unique indexes', () => {
      it('raise DuplicateKeyError on insert and on update, and change nothing', async () => {
        const c = coll<BaseDocument>('unique');
        await c.createIndex({ keys: { org: 1, email: 1 }, unique: true, name: 'org_email' });
        await c.insertMany([
          { _id: 'a', org: 'o1', email: 'a@x.edu' },
          { _id: 'b', org: 'o1', email: 'b@x.edu' },
        ]);
        await c.insertOne({ _id: 'c', org: 'o2', email: 'a@x.edu' }); // other org: allowed

        const onInsert = await c.insertOne({ _id: 'd', org: 'o1', email: 'a@x.edu' }).catch((e: unknown) => e);
        expect(onInsert).toBeInstanceOf(DuplicateKeyError);
        expect(onInsert).toMatchObject({ collection: c.name, index: 'org_email', code: 'DUPLICATE_KEY' });

        const onUpdate = await c.updateOne({ _id: 'b' }, { $set: { email: 'a@x.edu' } }).catch((e: unknown) => e);
        expect(onUpdate).toBeInstanceOf(DuplicateKeyError);
        expect(onUpdate).toMatchObject({ collection: c.name, index: 'org_email' });

        await expect(c.findOneAndUpdate({ _id: 'c' }, { $set: { org: 'o1' } })).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(await c.findOne({ _id: 'b' })).toEqual({ _id: 'b', org: 'o1', email: 'b@x.edu' });
        expect(ids(await c.find({}))).toEqual(['a', 'b', 'c']);
      });

      it('creating the same index twice is harmless', async () => {
        const c = coll<BaseDocument>('unique_twice');
        await c.createIndex({ keys: { k: 1 }, unique: true });
        await c.createIndex({ keys: { k: 1 }, unique: true });
        await c.insertOne({ _id: 'a', k: 1 });
        await expect(c.insertOne({ _id: 'b', k: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);
      });
    });

    describe('upserts that only set on insert (idempotent records)', () => {
      it('insert once, leave a stored document alone, and refuse an _id stored with other filter fields', async () => {
        const c = coll<BaseDocument>('set_on_insert');
        const record = (text: string): BulkWriteOperation<BaseDocument> => ({
          updateOne: { filter: { _id: 'r1', org: 'o1' }, update: { $setOnInsert: { text } }, upsert: true },
        });
        expect(await c.bulkWrite([record('first')])).toMatchObject({ upsertedCount: 1, matchedCount: 0 });
        expect(await c.bulkWrite([record('second')])).toMatchObject({ upsertedCount: 0, matchedCount: 1 });
        expect(await c.findOne({ _id: 'r1' })).toEqual({ _id: 'r1', org: 'o1', text: 'first' });
        const again = await c.updateOne({ _id: 'r2', org: 'o1' }, { $setOnInsert: { text: 'x' } }, { upsert: true });
        expect(again).toMatchObject({ matchedCount: 0, upsertedId: 'r2' });
        // r1 is stored with org o1: a filter asking for org o2 matches nothing, and inserting r1 again is a duplicate.
        await expect(
          c.updateOne({ _id: 'r1', org: 'o2' }, { $setOnInsert: { text: 'y' } }, { upsert: true }),
        ).rejects.toBeInstanceOf(DuplicateKeyError);
        expect(await c.findOne({ _id: 'r1' })).toEqual({ _id: 'r1', org: 'o1', text: 'first' });
        expect(await c.countDocuments({})).toBe(2);
      });

      it('a batch of them keeps null fields, leaves stored ones alone and goes on past them, in order', async () => {
        const c = coll<BaseDocument>('set_on_insert_batch');
        const record = (id: string, text: string | null, org = 'o1'): BulkWriteOperation<BaseDocument> => ({
          updateOne: { filter: { _id: id, org }, update: { $setOnInsert: { org, text, n: 1 } }, upsert: true },
        });
        expect(await c.bulkWrite([record('a', null), record('b', 'b')])).toMatchObject({
          upsertedCount: 2,
          matchedCount: 0,
        });
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', org: 'o1', text: null, n: 1 });
        // b is stored: the records around it are inserted, b is matched and kept as it was.
        expect(await c.bulkWrite([record('c', 'c'), record('b', 'changed'), record('d', null)])).toMatchObject({
          upsertedCount: 2,
          matchedCount: 1,
        });
        expect(await c.find({}, { sort: { _id: 1 } })).toEqual([
          { _id: 'a', org: 'o1', text: null, n: 1 },
          { _id: 'b', org: 'o1', text: 'b', n: 1 },
          { _id: 'c', org: 'o1', text: 'c', n: 1 },
          { _id: 'd', org: 'o1', text: null, n: 1 },
        ]);
        // A stored _id under another filter is a duplicate, which stops the batch: e before it is
        // stored, f after it is not.
        await expect(c.bulkWrite([record('e', 'e'), record('a', 'x', 'o2'), record('f', 'f')])).rejects.toBeInstanceOf(
          DuplicateKeyError,
        );
        expect(ids(await c.find({}))).toEqual(['a', 'b', 'c', 'd', 'e']);
        expect(await c.findOne({ _id: 'a' })).toEqual({ _id: 'a', org: 'o1', text: null, n: 1 });
      });
    });

    describe('dropping an index', () => {
      it('drops a plain index by name (a unique one stops refusing), answers false when there is none, and keeps the documents', async () => {
        const c = coll<BaseDocument>('drop_index');
        await c.createIndex({ keys: { k: 1 }, unique: true, name: 'k_unique' });
        await c.createIndex({ keys: { other: 1 }, name: 'other' });
        await c.insertOne({ _id: 'a', k: 1, other: 'x' });
        await expect(c.insertOne({ _id: 'b', k: 1 })).rejects.toBeInstanceOf(DuplicateKeyError);

        expect(await c.dropIndex('k_unique')).toBe(true);
        await c.insertOne({ _id: 'b', k: 1 });
        expect(ids(await c.find({ k: 1 }))).toEqual(['a', 'b']);
        expect(await c.dropIndex('k_unique')).toBe(false);
        expect(await c.dropIndex('never_made')).toBe(false);
        expect(await coll<BaseDocument>('drop_index_no_collection').dropIndex('k_unique')).toBe(false);
        // The other index still answers, and a dropped index can be made again.
        expect(ids(await c.find({ other: 'x' }))).toEqual(['a']);
        await c.createIndex({ keys: { k: 1 }, name: 'k_unique' });
        expect(ids(await c.find({ k: 1 }))).toEqual(['a', 'b']);
        if (harness.reopen) {
          expect(await c.dropIndex('k_unique')).toBe(true);
          store = await harness.reopen();
          const reopened = coll<BaseDocument>('drop_index');
          await reopened.insertOne({ _id: 'c', k: 1 });
          expect(await reopened.dropIndex('k_unique')).toBe(false);
        }
      });

      it('refuses to drop a TTL or a substring index', async () => {
        const c = coll<BaseDocument>('drop_special');
        await c.createIndex({ keys: { expiresAt: 1 }, expireAfterSeconds: 60, name: 'expires' });
        await c.createIndex({ keys: { org: 1, terms: 1 }, name: 'terms_substring', substring: true });
        await expect(c.dropIndex('expires')).rejects.toThrow(TypeError);
        await expect(c.dropIndex('terms_substring')).rejects.toThrow(TypeError);
      });
    });

    describe('TTL indexes', () => {
      const minutesAgo = (m: number): Date => new Date(Date.now() - m * 60_000);

      it('sweepExpired deletes dates older than the TTL and keeps fresh ones and non-dates', async () => {
        const c = coll<BaseDocument>('ttl');
        await c.createIndex({ keys: { expiresAt: 1 }, expireAfterSeconds: 60 });
        await c.insertMany([
          { _id: 'old', expiresAt: minutesAgo(10) },
          { _id: 'fresh', expiresAt: minutesAgo(0.1) },
          { _id: 'future', expiresAt: new Date(Date.now() + 3_600_000) },
          { _id: 'not-a-date', expiresAt: '2000-01-01' },
          { _id: 'a-number', expiresAt: 0 },
          { _id: 'missing' },
        ]);
        await store.sweepExpired();
        expect(ids(await c.find({}))).toEqual(['a-number', 'fresh', 'future', 'missing', 'not-a-date']);
      });

      it('the periodic sweep deletes expired documents without being asked', async () => {
        const c = coll<BaseDocument>('ttl_periodic');
        await c.createIndex({ keys: { at: 1 }, expireAfterSeconds: 0 });
        await c.insertMany([
          { _id: 'old', at: minutesAgo(1) },
          { _id: 'later', at: new Date(Date.now() + 3_600_000) },
        ]);
        const deadline = Date.now() + ttlSweepMs * 25;
        while ((await c.countDocuments({ _id: 'old' })) > 0 && Date.now() < deadline) await sleep(ttlSweepMs / 2);
        expect(ids(await c.find({}))).toEqual(['later']);
      });
    });

    describe('iterate', () => {
      it('streams every match in sort order, while the caller writes', async () => {
        const c = coll<BaseDocument>('iterate');
        const total = 300;
        await c.insertMany(
          Array.from({ length: total }, (_, i) => ({ _id: `d${String(i).padStart(3, '0')}`, n: i, even: i % 2 === 0 })),
        );
        const seen: number[] = [];
        for await (const doc of c.iterate({ n: { $gte: 50 } }, { sort: { n: -1 }, batchSize: 16 })) {
          seen.push(doc['n'] as number);
          // Writing mid-iteration must work (the embedded engine streams from its own connection).
          await c.updateOne({ _id: doc._id }, { $set: { visited: true } });
        }
        expect(seen).toEqual(Array.from({ length: total - 50 }, (_, i) => total - 1 - i));
        expect(await c.countDocuments({ visited: true })).toBe(total - 50);
      });

      it('stops cleanly when the caller breaks out', async () => {
        const c = coll<BaseDocument>('iterate_break');
        await c.insertMany([{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]);
        const seen: string[] = [];
        for await (const doc of c.iterate({}, { sort: { _id: 1 } })) {
          seen.push(doc._id);
          if (seen.length === 2) break;
        }
        expect(seen).toEqual(['a', 'b']);
        await c.insertOne({ _id: 'd' }); // the store is still usable
        expect(await c.countDocuments({})).toBe(4);
      });
    });

    describe('indexes answer filters', () => {
      it('explainIndexes names the index for filters on indexed fields, and not for others', async ({ skip }) => {
        if (harness.gaps?.indexPlans) skip(harness.gaps.indexPlans);
        const c = coll<BaseDocument>('explain');
        await c.createIndex({ keys: { status: 1, createdAt: -1 }, name: 'status_created' });
        await c.createIndex({ keys: { email: 1 }, unique: true, name: 'email_unique' });
        await c.insertMany(
          Array.from({ length: 50 }, (_, i) => ({
            _id: `e${i}`,
            status: i % 5 === 0 ? 'new' : 'done',
            email: `u${i}@x.edu`,
            other: i,
            createdAt: new Date(1_700_000_000_000 + i),
          })),
        );
        expect(await c.explainIndexes({ status: 'new' }, { sort: { createdAt: -1 }, limit: 10 })).toContain(
          'status_created',
        );
        expect(await c.explainIndexes({ status: { $in: ['new', 'done'] } })).toContain('status_created');
        expect(await c.explainIndexes({ email: 'u7@x.edu' })).toEqual(['email_unique']);
        expect(await c.explainIndexes({ other: 7 })).toEqual([]);
      });

      it('a sparse index answers exactly what a plain one does, serves ranges, and can replace a plain index of its name', async ({
        skip,
      }) => {
        const c = coll<BaseDocument>('sparse');
        await c.createIndex({ keys: { at: 1 }, name: 'at' });
        await c.createIndex({ keys: { at: 1 }, name: 'at', sparse: true });
        await c.insertMany([
          { _id: 'none' },
          { _id: 'null', at: null },
          { _id: 'early', at: new Date('2026-01-01T00:00:00.000Z') },
          { _id: 'late', at: new Date('2026-06-01T00:00:00.000Z') },
        ]);
        expect(ids(await c.find({ at: { $lt: new Date('2026-03-01') } }))).toEqual(['early']);
        expect(ids(await c.find({ at: new Date('2026-06-01T00:00:00.000Z') }))).toEqual(['late']);
        expect(ids(await c.find({ at: null }))).toEqual(['none', 'null']);
        expect(await c.countDocuments({})).toBe(4);
        if (harness.gaps?.indexPlans) skip(harness.gaps.indexPlans);
        expect(await c.explainIndexes({ at: { $lt: new Date('2026-03-01') } })).toEqual(['at']);
      });

      it('explainIndexes answers for a page that skips (the plan of find with skip and limit)', async () => {
        const c = coll<BaseDocument>('explain_skip');
        await c.createIndex({ keys: { status: 1, createdAt: -1 }, name: 'status_created' });
        await c.insertMany(
          Array.from({ length: 30 }, (_, i) => ({
            _id: `s${i}`,
            status: 'new',
            createdAt: new Date(1_700_000_000_000 + i),
          })),
        );
        const names = await c.explainIndexes({ status: 'new' }, { sort: { createdAt: -1 }, skip: 20, limit: 5 });
        expect(Array.isArray(names)).toBe(true);
        if (!harness.gaps?.indexPlans) expect(names).toContain('status_created');
      });
    });

    describe('$contains and substring indexes', () => {
      interface Card extends BaseDocument {
        org: string;
        terms?: string[] | string | null;
        digits?: string | null;
        n?: number;
      }
      const CARDS: Card[] = [
        { _id: 'c1', org: 'o', terms: ['ada.lovelace@gmail.com', 'ada lovelace'], digits: '14155552671' },
        { _id: 'c2', org: 'o', terms: ['alan@example.edu', 'alan turing'], digits: '442079460958' },
        { _id: 'c3', org: 'o', terms: 'grace+navy@example.edu (hopper)', digits: null },
        { _id: 'c4', org: 'o', terms: ['zoe lopez', 'a.b*c?[d]^$|x\\y"z\''] },
        { _id: 'c5', org: 'other', terms: ['ada@gmail.com'], digits: '14155552671' },
        { _id: 'c6', org: 'o', terms: null, n: 5 },
      ];
      // [query, ids of org 'o' whose terms contain it]: anywhere in any element, exact characters.
      const CONTAINS_CASES: Array<[string, string[]]> = [
        ['gmail', ['c1']],
        ['example.edu', ['c2', 'c3']],
        ['lovelace', ['c1']],
        ['a lo', ['c1']],
        ['GMAIL', []],
        ['ada.lovelace@gmail.com', ['c1']],
        ['ada.lovelace@gmail.comx', []],
        ['e+navy@', ['c3']],
        ['(hopper)', ['c3']],
        ['b*c?[d]^$|x\\y"z\'', ['c4']],
        ['.', ['c1', 'c2', 'c3', 'c4']],
        ['ur', ['c2']],
        ['opez', ['c4']],
        // Text spread over two elements is not in either.
        ['lovelaceada', []],
        ['com ada', []],
      ];
      let cards: Collection<Card>;
      let plain: Collection<Card>;
      beforeAll(async () => {
        cards = coll<Card>('contains');
        await cards.createIndex({ keys: { org: 1, terms: 1 }, name: 'org_terms_substring', substring: true });
        await cards.createIndex({ keys: { org: 1, digits: 1 }, name: 'org_digits_substring', substring: true });
        await cards.insertMany(CARDS);
        plain = coll<Card>('contains_plain');
        await plain.insertMany(CARDS);
      });

      it.for(CONTAINS_CASES)(
        'finds %j in a string or an element of an array, with or without the index',
        async ([text, expected]) => {
          for (const c of [cards, plain]) {
            expect(ids(await c.find({ org: 'o', terms: { $contains: text } })), c.name).toEqual(expected);
            expect(await c.countDocuments({ org: 'o', terms: { $contains: text } }), c.name).toBe(expected.length);
          }
        },
      );

      it('combines with other conditions, $or branches and sorts', async () => {
        const either = {
          $or: [
            { org: 'o', terms: { $contains: 'example' } },
            { org: 'o', digits: { $contains: '5552671' } },
          ],
        };
        expect((await cards.find(either, { sort: { _id: -1 }, limit: 2 })).map((d) => d._id)).toEqual(['c3', 'c2']);
        expect(await cards.countDocuments(either)).toBe(3);
        expect(ids(await cards.find({ digits: { $contains: '5552671' } }))).toEqual(['c1', 'c5']);
        expect(ids(await cards.find({ org: 'o', terms: { $contains: 'ada' }, digits: { $contains: '2671' } }))).toEqual(
          ['c1'],
        );
      });

      it('reads back every document exactly as written: the index adds no field', async () => {
        expect(await cards.find({}, { sort: { _id: 1 } })).toEqual(CARDS);
        expect(await cards.findOne({ _id: 'c1' })).toEqual(CARDS[0]);
        const streamed: BaseDocument[] = [];
        for await (const doc of cards.iterate({ org: 'o', terms: { $contains: 'alan' } })) streamed.push(doc);
        expect(streamed).toEqual([CARDS[1]]);
      });

      it('follows every write: inserts, $set, $unset, updateMany, bulkWrite, findOneAndUpdate, upserts and deletes', async () => {
        const c = coll<Card>('contains_writes');
        await c.createIndex({ keys: { org: 1, terms: 1 }, name: 'org_terms_substring', substring: true });
        const found = async (text: string): Promise<string[]> =>
          ids(await c.find({ org: 'o', terms: { $contains: text } }));
        await c.insertOne({ _id: 'w1', org: 'o', terms: ['first@gmail.com'] });
        await c.insertMany([
          { _id: 'w2', org: 'o', terms: ['second@gmail.com'] },
          { _id: 'w3', org: 'o' },
        ]);
        expect(await found('gmail')).toEqual(['w1', 'w2']);

        await c.updateOne({ _id: 'w1' }, { $set: { terms: ['first@yahoo.com'] } });
        expect(await found('gmail')).toEqual(['w2']);
        expect(await found('yahoo')).toEqual(['w1']);
        await c.updateOne({ _id: 'w2' }, { $set: { n: 1 } }); // another field: the terms stay found
        expect(await found('second')).toEqual(['w2']);

        await c.updateOne({ _id: 'w2' }, { $unset: { terms: 1 } });
        expect(await found('second')).toEqual([]);
        await c.updateMany({ org: 'o' }, { $set: { terms: 'shared@proton.me' } });
        expect(await found('proton')).toEqual(['w1', 'w2', 'w3']);
        expect(await found('yahoo')).toEqual([]);

        await c.bulkWrite([
          { insertOne: { document: { _id: 'w4', org: 'o', terms: ['fourth@outlook.com'] } } },
          { updateOne: { filter: { _id: 'w1' }, update: { $set: { terms: ['renamed@outlook.com'] } } } },
          {
            updateOne: {
              filter: { _id: 'w5' },
              update: { $setOnInsert: { org: 'o', terms: ['fifth@outlook.com'] } },
              upsert: true,
            },
          },
        ]);
        expect(await found('outlook')).toEqual(['w1', 'w4', 'w5']);
        expect(await c.findOneAndUpdate({ _id: 'w4' }, { $set: { terms: ['fourth@icloud.com'] } })).toEqual({
          _id: 'w4',
          org: 'o',
          terms: ['fourth@icloud.com'],
        });
        expect(await c.findOneAndUpdate({ _id: 'w4' }, { $set: { n: 2 } }, { returnDocument: 'before' })).toEqual({
          _id: 'w4',
          org: 'o',
          terms: ['fourth@icloud.com'],
        });
        await c.updateOne({ _id: 'w6' }, { $set: { org: 'o', terms: ['sixth@icloud.com'] } }, { upsert: true });
        await c.findOneAndUpdate(
          { _id: 'w7' },
          { $setOnInsert: { org: 'o', terms: ['seventh@icloud.com'] } },
          { upsert: true },
        );
        expect(await found('icloud')).toEqual(['w4', 'w6', 'w7']);
        expect(await found('outlook')).toEqual(['w1', 'w5']);

        expect(await c.deleteOne({ _id: 'w4' })).toBe(1);
        expect(await c.deleteMany({ _id: { $in: ['w1', 'w6'] } })).toBe(2);
        expect(await found('icloud')).toEqual(['w7']);
        expect(await found('outlook')).toEqual(['w5']);
        // A new document in a deleted one's place is found by its own text only.
        await c.insertOne({ _id: 'w4', org: 'o', terms: ['again@fastmail.com'] });
        expect(await found('icloud')).toEqual(['w7']);
        expect(await found('fastmail')).toEqual(['w4']);
        expect(await c.find({ _id: 'w4' })).toEqual([{ _id: 'w4', org: 'o', terms: ['again@fastmail.com'] }]);
      });

      it('finds the documents stored before the index was made, and those a TTL sweep removes are gone', async () => {
        const c = coll<Card & { expiresAt?: Date }>('contains_later');
        await c.insertMany([
          { _id: 'b1', org: 'o', terms: ['before@gmail.com'] },
          { _id: 'b2', org: 'o', terms: ['expired@gmail.com'], expiresAt: new Date(Date.now() - 3_600_000) },
        ]);
        await c.createIndex({ keys: { org: 1, terms: 1 }, name: 'org_terms_substring', substring: true });
        await c.createIndex({ keys: { org: 1, terms: 1 }, name: 'org_terms_substring', substring: true }); // idempotent
        await c.createIndex({ keys: { expiresAt: 1 }, expireAfterSeconds: 0 });
        expect(ids(await c.find({ org: 'o', terms: { $contains: 'gmail' } }))).toEqual(['b1', 'b2']);
        await store.sweepExpired();
        expect(ids(await c.find({ org: 'o', terms: { $contains: 'gmail' } }))).toEqual(['b1']);
        expect(await c.find({})).toEqual([{ _id: 'b1', org: 'o', terms: ['before@gmail.com'] }]);
      });

      it('explainIndexes names the substring index for 3 or more characters', async ({ skip }) => {
        if (harness.gaps?.indexPlans) skip(harness.gaps.indexPlans);
        expect(await cards.explainIndexes({ org: 'o', terms: { $contains: 'gmail' } })).toEqual([
          'org_terms_substring',
        ]);
        const either = {
          $or: [
            { org: 'o', terms: { $contains: 'gmail' } },
            { org: 'o', digits: { $contains: '2671' } },
          ],
        };
        expect((await cards.explainIndexes(either, { sort: { n: -1 }, limit: 20 })).sort()).toEqual([
          'org_digits_substring',
          'org_terms_substring',
        ]);
      });

      it('a reopened store keeps its substring indexes following writes', async ({ skip }) => {
        if (!harness.reopen) skip('the harness cannot reopen this engine');
        store = await harness.reopen!();
        const c = coll<Card>('contains_writes'); // indexed and written by the test above
        await c.updateOne({ _id: 'w5' }, { $set: { terms: ['after@reopen.org'] } });
        await c.insertOne({ _id: 'w9', org: 'o', terms: ['nine@reopen.org'] });
        expect(ids(await c.find({ org: 'o', terms: { $contains: 'reopen' } }))).toEqual(['w5', 'w9']);
        expect(ids(await c.find({ org: 'o', terms: { $contains: 'outlook' } }))).toEqual([]);
        expect(await c.findOne({ _id: 'w9' })).toEqual({ _id: 'w9', org: 'o', terms: ['nine@reopen.org'] });
      });
    });

    describe('durability', () => {
      it('a reopened store finds every acknowledged write', async ({ skip }) => {
        if (!harness.reopen) skip('the harness cannot reopen this engine');
        const c = coll<BaseDocument>('reopen');
        await c.insertMany(
          Array.from({ length: 20 }, (_, i) => ({ _id: `r${i}`, i, at: new Date(1_700_000_000_000 + i) })),
        );
        await c.updateOne({ _id: 'r3' }, { $set: { changed: true } });
        await c.deleteOne({ _id: 'r4' });
        store = await harness.reopen!();
        const again = coll<BaseDocument>('reopen');
        expect(await again.countDocuments({})).toBe(19);
        expect(await again.findOne({ _id: 'r3' })).toEqual({
          _id: 'r3',
          i: 3,
          at: new Date(1_700_000_000_003),
          changed: true,
        });
        expect(await again.findOne({ _id: 'r4' })).toBeNull();
      });
    });
  });
}
