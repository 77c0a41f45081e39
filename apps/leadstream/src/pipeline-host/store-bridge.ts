/**
 * The document store across threads: one writer on the embedded engines (docs/pipeline.md "The
 * writer thread"). In `leadstream start` the pipeline thread owns the only read-write connection
 * to the database; the HTTP thread reads through a read-only connection of its own and sends
 * every write (a vendor created, a setting saved, an export's progress, a TTL sweep) to the
 * pipeline thread, which runs it on its connection between two batches and answers. So no request
 * waits on SQLite's write lock: better-sqlite3 is synchronous, and a write that waited for the
 * lock there would stop every request of the HTTP thread for as long, up to `busy_timeout`.
 *
 * A collection is read here once its table exists (the writer makes it); before, nothing was ever
 * written to it and a read answers empty without asking the writer.
 * A write's answer arrives after its transaction committed, so a read that follows it sees it.
 * Errors keep their kind across the channel: a DuplicateKeyError stays one (repositories turn it
 * into their own answers), a TypeError (an invalid filter or update) stays one.
 */
import { checkQuery, type EmbeddedCollection, type EmbeddedStore } from '@leadstream/engine-embedded-store';
import {
  type BaseDocument,
  type BulkWriteOperation,
  type BulkWriteResult,
  type Collection,
  type DocumentStore,
  DuplicateKeyError,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type StoredDocument,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '@leadstream/ports';
import { callsOver, type Channel, fromWire, serveCalls, toWire, type WireError } from './channel-calls';

const KINDS = { call: 'store.write', reply: 'store.write.reply' };

/** The collection methods that write, as the port names them. */
const WRITES = [
  'insertOne',
  'insertMany',
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'bulkWrite',
  'deleteOne',
  'deleteMany',
  'createIndex',
  'dropIndex',
] as const;
type WriteMethod = (typeof WRITES)[number];

type StoreCall = { op: 'write'; collection: string; method: WriteMethod; args: unknown[] } | { op: 'sweepExpired' };

/** An answer: the value, or the error with what its kind needs to be raised again on this side. */
type StoreAnswer =
  | { ok: true; value: unknown }
  | { ok: false; error: WireError & { duplicate?: { collection: string; index: string | null } } };

/**
 * Serves the writes of `store` (the connection that owns the database) to the other end of
 * `channel`; returns a function that stops serving.
 */
export function serveStore(store: DocumentStore, channel: Channel): () => void {
  return serveCalls<StoreCall>(channel, KINDS, async (call): Promise<StoreAnswer> => {
    try {
      return { ok: true, value: await run(store, call) };
    } catch (error) {
      const duplicate =
        error instanceof DuplicateKeyError ? { collection: error.collection, index: error.index } : undefined;
      return { ok: false, error: { ...toWire(error), ...(duplicate ? { duplicate } : {}) } };
    }
  });
}

async function run(store: DocumentStore, call: StoreCall): Promise<unknown> {
  if (call.op === 'sweepExpired') return store.sweepExpired();
  const collection = store.collection(call.collection);
  if (!(WRITES as readonly string[]).includes(call.method)) throw new TypeError(`${call.method} is not a store write`);
  const writes = collection as unknown as Record<WriteMethod, (...args: unknown[]) => Promise<unknown>>;
  return writes[call.method](...call.args);
}

/** The error of an answer as its kind: the classes callers test with instanceof stay themselves. */
function raised(error: Extract<StoreAnswer, { ok: false }>['error']): Error {
  if (error.duplicate) return new DuplicateKeyError(error.duplicate.collection, error.duplicate.index, error.message);
  if (error.name === 'TypeError') return new TypeError(error.message);
  if (error.name === 'RangeError') return new RangeError(error.message);
  return fromWire(error);
}

/**
 * A DocumentStore whose reads use `reader` (a read-only connection to the database) and whose
 * writes go to the other end of `channel` (serveStore). `gone` settles when the other end is gone
 * for good: writes then fail at once. Closing it closes the reader.
 */
export function connectStore(reader: EmbeddedStore, channel: Channel, gone?: Promise<unknown>): DocumentStore {
  if (!reader.readOnly) throw new TypeError('connectStore reads through a read-only embedded store');
  const caller = callsOver<StoreCall>(channel, KINDS, gone);
  const call = async <R>(body: StoreCall): Promise<R> => {
    const answer = await caller.call<StoreAnswer>(body);
    if (!answer.ok) throw raised(answer.error);
    return answer.value as R;
  };
  const collections = new Map<string, ThreadedCollection<BaseDocument>>();
  return {
    engine: 'embedded',
    collection<T extends StoredDocument = BaseDocument>(name: string): Collection<T> {
      let collection = collections.get(name);
      if (!collection) {
        collection = new ThreadedCollection<BaseDocument>(name, reader, call);
        collections.set(name, collection);
      }
      return collection as unknown as Collection<T>;
    },
    sweepExpired: () => call<number>({ op: 'sweepExpired' }),
    ping: () => reader.ping(),
    close: async () => {
      caller.close('the document store is closed');
      await reader.close();
    },
  };
}

class ThreadedCollection<T extends BaseDocument> implements Collection<T> {
  /** The reader's collection, once its table exists (the writer makes it, at its first write). */
  private opened: EmbeddedCollection<T> | undefined;

  constructor(
    readonly name: string,
    private readonly reader: EmbeddedStore,
    private readonly call: <R>(body: StoreCall) => Promise<R>,
  ) {}

  /**
   * The collection to read, or undefined while its table does not exist: then nothing was ever
   * written to it and a read answers empty, without asking the writer (which may itself be waiting
   * on a lock), once the query is one the engine accepts. The pipeline thread makes every indexed
   * collection at start.
   */
  private read(filter: Filter, options?: FindOptions): EmbeddedCollection<T> | undefined {
    if (this.opened === undefined && this.reader.hasCollection(this.name))
      this.opened = this.reader.embeddedCollection<T>(this.name);
    if (this.opened === undefined) checkQuery(filter, options);
    return this.opened;
  }

  private write<R>(method: WriteMethod, ...args: unknown[]): Promise<R> {
    return this.call<R>({ op: 'write', collection: this.name, method, args });
  }

  /** After the writer made or dropped an index: the reader learns the catalog again. */
  private indexesChanged(): void {
    this.read({})?.reloadIndexes();
  }

  async findOne(filter: Filter, options?: FindOptions): Promise<T | null> {
    return (await this.read(filter, options)?.findOne(filter, options)) ?? null;
  }

  async find(filter: Filter, options?: FindOptions): Promise<T[]> {
    return (await this.read(filter, options)?.find(filter, options)) ?? [];
  }

  async *iterate(filter: Filter, options?: FindOptions & { batchSize?: number }): AsyncIterable<T> {
    const collection = this.read(filter, options);
    if (collection) yield* collection.iterate(filter, options);
  }

  async countDocuments(filter: Filter): Promise<number> {
    return (await this.read(filter)?.countDocuments(filter)) ?? 0;
  }

  async explainIndexes(filter: Filter, options?: FindOptions): Promise<string[]> {
    return (await this.read(filter, options)?.explainIndexes(filter, options)) ?? [];
  }

  insertOne(doc: T): Promise<void> {
    return this.write('insertOne', doc);
  }

  insertMany(docs: T[]): Promise<void> {
    return this.write('insertMany', docs);
  }

  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult> {
    return this.write('updateOne', filter, update, options);
  }

  updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    return this.write('updateMany', filter, update);
  }

  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null> {
    return this.write('findOneAndUpdate', filter, update, options);
  }

  bulkWrite(operations: BulkWriteOperation<T>[]): Promise<BulkWriteResult> {
    return this.write('bulkWrite', operations);
  }

  deleteOne(filter: Filter): Promise<number> {
    return this.write('deleteOne', filter);
  }

  deleteMany(filter: Filter): Promise<number> {
    return this.write('deleteMany', filter);
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    await this.write('createIndex', spec);
    this.indexesChanged();
  }

  async dropIndex(name: string): Promise<boolean> {
    const dropped = await this.write<boolean>('dropIndex', name);
    this.indexesChanged();
    return dropped;
  }
}
