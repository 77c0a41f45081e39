/**
 * The document store on a MongoDB-protocol server through the official driver (MongoDB, or
 * FerretDB in tests). TTL indexes are also recorded in a metadata collection and swept by the
 * store itself, because MongoDB's TTL monitor runs once a minute and FerretDB 1.x has none.
 * Substring indexes are recorded in another metadata collection, read when the store opens, so
 * that every process writes their keys (substring-keys.ts).
 */
import {
  type BaseDocument,
  type Collection,
  type DocumentStore,
  DuplicateKeyError,
  type StoredDocument,
} from '@leadstream/ports';
import { type Db, type Document, MongoClient, type MongoClientOptions } from 'mongodb';
import { CommandSlots } from './command-runs';
import { MongoCollection, type MongoCollectionHost } from './mongo-collection';
import { mapMongoError } from './mongo-errors';

/** The part of a pino logger this engine uses. */
export interface MongoStoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface MongoStoreOptions {
  uri: string;
  /** Defaults to the database in the URI, else `leadstream`. */
  dbName?: string;
  /** How often expired TTL documents are deleted; default 60 s. */
  ttlSweepMs?: number;
  logger?: MongoStoreLogger;
  clientOptions?: MongoClientOptions;
}

/**
 * FerretDB 1.24 keeps the connection of each update of a command until the command ends and takes a
 * second one to write: one operation per command holds two at most, whatever the other processes
 * send meanwhile (chunks of 25 still hung the server under the chaos suite's load, docs/chaos.md).
 */
const FERRETDB_BULK_WRITE_CHUNK = 1;
/**
 * Bulk-write commands a store has in flight at once on FerretDB. Each holds up to two of FerretDB's
 * 50 PostgreSQL connections, and the server hangs when all are held by writes waiting for a second:
 * the deployment's processes times two times this must stay well below 50 (five processes: 40, the
 * rest for reads and single writes; command-runs.ts says why more than one).
 */
const FERRETDB_COMMAND_SLOTS = 4;
const TTL_COLLECTION = '_leadstream_ttl';
/** Whose turn the background sweep is: one document, `{ _id: 'ttl-sweep', next_at }`. */
const TURNS_COLLECTION = '_leadstream_turns';
const SWEEP_TURN = 'ttl-sweep';
const SUBSTRING_COLLECTION = '_leadstream_substring_indexes';
const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;

interface SubstringRecord extends Document {
  _id: string;
  collection: string;
  field: string;
}

interface TurnRecord extends Document {
  _id: string;
  next_at: Date;
}

interface TtlRecord extends Document {
  _id: string;
  collection: string;
  field: string;
  expireAfterSeconds: number;
}

/** A store on a MongoDB-protocol server, with the count of commands it sent (its round trips). */
export interface MongoDocumentStore extends DocumentStore {
  /** Commands sent to the server since the store opened (benchmarks: round trips per lead). */
  readonly commands: number;
  /** Whether this store has the deployment's turn for the background TTL sweep at `now`. */
  takeSweepTurn(now?: Date): Promise<boolean>;
}

export async function openMongoStore(options: MongoStoreOptions): Promise<MongoDocumentStore> {
  // ignoreUndefined: an undefined property is absent, as in the embedded engine. Commands are
  // monitored to count them (the driver then emits an event per command; nothing else listens).
  const client = new MongoClient(options.uri, {
    ignoreUndefined: true,
    monitorCommands: true,
    ...options.clientOptions,
  });
  let commands = 0;
  client.on('commandStarted', () => {
    commands++;
  });
  await client.connect();
  const fromUri = client.options.dbName;
  const db = client.db(options.dbName ?? (fromUri && fromUri !== 'test' ? fromUri : 'leadstream'));
  // FerretDB answers buildInfo with its own version; it scans a collection for `_id: {$in}`.
  const buildInfo = await db
    .admin()
    .command({ buildInfo: 1 })
    .catch(() => ({}));
  const ferretDb = typeof (buildInfo as { ferretdbVersion?: unknown }).ferretdbVersion === 'string';
  const substring = await db.collection<SubstringRecord>(SUBSTRING_COLLECTION).find({}).toArray();
  options.logger?.info({ db: db.databaseName, ferretDb }, 'mongodb document store opened');
  return new MongoStore(client, db, options, () => commands, ferretDb, substring);
}

