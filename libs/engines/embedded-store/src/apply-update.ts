/**
 * The update operators of the port applied to a document in memory (the embedded engine does
 * read-modify-write inside a transaction). Mirrors MongoDB: missing parents are created,
 * `$inc`/`$push` start from nothing, `$setOnInsert` applies only when an upsert inserts, two
 * operators may not touch the same path, and `_id` is immutable once the document exists.
 */
import { type BaseDocument, type DocValue, type Filter, type Update } from '@leadstream/ports';
import { isOperatorObject } from './filter-to-sql';
import { pathSegments } from './sql-names';

type DocObject = { [key: string]: DocValue | undefined };

const UPDATE_OPERATORS = new Set(['$set', '$unset', '$inc', '$push', '$setOnInsert']);

function isObject(value: unknown): value is DocObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);
}

/** Checks an update's shape before it touches anything. */
export function validateUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0) throw new TypeError('an update needs at least one operator');
  const paths: string[] = [];
  for (const op of keys) {
    if (!UPDATE_OPERATORS.has(op)) throw new TypeError(`unsupported update operator ${op}`);
    const fields = update[op as keyof Update] ?? {};
    for (const path of Object.keys(fields)) {
      pathSegments(path);
      if (op !== '$setOnInsert' && (path === '_id' || path.startsWith('_id.'))) {
        throw new TypeError(`${op} may not change _id`);
      }
      paths.push(path);
    }
  }
  // MongoDB refuses an update that names one path twice or a path and its parent.
  paths.forEach((a, i) => {
    paths.forEach((b, j) => {
      if (i !== j && (a === b || b.startsWith(`${a}.`))) throw new TypeError(`update paths ${a} and ${b} conflict`);
    });
  });
}

/** The object holding the last segment of `path`, created on the way when `create` is set. */
function parentOf(doc: DocObject, path: string, create: boolean): { parent: DocObject; key: string } | null {
  const segments = pathSegments(path);
  let node: DocObject = doc;
  for (const segment of segments.slice(0, -1)) {
    const next = node[segment];
    if (next === undefined || next === null) {
      if (!create) return null;
      const fresh: DocObject = {};
      node[segment] = fresh;
      node = fresh;
    } else if (isObject(next)) {
      node = next;
    } else {
      throw new TypeError(`cannot reach ${path}: ${segment} is not an object`);
    }
  }
  return { parent: node, key: segments[segments.length - 1]! };
}

/** Returns the updated copy; the input is not modified. */
export function applyUpdate<T extends BaseDocument>(doc: T, update: Update, options: { inserting: boolean }): T {
  validateUpdate(update);
  const out = structuredClone(doc) as DocObject;
  const sets: [string, DocValue | undefined][] = Object.entries(update.$set ?? {});
  if (options.inserting) sets.push(...Object.entries(update.$setOnInsert ?? {}));
  for (const [path, value] of sets) {
    if (value === undefined) continue; // like the MongoDB driver with ignoreUndefined
    const { parent, key } = parentOf(out, path, true)!;
    parent[key] = structuredClone(value);
  }
  for (const path of Object.keys(update.$unset ?? {})) {
    const found = parentOf(out, path, false);
    if (found) delete found.parent[found.key];
  }
  for (const [path, amount] of Object.entries(update.$inc ?? {})) {
    if (typeof amount !== 'number') throw new TypeError(`$inc ${path} needs a number`);
    const { parent, key } = parentOf(out, path, true)!;
    const current = parent[key];
    if (current === undefined) parent[key] = amount;
    else if (typeof current === 'number') parent[key] = current + amount;
    else throw new TypeError(`$inc ${path}: the field is not a number`);
  }
  for (const [path, value] of Object.entries(update.$push ?? {})) {
    const { parent, key } = parentOf(out, path, true)!;
    const current = parent[key];
    if (current === undefined) parent[key] = [structuredClone(value)];
    else if (Array.isArray(current)) current.push(structuredClone(value));
    else throw new TypeError(`$push ${path}: the field is not an array`);
  }
  return out as T;
}

/**
 * The document an upsert starts from: the filter's equality conditions (top level and inside
 * `$and`), as MongoDB builds it.
 */
export function seedFromFilter(filter: Filter): DocObject {
  const seed: DocObject = {};
  const visit = (f: Filter): void => {
    for (const [key, condition] of Object.entries(f)) {
      if (key === '$and') (condition as Filter[]).forEach(visit);
      if (key.startsWith('$') || condition === undefined) continue;
      let value: DocValue | undefined;
      if (isOperatorObject(condition)) value = condition.$eq;
      else if (!Array.isArray(condition)) value = condition;
      if (value === undefined) continue;
      const { parent, key: last } = parentOf(seed, key, true)!;
      parent[last] = structuredClone(value);
    }
  };
  visit(filter);
  return seed;
}
