/**
 * Compiles a port filter into a SQL condition over `json_extract(doc, ...)`.
 *
 * MongoDB semantics kept here (docs/store.md):
 * - `null` (and `$eq: null`) matches a missing field as well as a null one; `$ne`/`$nin` match
 *   missing fields. json_extract returns SQL NULL for both, and the clauses are made two-valued
 *   before they are negated so NULL does not swallow a `NOT`.
 * - Range operators only compare values of the operand's type (numbers with numbers, strings with
 *   strings, dates with dates), as MongoDB's type bracketing does.
 * - json_extract turns true/false into 1/0, so booleans and numbers are told apart with json_type.
 *
 * Values are always bound; only validated paths are inlined, so the SQL text depends on the
 * filter's shape, not its values (but for whether a `$contains` text is common, see contains),
 * and prepared statements can be cached by text.
 */
import { type FieldOperators, type Filter, type Scalar, SUBSTRING_MIN_LENGTH } from '@leadstream/ports';
import { DATE_HIGH_SQL, DATE_LOW_SQL, DATE_TAG, ESCAPE, bindScalar } from './codec';
import { fieldExpr, fieldTypeExpr, jsonPathLiteral } from './sql-names';

export type BindValue = string | number | null;

export interface CompiledSql {
  sql: string;
  params: BindValue[];
  /** Names of the substring indexes the condition reads (explainIndexes), when it reads any. */
  substringIndexes?: string[];
}

/** Name of the SQL function registered on every connection for `$regex`. */
export const REGEX_FUNCTION = 'leadstream_regex';

const OPERATORS = new Set([
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$exists',
  '$regex',
  '$options',
  '$all',
  '$contains',
]);

/**
 * What separates the elements of an array field in its full-text row (substring indexes): text
 * that holds it cannot be looked up there, since a match could span two elements.
 */
export const SUBSTRING_SEPARATOR = '\n';

/** The collection's substring indexes, as compileFilter needs them. */
export interface SubstringIndexes {
  /** Each indexed field's index: its name and the quoted name of its full-text table. */
  tables: ReadonlyMap<string, { name: string; table: string }>;
  /**
   * The rowids of the rows whose text holds the phrase, when they are few; 'common' when so many
   * hold it that the query is better driven by the other conditions' index, probing the full-text
   * result (a Bloom filter), which stops at a page's last row, than by reading each match.
   */
  lookup(table: string, phrase: string): number[] | 'common';
}

const RANGE_SQL = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;
type RangeOp = keyof typeof RANGE_SQL;

const NUMBER_TYPES = `IN ('integer','real')`;

class Params {
  readonly values: BindValue[] = [];
  constructor(
    private readonly columns: ReadonlySet<string> | undefined,
    readonly substring: SubstringIndexes | undefined,
  ) {}
  readonly substringIndexes = new Set<string>();
  /**
   * Set while compiling conditions beside a `$contains` that a substring index answers for few
   * rows: those conditions are then kept off their indexes (unary `+`, SQLite's way), so the rows
   * the full-text lookup found drive the query. Otherwise SQLite walks a tenant index in sort
   * order probing each row against them, which reads all of a tenant's rows when few match.
   */
  unindexed = false;
  /** The SQL of a field's value (its index column when it has one). */
  field(path: string): string {
    const expr = fieldExpr(path, this.columns);
    return this.unindexed && path !== '_id' ? `+${expr}` : expr;
  }
  bind(value: BindValue): string {
    this.values.push(value);
    return '?';
  }
}

/**
 * `columns`: the fields that have an index column (read from it rather than from the JSON);
 * `substring`: the fields that have a substring index, and how common a phrase is there.
 */
export function compileFilter(
  filter: Filter,
  columns?: ReadonlySet<string>,
  substring?: SubstringIndexes,
): CompiledSql {
  const params = new Params(columns, substring);
  const sql = compileInto(params, filter);
  return {
    sql,
    params: params.values,
    ...(params.substringIndexes.size > 0 ? { substringIndexes: [...params.substringIndexes] } : {}),
  };
}

