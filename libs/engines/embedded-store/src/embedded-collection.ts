/**
 * One collection as a SQLite table `(id TEXT PRIMARY KEY, doc TEXT, "f:<path>"...)`: the document
 * as JSON text, plus one column per field that an index holds, always equal to
 * `json_extract(doc, path)` (SQLite computes it from the text on every write that changes it).
 * Indexes are built on those columns, so a write that leaves a field alone leaves its indexes
 * alone (an UPDATE that does not set an index's columns does not touch the index); with indexes on
 * json_extract expressions every write rewrote every index of the collection. Reads are compiled SQL;
 * writes that depend on the current document (updates, findOneAndUpdate, upserts) read, modify
 * and write inside one transaction. better-sqlite3 is synchronous, so nothing else in the process
 * runs in between: that is what makes findOneAndUpdate a compare-and-set.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import {
  type BaseDocument,
  type BulkWriteOperation,
  type BulkWriteResult,
  type Collection,
  type DocValue,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from '@leadstream/ports';
import { applyUpdate, seedFromFilter, validateUpdate } from './apply-update';
import { decodeDoc, toJson } from './codec';
import {
  type BindValue,
  type CompiledSql,
  NOT_A_DATE,
  SUBSTRING_SEPARATOR,
  type SubstringIndexes,
  compileFilter,
} from './filter-to-sql';
import { type IndexKeys, compileSort } from './sort-to-sql';
import {
  assertSafeName,
  defaultIndexName,
  fieldExpr,
  indexColumn,
  jsonExtract,
  jsonPathLiteral,
  quoteIdent,
  sqliteIndexName,
  tableName,
} from './sql-names';
import { type UniqueIndex, mapSqliteError, rethrowMapped } from './sqlite-errors';
import { type StatementCache } from './statement-cache';

/** What a collection needs from the store that owns the connection. */
export interface CollectionHost {
  readonly db: Database.Database;
  /** A read-only connection: the collection makes nothing and learns its indexes from the catalog. */
  readonly readOnly?: boolean;
  readonly statements: StatementCache;
  recordIndex(collection: string, name: string, spec: IndexSpec): void;
  /** Runs `work` in a write transaction (a savepoint inside an open one), counting commits. */
  transaction<R>(work: () => R): R;
  indexesOf(collection: string): IndexSpec[];
  /** Removes an index from the catalog; false when the catalog had none of that name. */
  forgetIndex(collection: string, name: string): boolean;
}

interface Row {
  rowid: number;
  doc: string;
}

/**
 * The LIMIT of a query as SQL text, never a bound parameter: SQLite (built with STAT4, as
 * better-sqlite3 is) lets the LIMIT value guide the plan, so binding it expires the statement and
 * every run prepares it again (about 40 us for a dedup candidate query that finds nothing against
 * 3 us; docs/performance.md "Bound LIMITs and retired indexes"). Few distinct limits occur, so the statement cache
 * holds them all. 0 or absent means "no limit", as in MongoDB.
 */
export function limitLiteral(limit: number | undefined): string {
  if (limit === undefined || limit === 0) return '-1';
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new TypeError(`invalid limit ${String(limit)}: use a non-negative integer`);
  }
  return String(limit);
}

/**
 * Refuses what a read of this engine refuses (an unsupported operator, an invalid field path or
 * limit), with no table at hand: a reader asked about a collection nobody has written yet answers
 * empty, but must not answer a query that any collection would refuse.
 */
export function checkQuery(filter: Filter, options: FindOptions = {}): void {
  compileFilter(filter);
  compileSort(options.sort);
  limitLiteral(options.limit);
}

export class EmbeddedCollection<T extends BaseDocument> implements Collection<T> {
  private readonly table: string;
  /** Key lists of this collection's indexes, to pick an ORDER BY that an index can deliver. */
  private indexKeys: IndexKeys[] = [];
  /** Fields that have an index column (every key of every index, but `_id`). */
  private readonly columns = new Set<string>();
  /** Unique indexes by key paths, to name the one a write violates. */
  private uniqueIndexes: UniqueIndex[] = [];
  /** Fields with a substring index: the index's name and the quoted name of its full-text table. */
  private readonly substringTables = new Map<string, { name: string; table: string }>();
  private readonly substring: SubstringIndexes = {
    tables: this.substringTables,
    lookup: (table, phrase) => this.substringLookup(table, phrase),
  };
  /** Recent substringLookup answers, valid while the database is unchanged (see there). */
  private readonly lookups = new Map<string, { state: string; found: number[] | 'common' }>();
  /** SQL text built from the columns, cached until the columns change. */
  private insertSql: string | undefined;
  private readonly setColumnSqlByPath = new Map<string, string>();

