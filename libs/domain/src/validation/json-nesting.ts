/**
 * Limits on how deep and how large JSON values may be (docs/decisions.md, "Request bodies at the
 * edge"): checked at the edge, so a value the pipeline, the store (SQLite's JSON functions stop at
 * 1,000 levels) or JSON.stringify (recursive, a stack overflow past a few thousand levels) cannot
 * handle is refused with a 400, never accepted and then lost.
 */
import type { ErrorDetail } from '../errors';

/** How many levels a custom field's value may nest (`{"a":{"b":1}}` nests 2). */
export const MAX_CUSTOM_FIELD_DEPTH = 10;
/** The most characters a lead's custom_fields may take as JSON. */
export const MAX_CUSTOM_FIELDS_JSON_LENGTH = 65_536;

type PathSegment = string | number;

/**
 * The path to the first array or object that sits deeper than `maxDepth` levels in `value` (a
 * container `value` is level 1), or undefined when it nests no deeper. The walk never descends past
 * `maxDepth + 1` levels, so a value of any depth is safe to check.
 */
export function pathBeyondDepth(value: unknown, maxDepth: number): PathSegment[] | undefined {
  const path: PathSegment[] = [];
  const walk = (node: unknown, level: number): boolean => {
    if (typeof node !== 'object' || node === null) return false;
    if (level > maxDepth) return true;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        if (walk(node[index], level + 1)) return true;
        path.pop();
      }
      return false;
    }
    for (const key of Object.keys(node)) {
      path.push(key);
      if (walk((node as Record<string, unknown>)[key], level + 1)) return true;
      path.pop();
    }
    return false;
  };
  return walk(value, 1) ? path : undefined;
}

/**
 * The first key (the field's name, or a key inside its value) that a MongoDB-protocol server
 * refuses to store: one with '.' or a leading '$'. Refused at the edge, so no lead is lost after
 * its 202 and every engine answers the same.
 */
function unstorableKey(name: string, value: unknown): string | undefined {
  if (name.includes('.') || name.startsWith('$')) return name;
  const inner = (node: unknown, depth: number): string | undefined => {
    if (depth > MAX_CUSTOM_FIELD_DEPTH + 1 || typeof node !== 'object' || node === null) return undefined;
    for (const [key, child] of Array.isArray(node)
      ? node.map((item, index) => [String(index), item] as const)
      : Object.entries(node)) {
      if (!Array.isArray(node) && (key.includes('.') || key.startsWith('$'))) return key;
      const found = inner(child, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return inner(value, 1);
}

/**
 * A list directly inside a list, at any depth (called on values already known to be shallow). The
 * MongoDB-protocol servers on PostgreSQL (FerretDB) cannot store one, and a lead that cannot be
 * stored would be lost after its 202: every engine refuses it at the edge.
 */
function hasListInList(value: unknown): boolean {
  if (Array.isArray(value)) return value.some((item) => Array.isArray(item) || hasListInList(item));
  if (typeof value === 'object' && value !== null) return Object.values(value).some(hasListInList);
  return false;
}

/**
 * Why a lead could not hold `value` as the custom field `name` (an unstorable key, too deep, a
 * list in a list), as the end of a sentence about it; undefined when it can. A custom field's
 * default and allowed values are checked with it too, since they become leads' values.
 */
export function customFieldValueProblem(name: string, value: unknown): string | undefined {
  const key = unstorableKey(name, value);
  if (key !== undefined) return `has the key ${JSON.stringify(key)}: keys may not contain '.' or start with '$'`;
  if (pathBeyondDepth(value, MAX_CUSTOM_FIELD_DEPTH))
    return `must not nest deeper than ${MAX_CUSTOM_FIELD_DEPTH} levels`;
  if (hasListInList(value)) return 'must not have a list directly inside a list';
  return undefined;
}

/**
 * Depth and size problems of a submission's `custom_fields` (type problems are the schema's):
 * each field named whose value a lead could not hold (customFieldValueProblem), else
 * custom_fields when its JSON is longer than MAX_CUSTOM_FIELDS_JSON_LENGTH.
 */
export function customFieldsLimitProblems(customFields: unknown): ErrorDetail[] {
  if (typeof customFields !== 'object' || customFields === null || Array.isArray(customFields)) return [];
  const problems: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(customFields)) {
    const problem = customFieldValueProblem(name, value);
    if (problem) problems.push({ field: `custom_fields.${name}`, message: `custom_fields.${name} ${problem}` });
  }
  // Only measured when every value is shallow: JSON.stringify recurses.
  if (problems.length === 0 && JSON.stringify(customFields).length > MAX_CUSTOM_FIELDS_JSON_LENGTH) {
    problems.push({
      field: 'custom_fields',
      message: `custom_fields must be at most ${MAX_CUSTOM_FIELDS_JSON_LENGTH} characters of JSON`,
    });
  }
  return problems;
}
