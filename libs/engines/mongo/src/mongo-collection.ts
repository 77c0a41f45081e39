/**
 * A port collection over the official driver. The port is a subset of the collection API, so
 * most methods pass straight through; what this adds is the DuplicateKeyError mapping, TTL
 * bookkeeping (see mongo-store.ts) and explainIndexes.
 */
import {
  type BaseDocument,
  type BulkWriteOperation,
  type BulkWriteResult,
  DuplicateKeyError,
  type Collection,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '@leadstream/ports';
import { type Collection as DriverCollection, type Document, type Filter as DriverFilter, MongoServerError } from 'mongodb';
import { indexNamesFromExplain } from './explain-indexes';
import { mapMongoError, mapped } from './mongo-errors';

/** What a collection needs from the store that owns the client. */
export interface MongoCollectionHost {
  /** True on FerretDB, which scans for `_id: {$in}` but looks up `_id` equality. */
  readonly idListAsLookups: boolean;
  /**
   * True on FerretDB 1.24: an upsert that inserts stores the document without the top-level
   * null fields of its $setOnInsert (nested ones are kept). The collection then sets them on the
   * inserted document in a second write.
   */
  readonly upsertDropsNulls: boolean;
  /** Remembers a TTL index so the store's own sweep enforces it. */
  recordTtlIndex(collection: string, name: string, field: string, expireAfterSeconds: number): Promise<void>;
  warn(obj: object, msg: string): void;
}

/** MongoDB's NotImplemented; FerretDB 1.24 answers it to `expireAfterSeconds`. */
const NOT_IMPLEMENTED = 238;

function valueAt(doc: BaseDocument, path: string): unknown {
  let node: unknown = doc;
  for (const segment of path.split('.')) node = node !== null && typeof node === 'object' ? (node as Document)[segment] : undefined;
  return node;
}

// The port's Filter and Update are subsets of the driver's types for any document shape.
const asFilter = (filter: Filter): DriverFilter<BaseDocument> => filter;
const asUpdate = (update: Update): Document => update;

/** The top-level fields of an update's $setOnInsert whose value is null, or null when there are none. */
function nullsOnInsert(update: Update): Record<string, null> | null {
  const onInsert = update.$setOnInsert;
  if (!onInsert) return null;
  const nulls = Object.keys(onInsert).filter((field) => onInsert[field] === null && field !== '_id');
  return nulls.length === 0 ? null : Object.fromEntries(nulls.map((field) => [field, null]));
}

/** The ids of a filter that is exactly `{_id: {$in: [...strings]}}`, else undefined. */
function idList(filter: Filter): string[] | undefined {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return undefined;
  const condition = filter['_id'];
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition) || condition instanceof Date) return undefined;
  const operators = Object.keys(condition);
  const values = (condition as { $in?: unknown }).$in;
  if (operators.length !== 1 || !Array.isArray(values) || !values.every((value) => typeof value === 'string')) return undefined;
  return [...new Set(values)];
}

function findOptions(options: FindOptions): { sort?: Document; skip?: number; limit?: number } {
  const out: { sort?: Document; skip?: number; limit?: number } = {};
  if (options.sort) out.sort = options.sort;
  if (options.skip) out.skip = options.skip;
  if (options.limit) out.limit = options.limit;
  return out;
}

export class MongoCollection<T extends BaseDocument> implements Collection<T> {
  constructor(
    private readonly driver: DriverCollection<BaseDocument>,
    private readonly host: MongoCollectionHost,
  ) {}

  get name(): string {
    return this.driver.collectionName;
  }

