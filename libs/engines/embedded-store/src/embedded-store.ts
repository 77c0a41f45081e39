/**
 * The embedded document store: SQLite documents in `dataDir/documents.sqlite` (WAL mode).
 * Index specs (including TTL) live in a metadata table so a reopened store sweeps the same TTL
 * indexes without being told again.
 *
 * The directory is private to the user running the process (0700) and the database files too
 * (0600): SQLite gives its -wal and -shm files the database file's mode, so the database file is
 * created 0600 before SQLite opens it, and files an earlier version left readable are tightened.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  type BaseDocument,
  type Collection,
  type DocumentStore,
  type IndexSpec,
  type StoredDocument,
} from '@leadstream/ports';
import { DATE_LOW_SQL, DATE_TAG } from './codec';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, BackgroundCheckpointer } from './background-checkpointer';
import { EmbeddedCollection, KNOWN_COLUMNS_FUNCTION, type CollectionHost } from './embedded-collection';
import { REGEX_FUNCTION, createRegexFunction } from './filter-to-sql';
import { assertSafeName, fieldExpr, tableName } from './sql-names';
import { StatementCache } from './statement-cache';

/** The part of a pino logger this engine uses. */
export interface EmbeddedStoreLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface EmbeddedStoreOptions {
  dataDir: string;
  /** How often expired TTL documents are deleted; default 60 s, as MongoDB's TTL monitor. */
  ttlSweepMs?: number;
  logger?: EmbeddedStoreLogger;
  /** NORMAL (default) survives a process crash; FULL also a machine crash. */
  synchronous?: 'NORMAL' | 'FULL';
  /** How often a worker thread checkpoints the WAL (background-checkpointer.ts); default 100 ms, 0 leaves checkpoints to SQLite (in the writing connection). */
  checkpointIntervalMs?: number;
  /**
   * A reader of a database that another connection writes (the pipeline thread's, in
   * `leadstream start`): a read-only connection that never waits on SQLite's write lock. It makes
   * no table and no index, sweeps and checkpoints nothing, and refuses every write. A collection
   * must have been opened by the writer first; its indexes are read from the writer's catalog
   * (`reloadIndexes` after the writer changes them). The database file must exist.
   */
  readOnly?: boolean;
}

const FILE_NAME = 'documents.sqlite';
const META_TABLE = '_leadstream_indexes';

function registerFunctions(db: Database.Database): void {
  db.function(REGEX_FUNCTION, { deterministic: true }, createRegexFunction());
}

/** Sets `mode` on a file or directory this user owns that is open to others; leaves a missing one alone. */
function tighten(path: string, mode: number): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  // Someone else's file or directory is theirs to set (and chmod would fail).
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) chmodSync(path, mode);
}

export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  if (options.readOnly) {
    const store = new EmbeddedStore(join(options.dataDir, FILE_NAME), options);
    options.logger?.info({ dataDir: options.dataDir }, 'embedded document store opened read-only');
    return store;
  }
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  tighten(options.dataDir, 0o700);
  const file = join(options.dataDir, FILE_NAME);
  // Created 0600 before SQLite opens it (an empty file is an empty database), so the -wal and -shm
  // SQLite makes beside it get 0600 too.
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tighten(path, 0o600);
  const store = new EmbeddedStore(file, options);
  options.logger?.info({ dataDir: options.dataDir }, 'embedded document store opened');
  return store;
}

/** A write asked of a read-only connection (EmbeddedStoreOptions.readOnly). */
export class ReadOnlyStoreError extends Error {
  readonly code = 'STORE_READ_ONLY' as const;
  constructor() {
    super('this embedded store connection is read-only: writes go to the connection that owns the database');
    this.name = 'ReadOnlyStoreError';
  }
}

interface TtlIndex {
  collection: string;
  field: string;
  expireAfterSeconds: number;
}

