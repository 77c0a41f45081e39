/**
 * One collection as a SQLite table `(id TEXT PRIMARY KEY, doc TEXT)`. Reads are compiled SQL;
 * writes that depend on the current document (updates, findOneAndUpdate, upserts) read, modify
 * and write inside one transaction. better-sqlite3 is synchronous, so nothing else in the process
 * runs in between: that is what makes findOneAndUpdate a compare-and-set.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import {
  type BaseDocument,
  type Collection,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '@leadstream/ports';
import { applyUpdate, seedFromFilter, validateUpdate } from './apply-update';
import { decodeDoc, encodeDoc } from './codec';
import { type BindValue, compileFilter } from './filter-to-sql';
import { type IndexKeys, compileSort } from './sort-to-sql';
import { defaultIndexName, fieldExpr, quoteIdent, sqliteIndexName, tableName } from './sql-names';
import { rethrowMapped } from './sqlite-errors';
import { type StatementCache } from './statement-cache';

/** What a collection needs from the store that owns the connection. */
export interface CollectionHost {
  readonly db: Database.Database;
  readonly statements: StatementCache;
  /** A separate read-only connection, so a long iteration does not block this one. */
  openReader(): Database.Database;
  closeReader(reader: Database.Database): void;
  recordIndex(collection: string, name: string, spec: IndexSpec): void;
  indexesOf(collection: string): IndexSpec[];
}

interface Row {
  rowid: number;
  doc: string;
}

const NO_LIMIT = -1;

export class EmbeddedCollection<T extends BaseDocument> implements Collection<T> {
  private readonly table: string;
  /** Key lists of this collection's indexes, to pick an ORDER BY that an index can deliver. */
  private indexKeys: IndexKeys[];

  constructor(
    readonly name: string,
    private readonly host: CollectionHost,
  ) {
    this.table = tableName(name);
    host.db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    this.indexKeys = host.indexesOf(name).map((spec) => spec.keys);
  }