  constructor(
    readonly name: string,
    private readonly host: CollectionHost,
  ) {
    this.table = tableName(name);
    if (host.readOnly) {
      this.reloadIndexes();
      return;
    }
    host.db.exec(`CREATE TABLE IF NOT EXISTS ${this.table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    // A store written before index columns existed has its indexes on expressions: rebuilt here once.
    this.transaction(() => {
      const specs = host.indexesOf(name);
      for (const spec of specs) this.buildIndex(spec);
      this.indexesChanged(specs);
    });
  }

  async insertOne(doc: T): Promise<void> {
    const row = this.newRow(doc);
    this.transaction(() => this.insertStatement().run(row));
  }

  async insertMany(docs: T[]): Promise<void> {
    const rows = docs.map((doc) => this.newRow(doc));
    const insert = this.insertStatement();
    // Ordered, like MongoDB's default: documents before a failing one stay stored.
    let failure: unknown;
    this.transaction(() => {
      for (const row of rows) {
        try {
          insert.run(row);
        } catch (error) {
          failure = error;
          return;
        }
      }
    });
    if (failure !== undefined)
      this.mapped(() => {
        throw failure;
      });
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [doc] = this.select(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.select(filter, options);
  }

  /**
   * Streams the matches page by page, each page a read of its own: first the rowids of every match
   * in order (one short read), then the documents of `batchSize` rowids at a time, the filter
   * checked again. No read is held open between pages: a statement iterated for a long scan keeps
   * its read snapshot until it ends, and SQLite cannot checkpoint the WAL past a reader, so every
   * write made meanwhile (live ingest beside an export of a million leads) would grow the WAL. A
   * document deleted meanwhile is left out; one changed meanwhile is read as it is then, if it
   * still matches the filter.
   */
  async *iterate(filter: Filter, options: FindOptions & { batchSize?: number } = {}): AsyncIterable<T> {
    const where = this.where(filter);
    const batchSize = Math.max(1, options.batchSize ?? 500);
    const order = compileSort(options.sort, this.indexKeys, this.columns);
    const rowids = this.stmt(
      `SELECT rowid FROM ${this.table} WHERE ${where.sql} ORDER BY ${order} LIMIT ${limitLiteral(options.limit)} OFFSET ?`,
    )
      .pluck()
      .all(...where.params, options.skip ?? 0) as number[];
    const page = this.stmt(
      `SELECT rowid, doc FROM ${this.table} WHERE rowid IN (SELECT value FROM json_each(?)) AND ${where.sql}`,
    ).pluck(false);
    for (let start = 0; start < rowids.length; start += batchSize) {
      const wanted = rowids.slice(start, start + batchSize);
      const rows = page.all(JSON.stringify(wanted), ...where.params) as Row[];
      const docs = new Map(rows.map((row) => [row.rowid, row.doc]));
      for (const rowid of wanted) {
        const text = docs.get(rowid);
        if (text !== undefined) yield decodeDoc<T>(text);
      }
      await yieldToEventLoop(); // let I/O in between pages of a long scan
    }
  }

  async countDocuments(filter: Filter): Promise<number> {
    const { sql, params } = this.where(filter);
    return this.stmt(`SELECT count(*) FROM ${this.table} WHERE ${sql}`)
      .pluck()
      .get(...params) as number;
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    validateUpdate(update);
    return this.transaction(() => {
      const inserted = options.upsert ? this.insertedIfAbsent(filter, update) : undefined;
      if (inserted) return { matchedCount: 0, modifiedCount: 0, upsertedId: inserted._id };
      const row = this.firstRow(filter, undefined);
      if (row) return { matchedCount: 1, modifiedCount: this.rewrite(row, update) ? 1 : 0, upsertedId: null };
      if (options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedId: this.upsert(filter, update)._id };
      return { matchedCount: 0, modifiedCount: 0, upsertedId: null };
    });
  }

  async updateMany(filter: Filter, update: Update): Promise<UpdateResult> {
    validateUpdate(update);
    const { sql, params } = this.where(filter);
    return this.transaction(() => {
      // Row ids first (small), then each document: no statement stays open while we write.
      const rowids = this.stmt(`SELECT rowid FROM ${this.table} WHERE ${sql}`)
        .pluck()
        .all(...params) as number[];
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
    return this.findOneAndUpdateWithin(filter, update, options);
  }

  /** findOneAndUpdate, synchronous: inside a transaction the caller holds (a unit of work), part of it. */
  findOneAndUpdateWithin(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): T | null {
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

  async bulkWrite(operations: BulkWriteOperation<T>[]): Promise<BulkWriteResult> {
    const { result, failure } = this.transaction(() => this.bulkWriteWithin(operations));
    if (failure !== undefined) throw failure as Error;
    return result;
  }

  /**
   * The operations applied in order on the caller's transaction (the store's `transaction`), with
   * whether each update matched. Stops at the first failing operation and returns its error
   * instead of throwing, so the caller decides whether the transaction rolls back.
   */
  bulkWriteWithin(operations: BulkWriteOperation<T>[]): {
    result: BulkWriteResult;
    matched: boolean[];
    failure: unknown;
  } {
    const result: BulkWriteResult = { insertedCount: 0, matchedCount: 0, modifiedCount: 0, upsertedCount: 0 };
    const matched: boolean[] = [];
    for (const operation of operations) {
      try {
        if ('insertOne' in operation) {
          this.insertStatement().run(this.newRow(operation.insertOne.document));
          result.insertedCount++;
          matched.push(true);
          continue;
        }
        const { filter, update, upsert } = operation.updateOne;
        validateUpdate(update);
        if (upsert && this.insertedIfAbsent(filter, update)) {
          result.upsertedCount++;
          matched.push(false);
          continue;
        }
        const row = this.firstRow(filter, undefined);
        if (row) {
          result.matchedCount++;
          if (this.rewrite(row, update)) result.modifiedCount++;
          matched.push(true);
        } else {
          if (upsert) {
            this.upsert(filter, update);
            result.upsertedCount++;
          }
          matched.push(false);
        }
      } catch (error) {
        return { result, matched, failure: mapSqliteError(this.name, error, this.uniqueIndexes) };
      }
    }
    return { result, matched, failure: undefined };
  }

  async deleteOne(filter: Filter): Promise<number> {
    const { sql, params } = this.where(filter);
    const sub = `SELECT rowid FROM ${this.table} WHERE ${sql} LIMIT 1`;
    return this.transaction(() => this.stmt(`DELETE FROM ${this.table} WHERE rowid = (${sub})`).run(...params).changes);
  }

  async deleteMany(filter: Filter): Promise<number> {
    const { sql, params } = this.where(filter);
    return this.transaction(() => this.stmt(`DELETE FROM ${this.table} WHERE ${sql}`).run(...params).changes);
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    const keys = Object.entries(spec.keys);
    if (keys.length === 0) throw new TypeError('an index needs at least one key');
    if (spec.expireAfterSeconds !== undefined && keys.length !== 1)
      throw new TypeError('a TTL index has exactly one key');
    if (spec.substring) substringField(spec);
    const name = spec.name ?? defaultIndexName(spec.keys);
    const columnsBefore = [...this.columns];
    try {
      this.transaction(() => {
        this.host.recordIndex(this.name, name, spec);
        this.buildIndex(spec);
        this.indexesChanged(this.host.indexesOf(this.name));
      });
    } catch (error) {
      // The rollback took back the columns this index added to the table: forget them here too,
      // or every later insert would name a column the table does not have.
      this.columns.clear();
      for (const path of columnsBefore) this.columns.add(path);
      this.insertSql = undefined;
      throw error;
    }
  }

  async dropIndex(name: string): Promise<boolean> {
    assertSafeName('index', name);
    const spec = this.host.indexesOf(this.name).find((s) => (s.name ?? defaultIndexName(s.keys)) === name);
    if (spec?.expireAfterSeconds !== undefined || spec?.substring)
      throw new TypeError(`index ${name} on ${this.name} is a TTL or substring index, which dropIndex leaves alone`);
    return this.transaction(() => {
      const known = this.host.forgetIndex(this.name, name);
      // The index columns stay: other indexes may use them, and one without an index costs a write little.
      const dropped = this.host.db
        .prepare(`DROP INDEX IF EXISTS ${quoteIdent(sqliteIndexName(this.name, name))}`)
        .run();
      this.indexesChanged(this.host.indexesOf(this.name));
      return known || dropped.changes > 0;
    });
  }

  async explainIndexes(filter: Filter, options: FindOptions = {}): Promise<string[]> {
    const prefix = sqliteIndexName(this.name, 'x').slice(0, -1);
    // A substring index is searched as the filter is compiled, or by a subquery of its full-text table.
    const names = new Set<string>(this.where(filter).substringIndexes ?? []);
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
    const { sql, params } = this.where(filter);
    const plan = this.host.db
      .prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM ${this.table} WHERE ${sql}`)
      .all(...params) as { detail: string }[];
    return plan.map((row) => row.detail);
  }