/**
 * The store's connection also serves as the connection of the embedded event log when both are
 * embedded (engines.ts), so that one transaction can hold a stage batch's documents, its output
 * records and its consumer offsets (docs/pipeline.md).
 */
export class EmbeddedStore implements DocumentStore, CollectionHost {
  readonly engine = 'embedded' as const;
  readonly db: Database.Database;
  readonly statements: StatementCache;
  private readonly collections = new Map<string, EmbeddedCollection<BaseDocument>>();
  /** A read-only connection (EmbeddedStoreOptions.readOnly): every write is refused. */
  readonly readOnly: boolean;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly checkpointer: BackgroundCheckpointer | undefined;
  private closed = false;
  private commitCount = 0;

  constructor(
    private readonly file: string,
    private readonly options: EmbeddedStoreOptions,
  ) {
    this.readOnly = options.readOnly === true;
    if (this.readOnly) {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      this.db.pragma('temp_store = MEMORY');
      registerFunctions(this.db);
      this.statements = new StatementCache(this.db);
      this.timer = undefined;
      this.checkpointer = undefined;
      return;
    }
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    this.db.pragma('busy_timeout = 5000');
    // A statement that writes many b-trees (an insert into a collection with its indexes and the
    // substring indexes' triggers) keeps a statement journal of the pages it changed; past 64 KiB
    // SQLite spills it to a temporary file on disk (an open, writes and an unlink per statement).
    // In memory it costs no system call: 7 % of a chained batch of one lead (docs/performance.md).
    this.db.pragma('temp_store = MEMORY');
    const background = (options.checkpointIntervalMs ?? 100) > 0;
    if (background) this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    registerFunctions(this.db);
    this.db.function(
      KNOWN_COLUMNS_FUNCTION,
      { deterministic: false },
      (name: unknown) => this.collections.get(String(name))?.knownColumns ?? 0,
    );
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (
      collection TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, PRIMARY KEY (collection, name))`);
    this.statements = new StatementCache(this.db);
    this.timer = setInterval(() => this.sweepInBackground(), options.ttlSweepMs ?? 60_000);
    this.timer.unref(); // the sweep must never keep a process alive
    this.checkpointer = background
      ? new BackgroundCheckpointer({
          file,
          intervalMs: options.checkpointIntervalMs ?? 100,
          onError: (message) => options.logger?.error({ err: message }, 'background WAL checkpoint failed'),
        })
      : undefined;
  }

  collection<T extends StoredDocument = BaseDocument>(name: string): Collection<T> {
    this.assertOpen();
    assertSafeName('collection', name);
    if (name.startsWith('_leadstream') || name.startsWith('sqlite_'))
      throw new TypeError(`collection name ${name} is reserved`);
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new EmbeddedCollection<BaseDocument>(name, this);
      this.collections.set(name, collection);
    }
    return collection as unknown as Collection<T>;
  }

  /** Whether the collection's table exists (a read-only connection reads only what a writer made). */
  hasCollection(name: string): boolean {
    this.assertOpen();
    return (
      this.statements.get(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(name) !==
      undefined
    );
  }

  /** The collection with its synchronous batch writes, for work inside `transaction`. */
  embeddedCollection<T extends StoredDocument = BaseDocument>(name: string): EmbeddedCollection<T & BaseDocument> {
    return this.collection<T>(name) as unknown as EmbeddedCollection<T & BaseDocument>;
  }

  /**
   * Runs `work` in one write transaction on this connection: BEGIN IMMEDIATE, COMMIT when it
   * returns, ROLLBACK when it throws. Inside an open transaction it is a savepoint of that one.
   * Synchronous (better-sqlite3): nothing else in the process runs in between.
   */
  transaction<R>(work: () => R): R {
    this.assertOpen();
    if (this.readOnly) throw new ReadOnlyStoreError();
    if (this.db.inTransaction) return this.db.transaction(work)();
    const result = this.db.transaction(work).immediate();
    this.commitCount++;
    return result;
  }

  /** Write transactions committed by this connection since it opened (benchmarks: commits per lead). */
  get commits(): number {
    return this.commitCount;
  }

  async sweepExpired(): Promise<number> {
    this.assertOpen();
    if (this.readOnly) throw new ReadOnlyStoreError();
    let deleted = 0;
    for (const ttl of this.ttlIndexes()) {
      const cutoff = DATE_TAG + new Date(Date.now() - ttl.expireAfterSeconds * 1000).toISOString();
      this.collection(ttl.collection); // opening it gives the TTL field its index column
      const field = fieldExpr(ttl.field, new Set([ttl.field]));
      // Only dates expire (a TTL index ignores other values); the cutoff is a date, so `< cutoff` and
      // `>= char(1)` together select dates older than it.
      const sql = `DELETE FROM ${tableName(ttl.collection)} WHERE ${field} < ? AND ${field} >= ${DATE_LOW_SQL}`;
      deleted += this.transaction(() => this.statements.get(sql).run(cutoff).changes);
    }
    return deleted;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.statements.get('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.checkpointer?.close();
    this.db.close();
  }

  // --- CollectionHost --------------------------------------------------------------------------

  recordIndex(collection: string, name: string, spec: IndexSpec): void {
    const encoded = JSON.stringify(spec);
    const existing = this.statements
      .get(`SELECT spec FROM ${META_TABLE} WHERE collection = ? AND name = ?`)
      .pluck()
      .get(collection, name) as string | undefined;
    if (existing !== undefined && existing !== encoded) {
      // Whether an index is sparse changes how it is stored, not what it answers: rebuilt in place.
      const { sparse: _was, ...before } = JSON.parse(existing) as IndexSpec;
      const { sparse: _now, ...after } = spec;
      if (JSON.stringify(before) !== JSON.stringify(after))
        throw new TypeError(`index ${name} on ${collection} already exists with a different spec`);
      this.statements
        .get(`UPDATE ${META_TABLE} SET spec = ? WHERE collection = ? AND name = ?`)
        .run(encoded, collection, name);
      return;
    }
    this.statements
      .get(`INSERT OR IGNORE INTO ${META_TABLE} (collection, name, spec) VALUES (?, ?, ?)`)
      .run(collection, name, encoded);
  }

  forgetIndex(collection: string, name: string): boolean {
    return (
      this.statements.get(`DELETE FROM ${META_TABLE} WHERE collection = ? AND name = ?`).run(collection, name).changes >
      0
    );
  }

  indexesOf(collection: string): IndexSpec[] {
    const specs = this.statements
      .get(`SELECT spec FROM ${META_TABLE} WHERE collection = ? ORDER BY rowid`)
      .pluck()
      .all(collection) as string[];
    return specs.map((spec) => JSON.parse(spec) as IndexSpec);
  }

  // --- internals -------------------------------------------------------------------------------

  private ttlIndexes(): TtlIndex[] {
    const rows = this.statements.get(`SELECT collection, spec FROM ${META_TABLE}`).pluck(false).all() as {
      collection: string;
      spec: string;
    }[];
    const out: TtlIndex[] = [];
    for (const row of rows) {
      const spec = JSON.parse(row.spec) as IndexSpec;
      const field = Object.keys(spec.keys)[0];
      if (spec.expireAfterSeconds !== undefined && field !== undefined) {
        out.push({ collection: row.collection, field, expireAfterSeconds: spec.expireAfterSeconds });
      }
    }
    return out;
  }

  private sweepInBackground(): void {
    if (this.closed) return;
    this.sweepExpired().then(
      (deleted) => {
        if (deleted > 0) this.options.logger?.info({ deleted }, 'expired documents deleted');
      },
      (error: unknown) => this.options.logger?.error({ err: error }, 'TTL sweep failed'),
    );
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('the embedded document store is closed');
  }
}