  async insertOne(doc: T): Promise<void> {
    try {
      await this.driver.insertOne(doc);
    } catch (error) {
      throw await this.namedDuplicate(mapMongoError(this.name, error), doc);
    }
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return; // the driver refuses an empty batch
    try {
      await this.driver.insertMany(docs, { ordered: true });
    } catch (error) {
      // Ordered: the first write error is the one that stopped the batch.
      const failedAt = (error as { writeErrors?: { index?: number }[] }).writeErrors?.[0]?.index;
      throw await this.namedDuplicate(mapMongoError(this.name, error), failedAt === undefined ? undefined : docs[failedAt]);
    }
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return (await this.driver.findOne(asFilter(filter), findOptions(options))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const ids = idList(filter);
    if (ids && this.host.idListAsLookups && !options.sort && !options.skip && !options.limit) {
      // FerretDB 1.24 answers `_id: {$in}` by scanning the collection (56 ms for 10 ids among 200
      // documents, growing with the collection) but an `_id` equality from its primary key (5 ms):
      // a stage batch's prefetch sends one equality per id, side by side. MongoDB uses its _id
      // index for $in and gets the one query.
      const found = await Promise.all(ids.map((id) => this.driver.findOne({ _id: id })));
      return found.filter((doc): doc is NonNullable<typeof doc> => doc !== null) as T[];
    }
    return (await this.driver.find(asFilter(filter), findOptions(options)).toArray()) as T[];
  }

  async *iterate(filter: Filter, options: FindOptions & { batchSize?: number } = {}): AsyncIterable<T> {
    const cursor = this.driver.find(asFilter(filter), { ...findOptions(options), batchSize: options.batchSize ?? 500 });
    try {
      for await (const doc of cursor) yield doc as T;
    } finally {
      await cursor.close();
    }
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.driver.countDocuments(asFilter(filter));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const result = await mapped(this.name, () => this.driver.updateOne(asFilter(filter), asUpdate(update), { upsert: options.upsert ?? false }));
    if (result.upsertedId !== null) await this.restoreUpsertNulls([{ id: result.upsertedId, update }]);
    return {
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      upsertedId: result.upsertedId === null ? null : String(result.upsertedId),
    };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const result = await mapped(this.name, () => this.driver.updateMany(asFilter(filter), asUpdate(update)));
    return { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount, upsertedId: null };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const returnDocument = options.returnDocument ?? 'after';
    const result = await mapped(this.name, () =>
      this.driver.findOneAndUpdate(asFilter(filter), asUpdate(update), {
        upsert: options.upsert ?? false,
        returnDocument,
        ...(options.sort ? { sort: options.sort } : {}),
        includeResultMetadata: true,
      }),
    );
    const upsertedId: unknown = result.lastErrorObject?.['upserted'];
    if (upsertedId !== undefined && upsertedId !== null) {
      const nulls = await this.restoreUpsertNulls([{ id: upsertedId, update }]);
      if (nulls && result.value && returnDocument === 'after') return { ...result.value, ...nulls } as unknown as T;
    }
    return result.value as T | null;
  }

  async bulkWrite(operations: BulkWriteOperation<T>[]): Promise<BulkWriteResult> {
    if (operations.length === 0) return { insertedCount: 0, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    const driverOperations = operations.map((operation) =>
      'insertOne' in operation
        ? { insertOne: { document: operation.insertOne.document } }
        : { updateOne: { filter: asFilter(operation.updateOne.filter), update: asUpdate(operation.updateOne.update), upsert: operation.updateOne.upsert ?? false } },
    );
    const result = await mapped(this.name, () => this.driver.bulkWrite(driverOperations as Parameters<DriverCollection<BaseDocument>['bulkWrite']>[0], { ordered: true }));
    const upserted = Object.entries(result.upsertedIds).map(([index, id]) => ({ id, update: (operations[Number(index)] as { updateOne: { update: Update } }).updateOne.update }));
    if (upserted.length > 0) await this.restoreUpsertNulls(upserted);
    return { insertedCount: result.insertedCount, matchedCount: result.matchedCount, modifiedCount: result.modifiedCount, upsertedCount: result.upsertedCount };
  }

  /**
   * Sets the null fields of $setOnInsert on documents an upsert just inserted, where the server
   * left them out (FerretDB): one bulk write for all of them, each guarded by `$exists: false` so
   * a field written meanwhile is kept (if any guard failed, the fields are set one by one).
   * Returns the null fields of the last upsert (for findOneAndUpdate's answer), if any.
   */
  private async restoreUpsertNulls(inserted: Array<{ id: unknown; update: Update }>): Promise<Record<string, null> | null> {
    if (!this.host.upsertDropsNulls) return null;
    const restores = inserted.flatMap(({ id, update }) => {
      const nulls = nullsOnInsert(update);
      return nulls ? [{ id: id as string, nulls }] : [];
    });
    if (restores.length === 0) return null;
    const missing = (fields: string[]) => Object.fromEntries(fields.map((field) => [field, { $exists: false }]));
    const result = await mapped(this.name, () =>
      this.driver.bulkWrite(restores.map(({ id, nulls }) => ({ updateOne: { filter: { _id: id, ...missing(Object.keys(nulls)) }, update: { $set: nulls } } })), { ordered: false }),
    );
    if (result.matchedCount < restores.length) {
      const oneByOne = restores.flatMap(({ id, nulls }) => Object.keys(nulls).map((field) => ({ updateOne: { filter: { _id: id, ...missing([field]) }, update: { $set: { [field]: null } } } })));
      await mapped(this.name, () => this.driver.bulkWrite(oneByOne, { ordered: false }));
    }
    return restores.at(-1)!.nulls;
  }

  async deleteOne(filter: Filter): Promise<number> {
    return (await this.driver.deleteOne(asFilter(filter))).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.driver.deleteMany(asFilter(filter))).deletedCount;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const keys = Object.entries(spec.keys);
    if (keys.length === 0) throw new TypeError('an index needs at least one key');
    const name = spec.name ?? keys.map(([k, dir]) => `${k}_${dir}`).join('_');
    const options = { name, unique: spec.unique ?? false };
    if (spec.expireAfterSeconds === undefined) {
      await mapped(this.name, () => this.driver.createIndex(spec.keys, options));
      return;
    }
    const field = keys[0]![0];
    if (keys.length !== 1) throw new TypeError('a TTL index has exactly one key');
    try {
      await mapped(this.name, () => this.driver.createIndex(spec.keys, { ...options, expireAfterSeconds: spec.expireAfterSeconds }));
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NOT_IMPLEMENTED)) throw error;
      // FerretDB 1.x: a plain index, and the store's sweep does the expiring.
      this.host.warn({ collection: this.name, index: name }, 'server has no TTL indexes; the store sweep expires documents');
      await mapped(this.name, () => this.driver.createIndex(spec.keys, options));
    }
    // MongoDB's own TTL monitor runs only every 60 s; the sweep makes expiry prompt on both servers.
    await this.host.recordTtlIndex(this.name, name, field, spec.expireAfterSeconds);
  }

  /**
   * FerretDB 1.24 reports a duplicate insert without the index name. Callers need it (a repeated
   * `_id` is a replay, a repeated unique key is a real conflict), so find the unique index whose
   * keys another document already holds. Only runs on that error path.
   */
  private async namedDuplicate(error: unknown, doc: T | undefined): Promise<unknown> {
    if (!(error instanceof DuplicateKeyError) || error.index !== null || !doc) return error;
    const indexes = await this.driver.listIndexes().toArray().catch(() => []);
    for (const index of indexes as { name: string; key: Record<string, number>; unique?: boolean }[]) {
      if (index.name !== '_id_' && !index.unique) continue;
      const filter: Document = index.name === '_id_' ? { _id: doc._id } : { _id: { $ne: doc._id } };
      for (const path of Object.keys(index.key)) if (path !== '_id') filter[path] = valueAt(doc, path) ?? null;
      if (await this.driver.findOne(filter, { projection: { _id: 1 } })) {
        return new DuplicateKeyError(this.name, index.name, error.message);
      }
    }
    return error;
  }

  async explainIndexes(filter: Filter, options: FindOptions = {}): Promise<string[]> {
    // skip does not change the plan, and FerretDB refuses an explained find whose skip the driver
    // sends as an int ("BSON field 'skip' is the wrong type 'int', expected type 'long'").
    const { skip: _skip, ...planned } = options;
    const explain = await this.driver.find(asFilter(filter), findOptions(planned)).explain('queryPlanner');
    return indexNamesFromExplain(explain);
  }
}
