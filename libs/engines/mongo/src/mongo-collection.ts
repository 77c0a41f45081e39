/**
 * A port collection over the official driver. The port is a subset of the collection API, so
 * most methods pass straight through; what this adds is the DuplicateKeyError mapping, TTL
 * bookkeeping (see mongo-store.ts), substring indexes and `$contains` (substring-keys.ts) and
 * explainIndexes.
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
import {
  type Collection as DriverCollection,
  type Document,
  type Filter as DriverFilter,
  MongoBulkWriteError,
  MongoServerError,
} from 'mongodb';
import { commandRuns, type CommandSlots, sendConcurrently } from './command-runs';
import { indexNamesFromExplain } from './explain-indexes';
import { mapMongoError, mapped } from './mongo-errors';
import {
  SUBSTRINGS_FIELD,
  substringField,
  substringKeys,
  translateContains,
  updateWithSubstringKeys,
  withSubstringKeys,
} from './substring-keys';

type DriverBulkOperations = Parameters<DriverCollection<BaseDocument>['bulkWrite']>[0];
type MongoBulkResult = Awaited<ReturnType<DriverCollection<BaseDocument>['bulkWrite']>>;

/** What a collection needs from the store that owns the client. */
export interface MongoCollectionHost {
  /** True on FerretDB, where a few `_id` equalities cost less than one `_id: {$in}` (ID_LOOKUPS_MAX). */
  readonly idListAsLookups: boolean;
  /**
   * True on FerretDB 1.24: an upsert that inserts stores the document without the top-level
   * null fields of its $setOnInsert (nested ones are kept). The collection then sets them on the
   * inserted document in a second write.
   */
  readonly upsertDropsNulls: boolean;
  /**
   * The most write operations to send in one command (undefined: no limit). FerretDB 1.24 keeps a
   * PostgreSQL connection for each update of a command until the command ends, and takes another
   * to write, from a pool of 50: a bulk write of 50 updates, or a few large ones at once, wait for a
   * connection forever, and every other request of the server behind them (found by the chaos
   * suite, docs/chaos.md).
   */
  readonly bulkWriteChunk: number | undefined;
  /**
   * Where commands carry one write each (FerretDB): how many of a bulk write's commands the store
   * has in flight at once, across its collections (command-runs.ts).
   */
  readonly commandSlots: CommandSlots | undefined;
  /** Remembers a TTL index so the store's own sweep enforces it. */
  recordTtlIndex(collection: string, name: string, field: string, expireAfterSeconds: number): Promise<void>;
  /** Whether recordTtlIndex was called for that index (FerretDB keeps no expireAfterSeconds). */
  hasTtlIndex(collection: string, name: string): Promise<boolean>;
  /** The collection's substring-indexed fields, as recorded when the store opened or since. */
  substringFields(collection: string): ReadonlySet<string>;
  /** Records a substring index, so every store opened later writes its keys too. */
  recordSubstringIndex(collection: string, field: string): Promise<void>;
  warn(obj: object, msg: string): void;
}

/**
 * Up to this many ids, a find by `_id: {$in}` on FerretDB goes out as one `_id` equality a id, side
 * by side; more go out as the one $in query. FerretDB 1.24 scans the collection for both (its
 * PostgreSQL filter is a jsonb `@>` that no index serves): an equality is a scan in PostgreSQL
 * (about 10 ms an id among 4,500 webhook delivery documents), the $in one pass whose documents
 * FerretDB decodes itself (about 2.2 s there for any number of ids; 1 s among 1,500). Measured
 * crossing: 150-200 ids at both sizes; a deliver batch that fell behind asks for 500.
 */
export const ID_LOOKUPS_MAX = 150;

/** MongoDB's NotImplemented; FerretDB 1.24 answers it to `expireAfterSeconds`. */
const NOT_IMPLEMENTED = 238;
/** listIndexes on a collection that was never created. */
const NAMESPACE_NOT_FOUND = 26;
/** The server's IndexNotFound: dropIndex of an index that is not there (any more). */
const INDEX_NOT_FOUND = 27;