  // --- internals -------------------------------------------------------------------------------

  private stmt(sql: string): Database.Statement {
    return this.host.statements.get(sql);
  }

  private where(filter: Filter): CompiledSql {
    return compileFilter(filter, this.columns, this.substring);
  }

  /**
   * The rowids of the rows whose text holds the phrase, or 'common' when at least one row in a
   * hundred of the collection (and at least COMMON_MATCHES_MIN rows) holds it: then a page is found
   * sooner by walking the sort's index and probing the full-text result, and the count by walking
   * the (covering) index of the other conditions, than by reading every match by rowid
   * (docs/store.md "Substring search"). Read up to that bound only. The query runs right after,
   * on the same connection, in the same turn of the event loop.
   *
   * A list asks for its page and then its count: the answer is kept while the database has not
   * changed, as SQLite tells it: `data_version` moves when another connection commits, and
   * `total_changes()` when this one writes (committed or not), so a kept answer is never stale.
   * Nothing is kept inside a transaction, whose writes a rollback would take back unseen.
   */
  private substringLookup(table: string, phrase: string): number[] | 'common' {
    const state = `${this.host.db.pragma('data_version', { simple: true }) as number}:${this.stmt('SELECT total_changes()').pluck().get() as number}`;
    const key = `${table}\u0000${phrase}`;
    const kept = this.lookups.get(key);
    if (kept?.state === state) return kept.found;
    const rows = (this.stmt(`SELECT max(rowid) FROM ${this.table}`).pluck().get() as number | null) ?? 0;
    const bound = Math.min(COMMON_MATCHES_MAX, Math.max(COMMON_MATCHES_MIN, Math.floor(rows / 100)));
    const rowids = this.stmt(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? LIMIT ?`)
      .pluck()
      .all(phrase, bound) as number[];
    const found = rowids.length >= bound ? 'common' : rowids;
    if (this.lookups.size >= 64) this.lookups.clear();
    if (!this.host.db.inTransaction) this.lookups.set(key, { state, found });
    return found;
  }

  /**
   * Makes sure an index exists on index columns: adds and fills the columns it needs, and replaces
   * an index of the same name built on json_extract expressions (stores from before the columns).
   * Runs inside a transaction.
   */
  private buildIndex(spec: IndexSpec): void {
    if (spec.substring) {
      this.buildSubstringIndex(spec);
      return;
    }
    const name = spec.name ?? defaultIndexName(spec.keys);
    const keys = Object.entries(spec.keys);
    for (const [path] of keys) if (path !== '_id') this.addColumn(path);
    const index = sqliteIndexName(this.name, name);
    const existing = this.host.db
      .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`)
      .pluck()
      .get(index) as string | undefined;
    // A sparse index is a partial index: rows whose first key is null are not in it. SQLite uses
    // it for any comparison on that key, since a comparison implies IS NOT NULL.
    const partial = spec.sparse ? ` WHERE ${fieldExpr(keys[0]![0], this.columns)} IS NOT NULL` : '';
    // Replace an index of the same name built another way: on json_extract expressions (stores
    // from before the columns), or with or without the partial condition.
    if (
      existing !== undefined &&
      (existing.includes('json_extract(') || existing.includes(' WHERE ') !== (partial !== ''))
    )
      this.host.db.exec(`DROP INDEX ${quoteIdent(index)}`);
    const columns = keys
      .map(([path, dir]) => `${fieldExpr(path, this.columns)} ${dir === -1 ? 'DESC' : 'ASC'}`)
      .join(', ');
    // Unique indexes enforce uniqueness on the same values filters compare.
    const unique = spec.unique ? 'UNIQUE ' : '';
    this.mapped(() =>
      this.host.db.exec(
        `CREATE ${unique}INDEX IF NOT EXISTS ${quoteIdent(index)} ON ${this.table} (${columns})${partial}`,
      ),
    );
  }

