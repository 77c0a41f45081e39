/**
 * The document-store port: a typed subset of the MongoDB collection API, enough for every
 * repository we write, implemented by the official MongoDB driver and by SQLite documents.
 *
 * Rules that keep both engines equal (docs/store.md has the details):
 * - Every document has a string `_id` chosen by the caller.
 * - Timestamps that need a TTL index or date comparison are `Date` values; all other values are
 *   JSON values (string, number, boolean, null, arrays, plain objects).
 * - Equality filters compare scalars. To ask whether an array holds a value use `$all: [value]`.
 * - Sorting a field that holds values of different types is not defined.
 * - `$contains` finds text anywhere in a string field (or in a string element of an array field);
 *   a substring index on the field answers it without a scan (docs/store.md "Substring search").
 */

export type Scalar = string | number | boolean | null | Date;
export type DocValue = Scalar | DocValue[] | { [key: string]: DocValue | undefined };

export interface BaseDocument {
  _id: string;
  [key: string]: DocValue | undefined;
}

/**
 * What a repository's document type must have. Looser than BaseDocument so repositories can use
 * plain interfaces (which TypeScript never treats as index signatures); values must still be
 * JSON values or Dates at run time.
 */
export interface StoredDocument {
  _id: string;
}

export interface FieldOperators {
  $eq?: Scalar;
  $ne?: Scalar;
  $in?: Scalar[];
  $nin?: Scalar[];
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
  $exists?: boolean;
  $regex?: string;
  /** Only `i` (case-insensitive) is part of the port. */
  $options?: 'i' | '';
  $all?: Scalar[];
  /**
   * The field is a string, or an array with a string element, that holds this text anywhere, with
   * the same characters (no case or accent folding: store and ask normalized text). Answered from
   * a substring index on the field when the text has SUBSTRING_MIN_LENGTH characters or more,
   * else by reading the documents the other conditions select.
   */
  $contains?: string;
}

/** The shortest `$contains` text a substring index answers (shorter text is found without it). */
export const SUBSTRING_MIN_LENGTH = 3;

/** Keys are field names or dotted paths into nested objects. */
export type Filter = {
  $and?: Filter[];
  $or?: Filter[];
} & {
  [path: string]: Scalar | FieldOperators | Filter[] | undefined;
};

export interface Update {
  $set?: Record<string, DocValue | undefined>;
  $unset?: Record<string, true | 1 | ''>;
  $inc?: Record<string, number>;
  $push?: Record<string, DocValue>;
  /** Applied only when an upsert inserts. */
  $setOnInsert?: Record<string, DocValue | undefined>;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface FindOneAndUpdateOptions extends UpdateOptions {
  /** Which version to return; defaults to the document after the update. */
  returnDocument?: 'before' | 'after';
  sort?: SortSpec;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId: string | null;
}

/** One operation of a bulkWrite, in the driver's own shape. */
export type BulkWriteOperation<T extends StoredDocument> =
  { insertOne: { document: T } } | { updateOne: { filter: Filter; update: Update; upsert?: boolean } };

export interface BulkWriteResult {
  insertedCount: number;
  /** Update operations whose filter matched a document. */
  matchedCount: number;
  modifiedCount: number;
  /** Update operations with upsert that inserted. */
  upsertedCount: number;
}

export interface IndexSpec {
  keys: Record<string, 1 | -1>;
  name?: string;
  unique?: boolean;
  /** A TTL index: documents whose (single, Date) key is older than this many seconds disappear. */
  expireAfterSeconds?: number;
  /**
   * Most documents hold null (or nothing) in the first key, and queries use the index only with a
   * range or equality on a value (an outbox's time, a sandbox lead's expiry). An engine may leave
   * those documents out of the index, so writing them costs nothing here; results never differ.
   */
  sparse?: boolean;
  /**
   * A substring index: the last key names a top-level field holding a string or an array of
   * strings, and `$contains` on that field is answered from this index (docs/store.md "Substring
   * search"). The keys before it are equalities the queries also carry (the tenant): MongoDB puts
   * them in front of the index; the embedded engine's full-text index leaves them to the table.
   * Documents stored before the index was made are indexed when it is made. Reads never see what
   * the index adds. Not unique, not TTL, not sparse.
   */
  substring?: boolean;
}

export interface Collection<T extends StoredDocument> {
  readonly name: string;
  insertOne(doc: T): Promise<void>;
  insertMany(docs: T[]): Promise<void>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  /** Streams matching documents without holding them all in memory. */
  iterate(filter: Filter, options?: FindOptions & { batchSize?: number }): AsyncIterable<T>;
  countDocuments(filter: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  updateMany(filter: Filter, update: Update): Promise<UpdateResult>;
  /** Atomic read-modify-write; with a version in the filter this is a compare-and-set. */
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  /**
   * Many writes in one request, in order, stopping at the first failing one (MongoDB's ordered
   * bulkWrite). Not atomic on MongoDB: operations before a failure stay applied. On FerretDB,
   * which takes one write a command, updates of distinct documents go a few at a time, so up to
   * three updates after a failing one may be applied too (libs/engines/mongo/src/command-runs.ts).
   */
  bulkWrite(operations: BulkWriteOperation<T>[]): Promise<BulkWriteResult>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  createIndex(spec: IndexSpec): Promise<void>;
  /**
   * Drops the plain index of that name, for an index the code no longer creates (each one costs
   * every write). Resolves false when there is no such index. Refuses (TypeError) a TTL or
   * substring index, whose engines keep more than the index for them.
   */
  dropIndex(name: string): Promise<boolean>;
  /** Names of the indexes the engine would use to answer this filter (for tests and docs). */
  explainIndexes(filter: Filter, options?: FindOptions): Promise<string[]>;
}

export interface DocumentStore {
  readonly engine: 'mongodb' | 'embedded';
  collection<T extends StoredDocument = BaseDocument>(name: string): Collection<T>;
  /** Deletes documents past their TTL now (engines also do it periodically). */
  sweepExpired(): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Raised by both engines when a write would break a unique index. */
export class DuplicateKeyError extends Error {
  readonly code = 'DUPLICATE_KEY' as const;
  constructor(
    readonly collection: string,
    readonly index: string | null,
    message?: string,
  ) {
    super(message ?? `duplicate key in ${collection}${index ? ` (index ${index})` : ''}`);
    this.name = 'DuplicateKeyError';
  }
}