function valueAt(doc: BaseDocument, path: string): unknown {
  let node: unknown = doc;
  for (const segment of path.split('.'))
    node = node !== null && typeof node === 'object' ? (node as Document)[segment] : undefined;
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

/**
 * The documents a bulk write of idempotent records would insert, when every operation is one: an
 * upsert whose filter is equalities on top-level fields (strings, numbers, booleans) including a
 * string `_id`, and whose update only sets top-level fields on insert (a field of both with the
 * same value). Else undefined.
 */
function insertsIfAbsent(operations: readonly BulkWriteOperation<BaseDocument>[]): BaseDocument[] | undefined {
  const docs: BaseDocument[] = [];
  for (const operation of operations) {
    if (!('updateOne' in operation)) return undefined;
    const { filter, update, upsert } = operation.updateOne;
    if (!upsert || typeof filter['_id'] !== 'string') return undefined;
    const operators = Object.keys(update);
    if (operators.length !== 1 || operators[0] !== '$setOnInsert') return undefined;
    const doc: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(filter)) {
      if (field.startsWith('$') || field.includes('.')) return undefined;
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
      doc[field] = value;
    }
    for (const [field, value] of Object.entries(update.$setOnInsert ?? {})) {
      if (field.startsWith('$') || field.includes('.')) return undefined;
      if (field in doc && doc[field] !== value) return undefined;
      doc[field] = value;
    }
    docs.push(doc as BaseDocument);
  }
  return docs;
}

/**
 * The place of the insert a duplicate key refused in an ordered bulk write (the documents before
 * it are stored, none after it), or undefined when the error is anything else.
 */
function refusedAt(error: unknown): number | undefined {
  if (!(error instanceof MongoBulkWriteError)) return undefined;
  const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
  const first = writeErrors[0];
  if (first === undefined || (first.code !== 11000 && first.code !== 11001)) return undefined;
  return first.index;
}

/** The ids of a filter that is exactly `{_id: {$in: [...strings]}}`, else undefined. */
function idList(filter: Filter): string[] | undefined {
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== '_id') return undefined;
  const condition = filter['_id'];
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition) || condition instanceof Date)
    return undefined;
  const operators = Object.keys(condition);
  const values = (condition as { $in?: unknown }).$in;
  if (operators.length !== 1 || !Array.isArray(values) || !values.every((value) => typeof value === 'string'))
    return undefined;
  return [...new Set(values)];
}

/** Reads leave out the hidden keys of substring indexes (substring-keys.ts). */
const HIDE_KEYS = { [SUBSTRINGS_FIELD]: 0 } as const;

function withoutKeys<T>(doc: T): T {
  if (doc === null || typeof doc !== 'object' || !(SUBSTRINGS_FIELD in doc)) return doc;
  const { [SUBSTRINGS_FIELD]: _keys, ...rest } = doc as Record<string, unknown>;
  return rest as T;
}

function findOptions(options: FindOptions): { sort?: Document; skip?: number; limit?: number; projection: Document } {
  const out: { sort?: Document; skip?: number; limit?: number; projection: Document } = { projection: HIDE_KEYS };
  if (options.sort) out.sort = options.sort;
  if (options.skip) out.skip = options.skip;
  if (options.limit) out.limit = options.limit;
  return out;
}

/**
 * Runs an update that may upsert. Two clients upserting the same new document at the same moment
 * may race: FerretDB runs an upsert as a find and then an insert, so one of them fails with E11000
 * (processes starting together recording the same index, two first changes of an organization's
 * configuration). MongoDB retries such an upsert itself. The failed attempt wrote nothing and the
 * document exists now, so the same upsert once more updates it; a second E11000 is a real conflict.
 */
async function upserting<R>(collection: string, upsert: boolean | undefined, run: () => Promise<R>): Promise<R> {
  try {
    return await mapped(collection, run);
  } catch (error) {
    if (upsert !== true || !(error instanceof DuplicateKeyError)) throw error;
    return mapped(collection, run);
  }
}