  /**
   * A substring index (docs/store.md "Substring search"): an FTS5 table with the trigram tokenizer
   * (case-sensitive: callers store and ask normalized text) holding, per row of the collection and
   * under its rowid, the field's text (an array's strings one per line). Triggers on the table keep
   * it equal to the documents on every write of any connection: an insert, an UPDATE that sets the
   * field's index column (this engine sets a column only when its field changed; the repair
   * triggers set it for a process that does not know the column), a delete (TTL sweeps included).
   * Made on a collection that has documents, it is filled from them at once. Contentless (the text
   * lives in the documents) with contentless_delete, so rows can be deleted by rowid.
   * The rowid is the link, so the table must never be rebuilt by VACUUM (which may renumber rowids
   * of a table without an INTEGER PRIMARY KEY); nothing in this engine runs VACUUM.
   */
  private buildSubstringIndex(spec: IndexSpec): void {
    const field = substringField(spec);
    this.addColumn(field);
    const name = spec.name ?? defaultIndexName(spec.keys);
    const ftsName = sqliteIndexName(this.name, name);
    const fts = quoteIdent(ftsName);
    const exists =
      this.host.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).pluck().get(ftsName) !==
      undefined;
    if (!exists) {
      this.host.db.exec(
        `CREATE VIRTUAL TABLE ${fts} USING fts5(text, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1)`,
      );
      this.host.db.exec(
        `INSERT INTO ${fts} (rowid, text) SELECT rowid, text FROM (SELECT rowid, ${substringText(field, 'doc')} AS text FROM ${this.table}) WHERE text IS NOT NULL`,
      );
    }
    const insert = `INSERT INTO ${fts} (rowid, text) SELECT NEW.rowid, text FROM (SELECT ${substringText(field, 'NEW.doc')} AS text) WHERE text IS NOT NULL;`;
    const remove = `DELETE FROM ${fts} WHERE rowid = OLD.rowid;`;
    const triggers: Array<[string, string]> = [
      ['insert', `AFTER INSERT ON ${this.table} BEGIN ${insert} END`],
      ['update', `AFTER UPDATE OF ${indexColumn(field)} ON ${this.table} BEGIN ${remove} ${insert} END`],
      ['delete', `AFTER DELETE ON ${this.table} BEGIN ${remove} END`],
    ];
    for (const [event, body] of triggers) {
      const trigger = `${ftsName}$${event}`;
      const sql = `CREATE TRIGGER ${quoteIdent(trigger)} ${body}`;
      const existing = this.host.db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`)
        .pluck()
        .get(trigger) as string | undefined;
      if (existing === sql) continue;
      this.host.db.exec(`DROP TRIGGER IF EXISTS ${quoteIdent(trigger)}`);
      this.host.db.exec(sql);
    }
  }

  /**
   * A read-only connection's collection learns its indexes again from the catalog the writer keeps
   * (after the writer made or dropped one): the index columns reads may use instead of
   * json_extract, the orders an index delivers, the substring tables. Nothing is written.
   */
  reloadIndexes(): void {
    if (!this.host.readOnly) throw new TypeError('reloadIndexes is for a read-only connection');
    const specs = this.host.indexesOf(this.name);
    // Only columns the table has: the writer adds a collection's columns when it opens it, so a
    // store from before index columns may lack some until then (json_extract answers meanwhile).
    const present = new Set(
      this.host.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(this.name) as string[],
    );
    const learn = (path: string): void => {
      if (present.has(indexColumn(path).slice(1, -1))) this.columns.add(path);
    };
    for (const spec of specs) {
      if (spec.substring) learn(substringField(spec));
      else for (const path of Object.keys(spec.keys)) if (path !== '_id') learn(path);
    }
    this.indexesChanged(specs);
  }

  /** After building indexes: the repair triggers and what reads and writes need to know of them. */
  private indexesChanged(specs: IndexSpec[]): void {
    if (!this.host.readOnly) this.syncColumnTriggers();
    // A substring index delivers no order and answers only $contains.
    this.indexKeys = specs.filter((s) => !s.substring).map((s) => s.keys);
    this.substringTables.clear();
    this.lookups.clear();
    for (const spec of specs) {
      const name = spec.name ?? defaultIndexName(spec.keys);
      if (spec.substring)
        this.substringTables.set(substringField(spec), { name, table: quoteIdent(sqliteIndexName(this.name, name)) });
    }
    this.uniqueIndexes = specs
      .filter((s) => s.unique)
      .map((s) => ({ name: s.name ?? defaultIndexName(s.keys), paths: Object.keys(s.keys) }));
  }

  private mapped<R>(run: () => R): R {
    return rethrowMapped(this.name, run, this.uniqueIndexes);
  }

  /**
   * The safety net under the index columns: triggers that repair a column which a write left
   * different from json_extract of the new document. This process always writes the columns
   * itself, so they never fire here; they cover another process on the same file (the admin CLI)
   * that opened this collection before an index, and so a column, was added.
   */
  private syncColumnTriggers(): void {
    const paths = [...this.columns];
    if (paths.length === 0) return;
    const stale = paths.map((path) => `NEW.${indexColumn(path)} IS NOT ${jsonExtract(path, 'NEW.doc')}`).join(' OR ');
    const sets = paths.map((path) => `${indexColumn(path)} = ${jsonExtract(path, 'NEW.doc')}`).join(', ');
    // A process that knows every column (it wrote them) skips the check, and its json_extract
    // calls, with one function call; a process that knows fewer (opened the collection before an
    // index was added) repairs them.
    const known = `${KNOWN_COLUMNS_FUNCTION}(${sqlString(this.name)})`;
    const body = `WHEN ${known} < ${paths.length} AND (${stale}) BEGIN UPDATE ${this.table} SET ${sets} WHERE rowid = NEW.rowid; END`;
    for (const [suffix, event] of [
      ['insert', 'AFTER INSERT'],
      ['update', 'AFTER UPDATE OF doc'],
    ] as const) {
      const name = quoteIdent(`${this.name}$index_columns_${suffix}`);
      const sql = `CREATE TRIGGER ${name} ${event} ON ${this.table} ${body}`;
      const existing = this.host.db
        .prepare(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?`)
        .pluck()
        .get(name.slice(1, -1)) as string | undefined;
      if (existing === sql) continue;
      this.host.db.exec(`DROP TRIGGER IF EXISTS ${name}`);
      this.host.db.exec(sql);
    }
  }

  private addColumn(path: string): void {
    if (this.columns.has(path)) return;
    const column = indexColumn(path);
    const present = (
      this.host.db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(this.name) as string[]
    ).includes(column.slice(1, -1));
    if (!present) {
      // No declared type: the column keeps json_extract's value and type as they are (text, integer, real or NULL).
      this.host.db.exec(`ALTER TABLE ${this.table} ADD COLUMN ${column}`);
      this.host.db.exec(`UPDATE ${this.table} SET ${column} = ${jsonExtract(path)}`);
    }
    this.columns.add(path);
    this.insertSql = undefined;
  }

  /**
   * The write of an idempotent record (an activity entry, a dedup log entry): an upsert that names
   * its `_id` and only sets on insert. Tried as an insert that does nothing when the `_id` is
   * stored; when it inserted, the usual path would have found no document with that `_id` and
   * inserted the same one, so only a stored `_id` goes on to the usual look-up (which saves each
   * new record a filter compile and a read). Other unique indexes still refuse a duplicate.
   * Returns the inserted document, or undefined when the usual path must decide.
   */
  private insertedIfAbsent(filter: Filter, update: Update): T | undefined {
    if (typeof filter['_id'] !== 'string' || Object.keys(update).some((operator) => operator !== '$setOnInsert'))
      return undefined;
    const doc = setOnInsert(seedFromFilter(filter) as T, update);
    if (typeof doc._id !== 'string') return undefined;
    const changes = this.stmt(`${this.insertSqlText()} ON CONFLICT (id) DO NOTHING`).run(this.newRow(doc)).changes;
    return changes === 1 ? doc : undefined;
  }

  /** INSERT of a document with its index columns. Named parameters: id, doc, c0, c1, ... (newRow). */
  private insertStatement(): Database.Statement {
    return this.stmt(this.insertSqlText());
  }

  private insertSqlText(): string {
    if (this.insertSql === undefined) {
      const paths = [...this.columns];
      const names = paths.map((path) => `, ${indexColumn(path)}`).join('');
      const values = paths.map((_, index) => `, @c${index}`).join('');
      this.insertSql = `INSERT INTO ${this.table} (id, doc${names}) VALUES (@id, @doc${values})`;
    }
    return this.insertSql;
  }

  /**
   * The parameters of insertStatement: the document's text and each index column's value, taken
   * from the stored JSON form in JS as json_extract would give it (SQLite parsing the text once
   * per indexed field cost more than the index writes themselves).
   */
  private newRow(doc: T): Record<string, string | number | null> {
    if (typeof doc._id !== 'string' || doc._id === '')
      throw new TypeError(`${this.name}: every document needs a string _id`);
    const json = toJson(doc);
    const row: Record<string, string | number | null> = { id: doc._id, doc: JSON.stringify(json) };
    let index = 0;
    for (const path of this.columns) row[`c${index++}`] = extractedValue(json, path);
    return row;
  }

  /** `, "f:a" = @c3` for a changed field (built once per field). */
  private setColumnSql(path: string): string {
    let sql = this.setColumnSqlByPath.get(path);
    if (sql === undefined) {
      sql = `, ${indexColumn(path)} = @${this.columnParam(path)}`;
      this.setColumnSqlByPath.set(path, sql);
    }
    return sql;
  }

  /** The named parameter of an index column's value (c0, c1, ... in column order). */
  private columnParam(path: string): string {
    return `c${[...this.columns].indexOf(path)}`;
  }

  /** How many index columns this process knows for the collection (the repair triggers ask). */
  get knownColumns(): number {
    return this.columns.size;
  }

  private transaction<R>(run: () => R): R {
    return this.mapped(() => this.host.transaction(run));
  }

  private selectSql(filter: Filter, options: FindOptions): { sql: string; params: BindValue[] } {
    const where = this.where(filter);
    return {
      sql: `SELECT doc FROM ${this.table} WHERE ${where.sql} ORDER BY ${compileSort(options.sort, this.indexKeys, this.columns)} LIMIT ${limitLiteral(options.limit)} OFFSET ?`,
      params: [...where.params, options.skip ?? 0],
    };
  }

  private select(filter: Filter, options: FindOptions): T[] {
    const { sql, params } = this.selectSql(filter, options);
    return (
      this.stmt(sql)
        .pluck()
        .all(...params) as string[]
    ).map((text) => decodeDoc<T>(text));
  }

  private firstRow(filter: Filter, sort: FindOptions['sort']): Row | undefined {
    const { sql, params } = this.where(filter);
    const text = `SELECT rowid, doc FROM ${this.table} WHERE ${sql} ORDER BY ${compileSort(sort, this.indexKeys, this.columns)} LIMIT 1`;
    return this.stmt(text)
      .pluck(false)
      .get(...params) as Row | undefined;
  }

  /** Applies the update to a stored row; returns the new document, or null when nothing changed. */
  private rewrite(row: Row, update: Update, current = decodeDoc<T>(row.doc)): T | null {
    const next = applyUpdate(current, update, { inserting: false });
    const json = toJson(next);
    const encoded = JSON.stringify(json);
    if (encoded === row.doc) return null;
    // Only the index columns whose field changed are set, so only their indexes are rewritten.
    const changed = [...this.columns].filter((path) => !sameValue(valueAt(current, path), valueAt(next, path)));
    const sets = changed.map((path) => this.setColumnSql(path)).join('');
    const params: Record<string, string | number | null> = { doc: encoded, rowid: row.rowid };
    for (const path of changed) params[this.columnParam(path)] = extractedValue(json, path);
    this.stmt(`UPDATE ${this.table} SET doc = @doc${sets} WHERE rowid = @rowid`).run(params);
    return next;
  }

  private upsert(filter: Filter, update: Update): T {
    const doc = applyUpdate(seedFromFilter(filter) as T, update, { inserting: true });
    if (typeof doc._id !== 'string') {
      throw new TypeError(`${this.name}: an upsert needs a string _id in the filter or in $setOnInsert`);
    }
    this.insertStatement().run(this.newRow(doc));
    return doc;
  }
}