  async insertOne(doc: T): Promise<void> {
    const encoded = this.encodeNew(doc);
    rethrowMapped(this.name, () => this.stmt(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`).run(doc._id, encoded));
  }

  async insertMany(docs: T[]): Promise<void> {
    const encoded = docs.map((doc) => [doc._id, this.encodeNew(doc)] as const);
    const insert = this.stmt(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`);
    // Ordered, like MongoDB's default: documents before a failing one stay stored.
    let failure: unknown;
    this.transaction(() => {
      for (const [id, doc] of encoded) {
        try {
          insert.run(id, doc);
        } catch (error) {
          failure = error;
          return;
        }
      }
    });
    if (failure !== undefined) rethrowMapped(this.name, () => { throw failure; });
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [doc] = this.select(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.select(filter, options);
  }

  async *iterate(filter: Filter, options: FindOptions & { batchSize?: number } = {}): AsyncIterable<T> {
    const { sql, params } = this.selectSql(filter, options);
    const batchSize = Math.max(1, options.batchSize ?? 500);
    // better-sqlite3 cannot run other statements on a connection while one of its statements is
    // being iterated, and the caller will write while it iterates; so the rows stream from a
    // read-only connection of their own, which in WAL mode reads one consistent snapshot.
    const reader = this.host.openReader();
    try {
      let inBatch = 0;
      for (const text of reader.prepare(sql).pluck().iterate(...params) as IterableIterator<string>) {
        yield decodeDoc<T>(text);
        if (++inBatch >= batchSize) {
          inBatch = 0;
          await yieldToEventLoop(); // let I/O in between batches of a long scan
        }
      }
    } finally {
      this.host.closeReader(reader);
    }
  }

  async countDocuments(filter: Filter): Promise<number> {
    const { sql, params } = compileFilter(filter);
    return this.stmt(`SELECT count(*) FROM ${this.table} WHERE ${sql}`).pluck().get(...params) as number;
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    validateUpdate(update);
    return this.transaction(() => {
      const row = this.firstRow(filter, undefined);
      if (row) return { matchedCount: 1, modifiedCount: this.rewrite(row, update) ? 1 : 0, upsertedId: null };
      if (options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedId: this.upsert(filter, update)._id };
      return { matchedCount: 0, modifiedCount: 0, upsertedId: null };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    validateUpdate(update);
    const { sql, params } = compileFilter(filter);
    return this.transaction(() => {
      // Row ids first (small), then each document: no statement stays open while we write.
      const rowids = this.stmt(`SELECT rowid FROM ${this.table} WHERE ${sql}`).pluck().all(...params) as number[];
      const byRowid = this.stmt(`SELECT rowid, doc FROM ${this.table} WHERE rowid = ?`).pluck(false);
      let modified = 0;
      for (const rowid of rowids) {
        const row = byRowid.get(rowid) as Row | undefined;
        if (row && this.rewrite(row, update)) modified++;
      }
      return { matchedCount: rowids.length, modifiedCount: modified, upsertedId: null };
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    validateUpdate(update);
    return this.transaction(() => {
      const row = this.firstRow(filter, options.sort);
      if (row) {
        const before = decodeDoc<T>(row.doc);
        const after = this.rewrite(row, update, before);
        return options.returnDocument === 'before' ? before : (after ?? before);
      }
      if (!options.upsert) return null;
      const inserted = this.upsert(filter, update);
      return options.returnDocument === 'before' ? null : inserted;
    });
  }

  async deleteOne(filter: Filter): Promise<number> {
    const { sql, params } = compileFilter(filter);
    const sub = `SELECT rowid FROM ${this.table} WHERE ${sql} LIMIT 1`;
    return this.stmt(`DELETE FROM ${this.table} WHERE rowid = (${sub})`).run(...params).changes;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const { sql, params } = compileFilter(filter);
    return this.stmt(`DELETE FROM ${this.table} WHERE ${sql}`).run(...params).changes;
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const keys = Object.entries(spec.keys);
    if (keys.length === 0) throw new TypeError('an index needs at least one key');
    if (spec.expireAfterSeconds !== undefined && keys.length !== 1) throw new TypeError('a TTL index has exactly one key');
    const name = spec.name ?? defaultIndexName(spec.keys);
    const columns = keys.map(([path, dir]) => `${fieldExpr(path)} ${dir === -1 ? 'DESC' : 'ASC'}`).join(', ');
    const unique = spec.unique ? 'UNIQUE ' : '';
    const index = quoteIdent(sqliteIndexName(this.name, name));
    this.transaction(() => {
      this.host.recordIndex(this.name, name, spec);
      // Unique expression indexes enforce uniqueness on the same expressions filters use.
      rethrowMapped(this.name, () => this.host.db.exec(`CREATE ${unique}INDEX IF NOT EXISTS ${index} ON ${this.table} (${columns})`));
    });
    this.indexKeys = this.host.indexesOf(this.name).map((s) => s.keys);
  }

  async explainIndexes(filter: Filter, options: FindOptions = {}): Promise<string[]> {
    const prefix = sqliteIndexName(this.name, 'x').slice(0, -1);
    const names = new Set<string>();
    for (const detail of this.queryPlan(filter, options)) {
      const used = /USING (?:COVERING )?INDEX "?([^\s"]+)"?/.exec(detail)?.[1];
      if (!used) continue;
      if (used.startsWith('sqlite_autoindex_')) names.add('_id_');
      else names.add(used.startsWith(prefix) ? used.slice(prefix.length) : used);
    }
    return [...names];
  }

  /** SQLite's EXPLAIN QUERY PLAN lines for the query find() would run (not part of the port). */
  queryPlan(filter: Filter, options: FindOptions = {}): string[] {
    const { sql, params } = this.selectSql(filter, options);
    const plan = this.host.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    return plan.map((row) => row.detail);
  }

  /** SQLite's EXPLAIN QUERY PLAN lines for countDocuments (not part of the port). */
  countPlan(filter: Filter): string[] {
    const { sql, params } = compileFilter(filter);
    const plan = this.host.db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM ${this.table} WHERE ${sql}`).all(...params) as { detail: string }[];
    return plan.map((row) => row.detail);
  }

  // --- internals -------------------------------------------------------------------------------

  private stmt(sql: string): Database.Statement {
    return this.host.statements.get(sql);
  }

  private transaction<R>(run: () => R): R {
    return rethrowMapped(this.name, () => this.host.db.transaction(run).immediate());
  }

  private encodeNew(doc: T): string {
    if (typeof doc._id !== 'string' || doc._id === '') throw new TypeError(`${this.name}: every document needs a string _id`);
    return encodeDoc(doc);
  }

  private selectSql(filter: Filter, options: FindOptions): { sql: string; params: BindValue[] } {
    const where = compileFilter(filter);
    const limit = options.limit ? options.limit : NO_LIMIT; // 0 means "no limit", as in MongoDB
    return {
      sql: `SELECT doc FROM ${this.table} WHERE ${where.sql} ORDER BY ${compileSort(options.sort, this.indexKeys)} LIMIT ? OFFSET ?`,
      params: [...where.params, limit, options.skip ?? 0],
    };
  }

  private select(filter: Filter, options: FindOptions): T[] {
    const { sql, params } = this.selectSql(filter, options);
    return (this.stmt(sql).pluck().all(...params) as string[]).map((text) => decodeDoc<T>(text));
  }

  private firstRow(filter: Filter, sort: FindOptions['sort']): Row | undefined {
    const { sql, params } = compileFilter(filter);
    const text = `SELECT rowid, doc FROM ${this.table} WHERE ${sql} ORDER BY ${compileSort(sort, this.indexKeys)} LIMIT 1`;
    return this.stmt(text).pluck(false).get(...params) as Row | undefined;
  }

  /** Applies the update to a stored row; returns the new document, or null when nothing changed. */
  private rewrite(row: Row, update: Update, current = decodeDoc<T>(row.doc)): T | null {
    const next = applyUpdate(current, update, { inserting: false });
    const encoded = encodeDoc(next);
    if (encoded === row.doc) return null;
    this.stmt(`UPDATE ${this.table} SET doc = ? WHERE rowid = ?`).run(encoded, row.rowid);
    return next;
  }

  private upsert(filter: Filter, update: Update): T {
    const doc = applyUpdate(seedFromFilter(filter) as T, update, { inserting: true });
    if (typeof doc._id !== 'string') {
      throw new TypeError(`${this.name}: an upsert needs a string _id in the filter or in $setOnInsert`);
    }
    this.stmt(`INSERT INTO ${this.table} (id, doc) VALUES (?, ?)`).run(doc._id, encodeDoc(doc));
    return doc;
  }
}
