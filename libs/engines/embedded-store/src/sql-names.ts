/**
 * Names that end up inside SQL text. Collection names, index names and field paths are inlined
 * (not bound) because SQLite matches an expression index only against textually identical
 * expressions; so they are restricted to a safe alphabet before they get anywhere near SQL.
 */

const SAFE_NAME = /^[A-Za-z0-9_.-]+$/;
const SAFE_SEGMENT = /^[A-Za-z0-9_-]+$/;

export function assertSafeName(kind: 'collection' | 'index', name: string): string {
  if (!SAFE_NAME.test(name) || name.length > 120) {
    throw new TypeError(`invalid ${kind} name ${JSON.stringify(name)}: use only [A-Za-z0-9_.-]`);
  }
  return name;
}

/** Paths already split and found valid: every write checks each of its fields' paths. */
const validPaths = new Map<string, readonly string[]>();

/** Splits and validates a dotted field path (`address.city`). */
export function pathSegments(path: string): readonly string[] {
  const known = validPaths.get(path);
  if (known) return known;
  const segments = path.split('.');
  for (const segment of segments) {
    if (!SAFE_SEGMENT.test(segment) || segment.startsWith('$')) {
      throw new TypeError(`invalid field path ${JSON.stringify(path)}: use only [A-Za-z0-9_-] separated by dots`);
    }
  }
  // Bounded: documents with free-form keys (custom fields) must not grow it without end.
  if (validPaths.size >= 10_000) validPaths.clear();
  validPaths.set(path, segments);
  return segments;
}

/** A double-quoted SQL identifier (the name is already validated, so no escaping is needed). */
export function quoteIdent(name: string): string {
  return `"${name}"`;
}

/** The quoted JSON path literal of a field: `'$."address"."city"'`. */
export function jsonPathLiteral(path: string): string {
  // Keys are quoted so that `-` and leading digits are read as part of the key.
  return `'$${pathSegments(path)
    .map((s) => `."${s}"`)
    .join('')}'`;
}

/**
 * The one SQL expression for a field's value. Filters, sorts and index DDL all call this, so the
 * text is identical everywhere. `_id` lives in the primary-key column; a field that some index
 * holds has a column of its own (`columns`, see indexColumn) kept equal to its json_extract value;
 * any other field is read from the JSON text.
 */
export function fieldExpr(path: string, columns?: ReadonlySet<string>): string {
  if (path === '_id') return 'id';
  if (columns?.has(path)) return indexColumn(path);
  return jsonExtract(path);
}

/** `json_extract(doc, '$."a"."b"')`: the stored JSON's value at the path, as SQLite reads it. */
export function jsonExtract(path: string, source = 'doc'): string {
  return `json_extract(${source}, ${jsonPathLiteral(path)})`;
}

/**
 * The column that holds an indexed field (`"f:status"`). Indexes are built on these columns, not
 * on json_extract expressions, so that a write which leaves a field unchanged does not touch the
 * indexes of that field: SQLite skips every index whose columns an UPDATE does not set.
 */
export function indexColumn(path: string): string {
  pathSegments(path);
  return quoteIdent(`f:${path}`);
}

/** The JSON type of a field ('null', 'true', 'integer', 'text', ...) or SQL NULL when missing. */
export function fieldTypeExpr(path: string): string {
  if (path === '_id') return `'text'`;
  return `json_type(doc, ${jsonPathLiteral(path)})`;
}

/** SQL table name of a collection. */
export function tableName(collection: string): string {
  return quoteIdent(assertSafeName('collection', collection));
}

/** SQLite index names are per database, so they carry the collection name. */
export function sqliteIndexName(collection: string, index: string): string {
  return `${collection}$${assertSafeName('index', index)}`;
}

/** Mongo's default index name: `status_1_createdAt_-1`. */
export function defaultIndexName(keys: Record<string, 1 | -1>): string {
  return Object.entries(keys)
    .map(([k, dir]) => `${k}_${dir}`)
    .join('_');
}