export class MongoCollection<T extends BaseDocument> implements Collection<T> {
  constructor(
    private readonly driver: DriverCollection<BaseDocument>,
    private readonly host: MongoCollectionHost,
  ) {}

  get name(): string {
    return this.driver.collectionName;
  }

  private get substring(): ReadonlySet<string> {
    return this.host.substringFields(this.name);
  }

  private filter(filter: Filter): DriverFilter<BaseDocument> {
    return asFilter(translateContains(filter, this.substring));
  }

  private update(update: Update): Document {
    return asUpdate(updateWithSubstringKeys(update, this.substring));
  }

  async insertOne(doc: T): Promise<void> {
    try {
      await this.driver.insertOne(withSubstringKeys(doc, this.substring));
    } catch (error) {
      throw await this.namedDuplicate(mapMongoError(this.name, error), doc);
    }
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return; // the driver refuses an empty batch
    try {
      const fields = this.substring;
      await this.driver.insertMany(
        docs.map((doc) => withSubstringKeys(doc, fields)),
        { ordered: true },
      );
    } catch (error) {
      // Ordered: the first write error is the one that stopped the batch.
      const failedAt = (error as { writeErrors?: { index?: number }[] }).writeErrors?.[0]?.index;
      throw await this.namedDuplicate(
        mapMongoError(this.name, error),
        failedAt === undefined ? undefined : docs[failedAt],
      );
    }
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return (await this.driver.findOne(this.filter(filter), findOptions(options))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const ids = idList(filter);
    if (
      ids &&
      ids.length <= ID_LOOKUPS_MAX &&
      this.host.idListAsLookups &&
      !options.sort &&
      !options.skip &&
      !options.limit
    ) {
      // A stage batch's prefetch on FerretDB: one `_id` equality per id, side by side (see
      // ID_LOOKUPS_MAX). MongoDB uses its _id index for $in and gets the one query.
      const found = await Promise.all(ids.map((id) => this.driver.findOne({ _id: id }, { projection: HIDE_KEYS })));
      return found.filter((doc): doc is NonNullable<typeof doc> => doc !== null) as T[];
    }
    // An id list comes back in one reply (the server's first batch is 101 documents otherwise).
    const batch = ids && !options.limit ? { batchSize: Math.max(1, ids.length) } : {};
    return (await this.driver.find(this.filter(filter), { ...findOptions(options), ...batch }).toArray()) as T[];
  }

  async *iterate(filter: Filter, options: FindOptions & { batchSize?: number } = {}): AsyncIterable<T> {
    const cursor = this.driver.find(this.filter(filter), {
      ...findOptions(options),
      batchSize: options.batchSize ?? 500,
    });
    try {
      for await (const doc of cursor) yield doc as T;
    } finally {
      await cursor.close();
    }
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.driver.countDocuments(this.filter(filter));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const result = await upserting(this.name, options.upsert, () =>
      this.driver.updateOne(this.filter(filter), this.update(update), { upsert: options.upsert ?? false }),
    );
    if (result.upsertedId !== null) await this.restoreUpsertNulls([{ id: result.upsertedId, update }]);
    return {
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      upsertedId: result.upsertedId === null ? null : String(result.upsertedId),
    };
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    const result = await mapped(this.name, () => this.driver.updateMany(this.filter(filter), this.update(update)));
    return { matchedCount: result.matchedCount, modifiedCount: result.modifiedCount, upsertedId: null };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const returnDocument = options.returnDocument ?? 'after';
    const result = await upserting(this.name, options.upsert, () =>
      this.driver.findOneAndUpdate(this.filter(filter), this.update(update), {
        upsert: options.upsert ?? false,
        returnDocument,
        ...(options.sort ? { sort: options.sort } : {}),
        includeResultMetadata: true,
      }),
    );
    const upsertedId: unknown = result.lastErrorObject?.['upserted'];
    if (upsertedId !== undefined && upsertedId !== null) {
      const nulls = await this.restoreUpsertNulls([{ id: upsertedId, update }]);
      if (nulls && result.value && returnDocument === 'after')
        return withoutKeys({ ...result.value, ...nulls }) as unknown as T;
    }
    // FerretDB 1.24 has no projection on findAndModify: the keys are taken out here.
    return withoutKeys(result.value) as T | null;
  }

  async bulkWrite(operations: BulkWriteOperation<T>[]): Promise<BulkWriteResult> {
    if (operations.length === 0) return { insertedCount: 0, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    const records = insertsIfAbsent(operations);
    if (records) return this.writeRecords(operations, records);
    return this.writeOperations(operations);
  }

  /**
   * A bulk write of idempotent records only (upserts that name their `_id` and only set on
   * insert: activity entries, dedup log entries, a batch's new leads), sent as one ordered insert:
   * one command where FerretDB took two for each upsert (it sends one update a command, and its
   * upserts drop null fields, which a second write restored; an insert keeps them). An insert refused as a duplicate stops there,
   * and the operations from that one on go the usual way, which decides them exactly as MongoDB
   * would (matched when the stored document fits the filter, else a duplicate key).
   */
  private async writeRecords(operations: BulkWriteOperation<T>[], records: BaseDocument[]): Promise<BulkWriteResult> {
    const fields = this.substring;
    const inserts = records.map((doc) => ({ insertOne: { document: withSubstringKeys(doc, fields) } }));
    // One command, as insertMany: FerretDB inserts a command's documents in one transaction on one
    // connection, so the chunking its updates need (bulkWriteChunk) does not apply.
    let stored: number;
    try {
      stored = (await this.driver.bulkWrite(inserts, { ordered: true })).insertedCount;
    } catch (error) {
      const before = refusedAt(error);
      if (before === undefined) throw mapMongoError(this.name, error);
      stored = before;
    }
    if (stored === operations.length)
      return { insertedCount: 0, matchedCount: 0, modifiedCount: 0, upsertedCount: stored };
    const rest = await this.writeOperations(operations.slice(stored));
    return { ...rest, upsertedCount: stored + rest.upsertedCount };
  }

  private async writeOperations(operations: BulkWriteOperation<T>[]): Promise<BulkWriteResult> {
    const fields = this.substring;
    const driverOperations = operations.map((operation) =>
      'insertOne' in operation
        ? { insertOne: { document: withSubstringKeys(operation.insertOne.document, fields) } }
        : {
            updateOne: {
              filter: asFilter(translateContains(operation.updateOne.filter, fields)),
              update: asUpdate(updateWithSubstringKeys(operation.updateOne.update, fields)),
              upsert: operation.updateOne.upsert ?? false,
            },
          },
    );
    const result = await mapped(this.name, () => this.sendBulk(driverOperations as DriverBulkOperations, true));
    const upserted = Object.entries(result.upsertedIds).map(([index, id]) => ({
      id,
      update: (operations[Number(index)] as { updateOne: { update: Update } }).updateOne.update,
    }));
    if (upserted.length > 0) await this.restoreUpsertNulls(upserted);
    return {
      insertedCount: result.insertedCount,
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      upsertedCount: result.upsertedCount,
    };
  }

  /**
   * The driver's bulk write, in commands of at most `bulkWriteChunk` operations where the server
   * needs it. Ordered: a failing command stops the rest, as one command would (the driver's error
   * is thrown). Unordered: every command is sent, then the first failure is thrown. Upserted ids
   * are indexed as in `operations`.
   *
   * One operation a command (FerretDB): updates of distinct documents go several at once, within
   * the store's `commandSlots` (command-runs.ts); an update after a failing one of the same run
   * may then be applied too (at most one less than the slots). Everything else keeps its order.
   */
  private async sendBulk(
    operations: DriverBulkOperations,
    ordered: boolean,
  ): Promise<{
    insertedCount: number;
    matchedCount: number;
    modifiedCount: number;
    upsertedCount: number;
    upsertedIds: Record<number, unknown>;
  }> {
    const size = this.host.bulkWriteChunk ?? operations.length;
    const total = {
      insertedCount: 0,
      matchedCount: 0,
      modifiedCount: 0,
      upsertedCount: 0,
      upsertedIds: {} as Record<number, unknown>,
    };
    const add = (start: number, result: MongoBulkResult) => {
      total.insertedCount += result.insertedCount;
      total.matchedCount += result.matchedCount;
      total.modifiedCount += result.modifiedCount;
      total.upsertedCount += result.upsertedCount;
      for (const [index, id] of Object.entries(result.upsertedIds)) total.upsertedIds[start + Number(index)] = id;
    };
    const slots = this.host.commandSlots;
    if (size === 1 && slots) {
      let failure: Error | undefined;
      for (const run of commandRuns(operations)) {
        try {
          const results = await sendConcurrently(run, slots, ordered, (index) =>
            this.driver.bulkWrite([operations[index]!], { ordered }),
          );
          for (const [index, result] of results) add(index, result);
        } catch (error) {
          if (ordered) throw error;
          failure ??= error instanceof Error ? error : new Error(String(error));
        }
      }
      if (failure !== undefined) throw failure;
      return total;
    }
    let failure: Error | undefined;
    for (let start = 0; start < operations.length; start += size) {
      let result;
      try {
        result = await this.driver.bulkWrite(operations.slice(start, start + size), { ordered });
      } catch (error) {
        if (ordered) throw error;
        failure ??= error instanceof Error ? error : new Error(String(error));
        continue;
      }
      add(start, result);
    }
    if (failure !== undefined) throw failure;
    return total;
  }

  /**
   * Sets the null fields of $setOnInsert on documents an upsert just inserted, where the server
   * left them out (FerretDB): one bulk write for all of them, each guarded by `$exists: false` so
   * a field written meanwhile is kept (if any guard failed, the fields are set one by one).
   * Returns the null fields of the last upsert (for findOneAndUpdate's answer), if any.
   */
  private async restoreUpsertNulls(
    inserted: Array<{ id: unknown; update: Update }>,
  ): Promise<Record<string, null> | null> {
    if (!this.host.upsertDropsNulls) return null;
    const restores = inserted.flatMap(({ id, update }) => {
      const nulls = nullsOnInsert(update);
      return nulls ? [{ id: id as string, nulls }] : [];
    });
    if (restores.length === 0) return null;
    const missing = (fields: string[]) => Object.fromEntries(fields.map((field) => [field, { $exists: false }]));
    const result = await mapped(this.name, () =>
      this.sendBulk(
        restores.map(({ id, nulls }) => ({
          updateOne: { filter: { _id: id, ...missing(Object.keys(nulls)) }, update: { $set: nulls } },
        })),
        false,
      ),
    );
    if (result.matchedCount < restores.length) {
      const oneByOne = restores.flatMap(({ id, nulls }) =>
        Object.keys(nulls).map((field) => ({
          updateOne: { filter: { _id: id, ...missing([field]) }, update: { $set: { [field]: null } } },
        })),
      );
      await mapped(this.name, () => this.sendBulk(oneByOne, false));
    }
    return restores.at(-1)!.nulls;
  }

  async deleteOne(filter: Filter): Promise<number> {
    return (await this.driver.deleteOne(this.filter(filter))).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.driver.deleteMany(this.filter(filter))).deletedCount;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const keys = Object.entries(spec.keys);
    if (keys.length === 0) throw new TypeError('an index needs at least one key');
    const name = spec.name ?? keys.map(([k, dir]) => `${k}_${dir}`).join('_');
    if (spec.substring) {
      await this.createSubstringIndex(spec, name);
      return;
    }
    const options = { name, unique: spec.unique ?? false };
    if (spec.expireAfterSeconds === undefined) {
      await mapped(this.name, () => this.driver.createIndex(spec.keys, options));
      return;
    }
    const field = keys[0]![0];
    if (keys.length !== 1) throw new TypeError('a TTL index has exactly one key');
    try {
      await mapped(this.name, () =>
        this.driver.createIndex(spec.keys, { ...options, expireAfterSeconds: spec.expireAfterSeconds }),
      );
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NOT_IMPLEMENTED)) throw error;
      // FerretDB 1.x: a plain index, and the store's sweep does the expiring.
      this.host.warn(
        { collection: this.name, index: name },
        'server has no TTL indexes; the store sweep expires documents',
      );
      await mapped(this.name, () => this.driver.createIndex(spec.keys, options));
    }
    // MongoDB's own TTL monitor runs only every 60 s; the sweep makes expiry prompt on both servers.
    await this.host.recordTtlIndex(this.name, name, field, spec.expireAfterSeconds);
  }

  async dropIndex(name: string): Promise<boolean> {
    // A collection that does not exist yet has no indexes (listIndexes fails with NamespaceNotFound).
    const indexes = await mapped(this.name, () =>
      this.driver.indexes().catch((error: unknown) => {
        if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) return [];
        throw error;
      }),
    );
    const index = indexes.find((i) => i.name === name);
    if (!index) return false;
    const ttl = index['expireAfterSeconds'] !== undefined || (await this.host.hasTtlIndex(this.name, name));
    if (ttl || Object.keys(index.key).some((path) => path.startsWith(`${SUBSTRINGS_FIELD}.`)))
      throw new TypeError(`index ${name} on ${this.name} is a TTL or substring index, which dropIndex leaves alone`);
    // Another process starting at the same moment may have dropped it since it was listed.
    const dropped = await mapped(this.name, () =>
      this.driver.dropIndex(name).then(
        () => true,
        (error: unknown) => {
          if (error instanceof MongoServerError && error.code === INDEX_NOT_FOUND) return false;
          throw error;
        },
      ),
    );
    return dropped;
  }

  /**
   * A substring index: recorded first (so this store and every store opened later write the keys),
   * then the index on the equality keys and the hidden keys, then the keys of documents stored
   * before it (each write conditional on the field being as read and still without keys, so a
   * concurrent write is never overwritten with stale keys).
   */
  private async createSubstringIndex(spec: IndexSpec, name: string): Promise<void> {
    const field = substringField(spec);
    const keyPath = `${SUBSTRINGS_FIELD}.${field}`;
    await this.host.recordSubstringIndex(this.name, field);
    const keys: Record<string, 1 | -1> = {};
    for (const [path, direction] of Object.entries(spec.keys)) keys[path === field ? keyPath : path] = direction;
    await mapped(this.name, () => this.driver.createIndex(keys, { name }));
    const missing = this.driver.find(
      { [field]: { $exists: true }, [keyPath]: { $exists: false } },
      { projection: { [field]: 1 }, batchSize: 500 },
    );
    let batch: Array<{ updateOne: { filter: Document; update: Document } }> = [];
    const flush = async (): Promise<void> => {
      if (batch.length > 0) await mapped(this.name, () => this.sendBulk(batch as DriverBulkOperations, false));
      batch = [];
    };
    try {
      for await (const doc of missing) {
        const value = doc[field] as unknown;
        batch.push({
          updateOne: {
            filter: { _id: doc._id, [field]: value, [keyPath]: { $exists: false } },
            update: { $set: { [keyPath]: substringKeys(value) } },
          },
        });
        if (batch.length >= 500) await flush();
      }
      await flush();
    } finally {
      await missing.close();
    }
  }

  /**
   * FerretDB 1.24 reports a duplicate insert without the index name. Callers need it (a repeated
   * `_id` is a replay, a repeated unique key is a real conflict), so find the unique index whose
   * keys another document already holds. Only runs on that error path.
   */
  private async namedDuplicate(error: unknown, doc: T | undefined): Promise<unknown> {
    if (!(error instanceof DuplicateKeyError) || error.index !== null || !doc) return error;
    const indexes = await this.driver
      .listIndexes()
      .toArray()
      .catch(() => []);
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
    const explain = await this.driver.find(this.filter(filter), findOptions(planned)).explain('queryPlanner');
    return indexNamesFromExplain(explain);
  }
}