/** The field a substring index holds (its last key), checked: top level, not `_id`, no other option. */
function substringField(spec: IndexSpec): string {
  const field = Object.keys(spec.keys).at(-1);
  if (field === undefined || field === '_id' || field.includes('.'))
    throw new TypeError('a substring index ends with a top-level field other than _id');
  if (spec.unique || spec.expireAfterSeconds !== undefined || spec.sparse)
    throw new TypeError('a substring index is not unique, TTL or sparse');
  jsonPathLiteral(field); // validates the name
  return field;
}

/**
 * SQL for the text a substring index holds for a document: the field's string, or its array's
 * strings one per line (SUBSTRING_SEPARATOR); NULL when there is none. Dates are not text.
 */
function substringText(field: string, source: string): string {
  const path = jsonPathLiteral(field);
  const separator = `char(${SUBSTRING_SEPARATOR.charCodeAt(0)})`;
  const strings = `(SELECT group_concat(value, ${separator}) FROM json_each(${source}, ${path}) WHERE type = 'text' AND ${NOT_A_DATE})`;
  // json_each over a string yields the string itself.
  return `CASE WHEN json_type(${source}, ${path}) IN ('text', 'array') THEN ${strings} END`;
}

/** See EmbeddedCollection.commonPhrase. */
const COMMON_MATCHES_MIN = 1_000;
const COMMON_MATCHES_MAX = 20_000;