function compileInto(params: Params, filter: Filter): string {
  const clauses: string[] = [];
  const unindexed = params.unindexed;
  // The full-text lookups of this level first: a few matches drive the query (see unindexed).
  const found = new Map<string, number[] | 'common'>();
  for (const [key, condition] of Object.entries(filter)) {
    if (key.startsWith('$') || !isOperatorObject(condition)) continue;
    const index = substringIndex(params, key, condition.$contains);
    if (index) found.set(key, params.substring!.lookup(index.table, phraseOf(condition.$contains!)));
  }
  params.unindexed ||= [...found.values()].some((rowids) => rowids !== 'common');
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue; // as the MongoDB driver does with ignoreUndefined
    if (key === '$and' || key === '$or') {
      if (!Array.isArray(condition) || condition.length === 0) {
        throw new TypeError(`${key} needs a non-empty array of filters`);
      }
      const parts = condition.map((sub) => `(${compileInto(params, sub)})`);
      clauses.push(parts.join(key === '$and' ? ' AND ' : ' OR '));
    } else if (key.startsWith('$')) {
      throw new TypeError(`unsupported top-level operator ${key}`);
    } else {
      clauses.push(compileField(params, key, condition as Scalar | FieldOperators, found.get(key)));
    }
  }
  params.unindexed = unindexed;
  if (clauses.length === 0) return '1';
  return clauses.length === 1 ? clauses[0]! : clauses.map((c) => `(${c})`).join(' AND ');
}