const NO_FIELDS: ReadonlySet<string> = new Set();

class MongoStore implements MongoDocumentStore, MongoCollectionHost {
  readonly engine = 'mongodb' as const;
  private readonly timer: NodeJS.Timeout;
  private sweeping: Promise<number> | null = null;
  /** A sweep waiting for the running one to end (sweepExpired). */
  private queuedSweep: Promise<number> | null = null;
  private closed = false;
  /** On FerretDB: lookups by a short list of ids are sent as one equality query per id (mongo-collection.ts). */
  readonly idListAsLookups: boolean;
  /** On FerretDB: an upsert that inserts leaves out the top-level null fields of $setOnInsert (mongo-collection.ts). */
  readonly upsertDropsNulls: boolean;
  /** On FerretDB: bulk writes go out in commands of at most this many operations (mongo-collection.ts). */
  readonly bulkWriteChunk: number | undefined;
  /** On FerretDB: how many bulk-write commands are in flight at once (command-runs.ts). */
  readonly commandSlots: CommandSlots | undefined;
  /** Substring-indexed fields by collection (substring-keys.ts). */
  private readonly substring = new Map<string, Set<string>>();

  constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    private readonly options: MongoStoreOptions,
    private readonly commandCount: () => number,
    /** True on FerretDB, whose differences mongo-collection.ts works around (see the flags below). */
    ferretDb = false,
    substring: SubstringRecord[] = [],
  ) {
    for (const record of substring) this.addSubstringField(record.collection, record.field);
    this.idListAsLookups = ferretDb;
    this.upsertDropsNulls = ferretDb;
    this.bulkWriteChunk = ferretDb ? FERRETDB_BULK_WRITE_CHUNK : undefined;
    this.commandSlots = ferretDb ? new CommandSlots(FERRETDB_COMMAND_SLOTS) : undefined;
    this.timer = setInterval(() => this.sweepInBackground(), options.ttlSweepMs ?? 60_000);
    this.timer.unref(); // the sweep must never keep a process alive
  }

  get commands(): number {
    return this.commandCount();
  }

  collection<T extends StoredDocument = BaseDocument>(name: string): Collection<T> {
    // Same names as the embedded engine accepts, so configuration never works on one engine only.
    if (!SAFE_NAME.test(name))
      throw new TypeError(`invalid collection name ${JSON.stringify(name)}: use only [A-Za-z0-9_.-]`);
    if (name.startsWith('_leadstream') || name.startsWith('system.'))
      throw new TypeError(`collection name ${name} is reserved`);
    return new MongoCollection<BaseDocument>(this.db.collection<BaseDocument>(name), this) as unknown as Collection<T>;
  }

  /** One of the store's own collections (reserved names), through the port collection. */
  private bookkeeping(name: string): MongoCollection<BaseDocument> {
    return new MongoCollection<BaseDocument>(this.db.collection<BaseDocument>(name), this);
  }

  async sweepExpired(): Promise<number> {
    // One sweep at a time: the timer and an explicit call may overlap. A sweep already running may
    // have read the TTL list before the caller's latest TTL index, so the call waits for one that
    // starts after it: queued behind the running one, and shared by every call made meanwhile.
    if (!this.sweeping) return this.startSweep();
    this.queuedSweep ??= this.sweeping
      .catch(() => 0)
      .then(() => {
        this.queuedSweep = null;
        return this.startSweep();
      });
    return this.queuedSweep;
  }

  private startSweep(): Promise<number> {
    this.sweeping = this.sweep().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.queuedSweep?.catch(() => 0);
    await this.sweeping?.catch(() => 0);
    await this.client.close();
  }

  async recordTtlIndex(collection: string, name: string, field: string, expireAfterSeconds: number): Promise<void> {
    // Processes starting together record the same index at once (MongoCollection retries the race).
    await this.bookkeeping(TTL_COLLECTION).updateOne(
      { _id: `${collection}.${name}` },
      { $set: { collection, field, expireAfterSeconds } },
      { upsert: true },
    );
  }

  async hasTtlIndex(collection: string, name: string): Promise<boolean> {
    return (await this.db.collection<TtlRecord>(TTL_COLLECTION).countDocuments({ _id: `${collection}.${name}` })) > 0;
  }

  substringFields(collection: string): ReadonlySet<string> {
    return this.substring.get(collection) ?? NO_FIELDS;
  }

  async recordSubstringIndex(collection: string, field: string): Promise<void> {
    await this.bookkeeping(SUBSTRING_COLLECTION).updateOne(
      { _id: `${collection}.${field}` },
      { $set: { collection, field } },
      { upsert: true },
    );
    this.addSubstringField(collection, field);
  }

  private addSubstringField(collection: string, field: string): void {
    const fields = this.substring.get(collection) ?? new Set<string>();
    fields.add(field);
    this.substring.set(collection, fields);
  }

  warn(obj: object, msg: string): void {
    this.options.logger?.warn(obj, msg);
  }

  private async sweep(): Promise<number> {
    let deleted = 0;
    for (const ttl of await this.db.collection<TtlRecord>(TTL_COLLECTION).find({}).toArray()) {
      const cutoff = new Date(Date.now() - ttl.expireAfterSeconds * 1000);
      // `$lt` with a Date only matches dates (type bracketing), as a TTL index only expires dates.
      const result = await this.db.collection(ttl.collection).deleteMany({ [ttl.field]: { $lt: cutoff } });
      deleted += result.deletedCount;
    }
    return deleted;
  }

  /**
   * Whether this store has the deployment's turn for the background sweep: every process opens a
   * store with a timer, and one of them sweeps each interval. On FerretDB a `$lt` filter is a read
   * of the whole collection (only equality reaches PostgreSQL), so five processes sweeping every
   * TTL collection each minute kept its CPU busy (docs/chaos.md). Taken in one upsert: a turn not
   * yet due collides with the stored one (a duplicate key: not ours). FerretDB's conditional
   * updates are not atomic, so two stores asking at the same moment may now and then both sweep
   * (harmless: the deletes are idempotent). An explicit sweepExpired() does not ask.
   */
  async takeSweepTurn(now = new Date()): Promise<boolean> {
    // Due a little before the next tick, so the process that swept can take the next turn too.
    const everyMs = (this.options.ttlSweepMs ?? 60_000) * 0.9;
    try {
      const taken = await this.db.collection<TurnRecord>(TURNS_COLLECTION).findOneAndUpdate(
        // A turn set more than an interval ahead comes from a clock that ran ahead: due as well.
        { _id: SWEEP_TURN, $or: [{ next_at: { $lte: now } }, { next_at: { $gt: new Date(now.getTime() + everyMs) } }] },
        { $set: { next_at: new Date(now.getTime() + everyMs) } },
        { upsert: true, returnDocument: 'after' },
      );
      return taken !== null;
    } catch (error) {
      if (mapMongoError(TURNS_COLLECTION, error) instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  private sweepInBackground(): void {
    if (this.closed) return;
    this.takeSweepTurn()
      .then((mine) => (mine ? this.sweepExpired() : 0))
      .then(
        (deleted) => {
          if (deleted > 0) this.options.logger?.info({ deleted }, 'expired documents deleted');
        },
        (error: unknown) => this.options.logger?.error({ err: error }, 'TTL sweep failed'),
      );
  }
}