/** The SQL function the repair triggers call: index columns the writing connection's process knows. */
export const KNOWN_COLUMNS_FUNCTION = 'leadstream_known_columns';

function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The document an upsert of top-level `$setOnInsert` fields inserts, built without applyUpdate's
 * copies: it is serialized at once and dropped (the caller's update has been validated already).
 * Like applyUpdate, a field the filter also names takes the update's value; dotted paths (parents
 * to create) take applyUpdate's way.
 */
function setOnInsert<T extends BaseDocument>(seed: T, update: Update): T {
  const fields = update.$setOnInsert ?? {};
  const keys = Object.keys(fields);
  if (keys.some((key) => key.includes('.'))) return applyUpdate(seed, update, { inserting: true });
  // Object.assign, not a spread: a spread copy that then takes fields is many times slower in
  // Node 20 (about 10 µs against 0.5 for an activity entry; docs/performance.md "Copies of a lead").
  // An own __proto__ key would set the copy's prototype there, so it takes the spread.
  const doc: Record<string, unknown> = Object.hasOwn(seed, '__proto__') ? { ...seed } : Object.assign({}, seed);
  for (const key of keys) if (fields[key] !== undefined) doc[key] = fields[key];
  return doc as T;
}

/**
 * What json_extract returns for a path of the stored JSON form: text, a number, 1/0 for
 * booleans, NULL for null or missing, and JSON text for arrays and objects.
 */
function extractedValue(json: unknown, path: string): string | number | null {
  let value: unknown = json;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[segment];
  }
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return JSON.stringify(value);
}

/** The value at a dotted path of a decoded document (undefined when a segment is missing). */
function valueAt(doc: unknown, path: string): unknown {
  let value: unknown = doc;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** Whether two field values store the same JSON (a missing field and null both read as NULL). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(toJson((a ?? null) as DocValue)) === JSON.stringify(toJson((b ?? null) as DocValue));
}