export function isOperatorObject(value: unknown): value is FieldOperators {
  if (value === null || typeof value !== 'object' || value instanceof Date || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function compileField(
  params: Params,
  path: string,
  condition: Scalar | FieldOperators,
  found?: number[] | 'common',
): string {
  if (!isOperatorObject(condition)) {
    if (condition !== null && typeof condition === 'object' && !(condition instanceof Date)) {
      throw new TypeError(`filter on ${path}: equality compares scalars (use $all for arrays)`);
    }
    return equals(params, path, condition);
  }
  const ops = condition;
  const clauses: string[] = [];
  for (const op of Object.keys(ops)) {
    if (!OPERATORS.has(op)) throw new TypeError(`unsupported operator ${op} on ${path}`);
  }
  if (ops.$options !== undefined && ops.$regex === undefined) throw new TypeError(`$options without $regex on ${path}`);
  if (ops.$eq !== undefined) clauses.push(equals(params, path, ops.$eq));
  if (ops.$ne !== undefined) clauses.push(`NOT coalesce(${equals(params, path, ops.$ne)}, 0)`);
  if (ops.$in !== undefined) clauses.push(inList(params, path, ops.$in));
  if (ops.$nin !== undefined) clauses.push(`NOT coalesce(${inList(params, path, ops.$nin)}, 0)`);
  for (const op of Object.keys(RANGE_SQL) as RangeOp[]) {
    const operand = ops[op];
    if (operand !== undefined) clauses.push(range(params, path, op, operand));
  }
  if (ops.$exists !== undefined) clauses.push(`${fieldTypeExpr(path)} IS ${ops.$exists ? 'NOT NULL' : 'NULL'}`);
  if (ops.$regex !== undefined) clauses.push(regex(params, path, ops.$regex, ops.$options ?? ''));
  if (ops.$all !== undefined) clauses.push(all(params, path, ops.$all));
  if (ops.$contains !== undefined) clauses.push(contains(params, path, ops.$contains, found));
  return clauses.length === 1 ? clauses[0]! : clauses.map((c) => `(${c})`).join(' AND ');
}

function equals(params: Params, path: string, value: Scalar): string {
  const e = params.field(path);
  const t = fieldTypeExpr(path);
  if (value === null) return `${e} IS NULL`;
  if (typeof value === 'boolean') return `(${e} = ${params.bind(bindScalar(value))} AND ${t} = '${value}')`;
  if (typeof value === 'number') return `(${e} = ${params.bind(value)} AND ${t} ${NUMBER_TYPES})`;
  // JSON text of a nested array or object could otherwise equal a string operand.
  if (typeof value === 'string' && /^[[{]/.test(value)) return `(${e} = ${params.bind(value)} AND ${t} = 'text')`;
  return `${e} = ${params.bind(bindScalar(value))}`;
}

function inList(params: Params, path: string, values: Scalar[]): string {
  if (!Array.isArray(values)) throw new TypeError(`$in/$nin on ${path} needs an array`);
  // Plain strings and dates compare as text and can share one IN (...), which uses an index.
  const text = values.filter(
    (v): v is string | Date => v instanceof Date || (typeof v === 'string' && !/^[[{]/.test(v)),
  );
  const others = values.filter((v) => !text.includes(v as string | Date));
  const clauses: string[] = [];
  if (text.length > 0)
    clauses.push(`${params.field(path)} IN (${text.map((v) => params.bind(bindScalar(v))).join(', ')})`);
  for (const value of others) clauses.push(equals(params, path, value));
  if (clauses.length === 0) return '0';
  return clauses.length === 1 ? clauses[0]! : `(${clauses.join(' OR ')})`;
}

function range(params: Params, path: string, op: RangeOp, value: Scalar): string {
  const e = params.field(path);
  const t = fieldTypeExpr(path);
  const cmp = `${e} ${RANGE_SQL[op]} `;
  if (value === null) return op === '$gte' || op === '$lte' ? `${e} IS NULL` : '0';
  if (typeof value === 'number') return `(${cmp}${params.bind(value)} AND ${t} ${NUMBER_TYPES})`;
  if (typeof value === 'boolean') return `(${cmp}${params.bind(bindScalar(value))} AND ${t} IN ('true','false'))`;
  if (value instanceof Date) {
    return `(${cmp}${params.bind(bindScalar(value))} AND ${e} >= ${DATE_LOW_SQL} AND ${e} < ${DATE_HIGH_SQL})`;
  }
  return `(${cmp}${params.bind(bindScalar(value))} AND ${t} = 'text' AND (${e} < ${DATE_LOW_SQL} OR ${e} >= ${DATE_HIGH_SQL}))`;
}

function regex(params: Params, path: string, pattern: string, options: string): string {
  if (options !== '' && options !== 'i') throw new TypeError(`$options on ${path}: only 'i' is supported`);
  new RegExp(pattern, options); // fail on a bad pattern here, not inside SQLite
  return `${REGEX_FUNCTION}(${params.field(path)}, ${params.bind(pattern)}, ${params.bind(options)})`;
}

function all(params: Params, path: string, values: Scalar[]): string {
  if (path === '_id') throw new TypeError('$all does not apply to _id');
  if (!Array.isArray(values) || values.length === 0) return '0'; // MongoDB: `$all: []` matches nothing
  const each = values.map((value) => {
    let element: string;
    if (value === null) element = `type = 'null'`;
    else if (typeof value === 'boolean') element = `type = '${value}'`;
    else if (typeof value === 'number') element = `value = ${params.bind(value)} AND type ${NUMBER_TYPES}`;
    else element = `value = ${params.bind(bindScalar(value))} AND type = 'text'`;
    // json_each over a scalar yields the scalar itself, so `$all: [x]` matches a field equal to x, as in MongoDB.
    return `EXISTS (SELECT 1 FROM json_each(doc, ${jsonPathLiteral(path)}) WHERE ${element})`;
  });
  return each.length === 1 ? each[0]! : each.map((c) => `(${c})`).join(' AND ');
}

/** The FTS5 query of text: one phrase (consecutive trigrams), quotes doubled. */
const phraseOf = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/** The substring index that answers `$contains: text` on the field, if one does. */
function substringIndex(params: Params, path: string, text: unknown): { name: string; table: string } | undefined {
  if (typeof text !== 'string' || [...text].length < SUBSTRING_MIN_LENGTH || text.includes(SUBSTRING_SEPARATOR))
    return undefined;
  return params.substring?.tables.get(path);
}

/**
 * `$contains`: the rows the field's full-text table (FTS5, trigram tokens) holds the text for, as
 * a phrase: consecutive trigrams, so exactly the rows where the text appears. When they are few,
 * their rowids, found once as the query is compiled (so a page and its count each search the
 * table once), are bound as a list; when many, the lookup stays in the query. Text shorter than
 * a trigram, or holding the element separator, is looked for in each string of the field instead.
 */
function contains(params: Params, path: string, text: string, found: number[] | 'common' | undefined): string {
  if (typeof text !== 'string') throw new TypeError(`$contains on ${path} needs a string`);
  const index = substringIndex(params, path, text);
  if (index !== undefined && found !== undefined) {
    params.substringIndexes.add(index.name);
    if (found !== 'common') return `rowid IN (SELECT value FROM json_each(${params.bind(JSON.stringify(found))}))`;
    return `rowid IN (SELECT rowid FROM ${index.table} WHERE ${index.table} MATCH ${params.bind(phraseOf(text))})`;
  }
  // json_each over a string yields the string itself, as over an array it yields each element.
  return `EXISTS (SELECT 1 FROM json_each(doc, ${jsonPathLiteral(path)}) WHERE type = 'text' AND ${NOT_A_DATE} AND instr(value, ${params.bind(text)}) > 0)`;
}

/** A text value of json_each that is not a stored date (dates are text behind DATE_TAG). */
export const NOT_A_DATE = `substr(value, 1, 1) <> ${DATE_LOW_SQL}`;

/** `$regex` as a SQLite function: strings only (never dates), compiled patterns cached. */
export function createRegexFunction(): (value: unknown, pattern: string, options: string) => number {
  const cache = new Map<string, RegExp>();
  return (value, pattern, options) => {
    if (typeof value !== 'string' || value.startsWith(DATE_TAG)) return 0;
    const text = value.startsWith(ESCAPE) ? value.slice(1) : value;
    const key = `${options}/${pattern}`;
    let re = cache.get(key);
    if (!re) {
      if (cache.size > 1000) cache.clear();
      re = new RegExp(pattern, options);
      cache.set(key, re);
    }
    return re.test(text) ? 1 : 0;
  };
}
