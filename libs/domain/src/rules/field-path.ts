/**
 * How rules name lead fields (docs/enrichment-rules.md): a top-level field of the lead (`email`,
 * `utm_source`), or a dotted path into `custom_fields`, `enrichment_data` or `calculated_fields`
 * (`custom_fields.gpa`). Reading a missing path gives undefined; writing creates the objects on the
 * way. Subjects are never changed in place.
 */

import { LEAD_SUBJECT_FIELDS } from '../lead/lead-fields';

/** A lead as rules see it: the lead's own fields at the top, and the nested objects. */
export type RuleSubject = Record<string, unknown>;

/** The lead's own fields a rule reads (docs/enrichment-rules.md). */
export const RULE_TOP_FIELDS = LEAD_SUBJECT_FIELDS;

/** Objects a path may reach into. */
export const RULE_NESTED_ROOTS = ['custom_fields', 'enrichment_data', 'calculated_fields'] as const;

/** Fields an action may write: everything but identity, status and request metadata; nested: custom_fields and enrichment_data. */
export const RULE_WRITABLE_TOP_FIELDS = RULE_TOP_FIELDS.filter(
  (field): field is Exclude<(typeof RULE_TOP_FIELDS)[number], 'status' | 'vendor_id' | 'ip_address' | 'user_agent'> =>
    field !== 'status' && field !== 'vendor_id' && field !== 'ip_address' && field !== 'user_agent',
);

const PATH = /^[a-z_][a-z0-9_]*(\.[A-Za-z0-9_-]+)+$|^[a-z_][a-z0-9_]*$/;

/** Why a path cannot name a field, or null. `forWrite` also refuses read-only fields. */
/**
 * Answers of fieldPathProblem by path, for reading and for writing: a run of 100 rules checks every
 * condition's field on every lead, and the same few paths come back (bounded: cleared when full).
 */
const knownPaths = [new Map<string, string | null>(), new Map<string, string | null>()] as const;
const MAX_KNOWN_PATHS = 10_000;

export function fieldPathProblem(path: unknown, forWrite = false): string | null {
  if (typeof path !== 'string') return pathProblem(path, forWrite);
  const known = knownPaths[forWrite ? 1 : 0];
  const answer = known.get(path);
  if (answer !== undefined) return answer;
  if (known.size >= MAX_KNOWN_PATHS) known.clear();
  const problem = pathProblem(path, forWrite);
  known.set(path, problem);
  return problem;
}

function pathProblem(path: unknown, forWrite: boolean): string | null {
  if (typeof path !== 'string' || path.length === 0 || path.length > 200 || !PATH.test(path))
    return 'must be a field name such as email or custom_fields.gpa';
  const [root, ...rest] = path.split('.');
  if (rest.length === 0) {
    if (!(RULE_TOP_FIELDS as readonly string[]).includes(root!)) return `${path} is not a lead field`;
    if (forWrite && !(RULE_WRITABLE_TOP_FIELDS as readonly string[]).includes(root!))
      return `${path} cannot be changed by a rule`;
    return null;
  }
  if (!(RULE_NESTED_ROOTS as readonly string[]).includes(root!))
    return `${root} has no fields; nested paths start with custom_fields., enrichment_data. or calculated_fields.`;
  if (forWrite && root === 'calculated_fields')
    return 'calculated fields are computed by their formulas, not set by rules';
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getFieldValue(subject: Readonly<RuleSubject>, path: string): unknown {
  let current: unknown = subject;
  for (const part of path.split('.')) {
    if (!isObject(current) || !Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

export function setFieldValue(subject: Readonly<RuleSubject>, path: string, value: unknown): RuleSubject {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...subject, [head!]: value };
  const child = subject[head!];
  return { ...subject, [head!]: setFieldValue(isObject(child) ? child : {}, rest.join('.'), value) };
}
