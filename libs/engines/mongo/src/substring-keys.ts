/**
 * Substring indexes on a MongoDB-protocol server (docs/store.md "Substring search").
 *
 * MongoDB answers a regular expression anchored at the start (`^text`) from an ordinary index as
 * one key range, and FerretDB gets `$regex` on arrays right (it does not get `$elemMatch` ranges
 * right); neither has an index for text in the middle of a string. So each substring-indexed
 * field F has a hidden copy `_substrings.F`: the suffixes of its strings (of SUBSTRING_MIN_LENGTH
 * characters or more, each cut to MAX_KEY_LENGTH characters), indexed as a multikey index after
 * the index's equality keys. `{F: {$contains: t}}` becomes `{'_substrings.F': {$regex: '^t'}}`
 * (text found anywhere is the start of one suffix) plus `{F: {$regex: 't'}}`, which keeps the
 * answer exact for text longer than a cut key and costs nothing more than the fetch that follows.
 *
 * The engine writes the copy itself on every write that sets, unsets or inserts F, so writers
 * need not know of it, and takes it out of whatever it reads.
 */
import { type Filter, type FieldOperators, type IndexSpec, type Update, SUBSTRING_MIN_LENGTH } from '@leadstream/ports';

/** The hidden field: one array of keys per substring-indexed field. */
export const SUBSTRINGS_FIELD = '_substrings';
/** Keys are cut to this many characters; longer text is checked against the field itself. */
export const MAX_KEY_LENGTH = 32;

/** The field a substring index holds (its last key), checked: top level, not `_id`, no other option. */
export function substringField(spec: IndexSpec): string {
  const field = Object.keys(spec.keys).at(-1);
  if (
    field === undefined ||
    field === '_id' ||
    field.includes('.') ||
    field.startsWith('$') ||
    field === SUBSTRINGS_FIELD
  ) {
    throw new TypeError('a substring index ends with a top-level field other than _id');
  }
  if (spec.unique || spec.expireAfterSeconds !== undefined || spec.sparse)
    throw new TypeError('a substring index is not unique, TTL or sparse');
  return field;
}

/** The keys of a field's value: the suffixes of each string, SUBSTRING_MIN_LENGTH to MAX_KEY_LENGTH characters. */
export function substringKeys(value: unknown): string[] {
  const strings = Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : typeof value === 'string'
      ? [value]
      : [];
  const keys = new Set<string>();
  for (const text of strings) {
    const characters = [...text];
    for (let start = 0; start + SUBSTRING_MIN_LENGTH <= characters.length; start++)
      keys.add(characters.slice(start, start + MAX_KEY_LENGTH).join(''));
  }
  return [...keys];
}

/** A document to insert, with the keys of its substring-indexed fields. */
export function withSubstringKeys<T extends object>(doc: T, fields: ReadonlySet<string>): T {
  if (fields.size === 0) return doc;
  const keys: Record<string, string[]> = {};
  for (const field of fields) {
    const value = (doc as Record<string, unknown>)[field];
    if (value !== undefined) keys[field] = substringKeys(value);
  }
  return Object.keys(keys).length === 0 ? doc : { ...doc, [SUBSTRINGS_FIELD]: keys };
}

/** An update that also writes the keys of every substring-indexed field it sets or unsets. */
export function updateWithSubstringKeys(update: Update, fields: ReadonlySet<string>): Update {
  if (fields.size === 0) return update;
  let out = update;
  for (const field of fields) {
    for (const operator of ['$inc', '$push'] as const) {
      if (
        update[operator] &&
        Object.keys(update[operator]).some((path) => path === field || path.startsWith(`${field}.`))
      ) {
        throw new TypeError(`${field} has a substring index: write it whole with $set`);
      }
    }
    for (const operator of ['$set', '$setOnInsert', '$unset'] as const) {
      const paths = Object.keys(update[operator] ?? {});
      if (paths.some((path) => path.startsWith(`${field}.`)))
        throw new TypeError(`${field} has a substring index: write it whole with $set`);
      if (!paths.includes(field)) continue;
      const key = `${SUBSTRINGS_FIELD}.${field}`;
      const value = operator === '$unset' ? 1 : substringKeys(update[operator]![field]);
      out = { ...out, [operator]: { ...(out[operator] as object), [key]: value } };
    }
  }
  return out;
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/g;
const escapeRegex = (text: string): string => text.replace(REGEX_SPECIAL, '\\$&');

/** The filter with every `$contains` written as the server can answer it (see the top of this file). */
export function translateContains(filter: Filter, fields: ReadonlySet<string>): Filter {
  let out: Filter | undefined;
  const and: Filter[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if ((key === '$and' || key === '$or') && Array.isArray(condition)) {
      const translated = condition.map((sub) => translateContains(sub, fields));
      if (translated.some((sub, index) => sub !== condition[index])) (out ??= { ...filter })[key] = translated;
      continue;
    }
    if (
      condition === null ||
      typeof condition !== 'object' ||
      Array.isArray(condition) ||
      condition instanceof Date ||
      !('$contains' in condition)
    )
      continue;
    const { $contains: text, ...rest } = condition;
    if (typeof text !== 'string') throw new TypeError(`$contains on ${key} needs a string`);
    out ??= { ...filter };
    delete out[key];
    const anywhere: FieldOperators = { $regex: escapeRegex(text) };
    if (Object.keys(rest).length > 0) and.push({ [key]: rest });
    and.push({ [key]: anywhere });
    if (fields.has(key) && [...text].length >= SUBSTRING_MIN_LENGTH) {
      out[`${SUBSTRINGS_FIELD}.${key}`] = { $regex: `^${escapeRegex([...text].slice(0, MAX_KEY_LENGTH).join(''))}` };
    }
  }
  if (!out) return filter;
  // One condition per field stays in place (the planner sees it beside the index's equality keys);
  // a field with other conditions too, or two $contains, goes through $and.
  for (const condition of and) {
    const [[key, value]] = Object.entries(condition) as [[string, FieldOperators]];
    if (out[key] === undefined) out[key] = value;
    else out['$and'] = [...(out['$and'] ?? []), condition];
  }
  return out;
}
