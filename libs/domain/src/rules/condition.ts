/**
 * Condition groups (spec 2.6): `{operator: AND|OR, rules: [...]}` whose members are leaves
 * `{field, operator, value}` or nested groups. How leaves compare (docs/enrichment-rules.md):
 * - text comparisons (equals, contains, starts_with, ends_with, in) ignore case and surrounding
 *   spaces: vendors send "CA", "ca" and " Ca ";
 * - numbers, and strings that are numbers, compare as numbers ("3.50" equals 3.5);
 * - ISO 8601 dates compare as instants in greater_than and the like;
 * - contains on a list means "has an element equal to";
 * - is_empty: missing, null, blank text, [] or {};
 * - every not_ operator is exactly the negation of its positive one, so on a missing field
 *   not_equals is true;
 * - matches_regex runs on RE2 (linear time: `^(a+)+$` cannot stall a stage), within the limits
 *   of pattern-limits; a pattern that cannot be evaluated (beyond those limits, invalid, the
 *   engine out of memory, a value longer than MAX_MATCHED_INPUT_LENGTH) does not match.
 * Evaluation never throws.
 */
import { getFieldValue, type RuleSubject } from './field-path';
import { testPattern } from './pattern-matcher';

export const LEAF_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'is_empty',
  'is_not_empty',
  'greater_than',
  'less_than',
  'greater_than_or_equal',
  'less_than_or_equal',
  'in',
  'not_in',
  'matches_regex',
] as const;
export type LeafOperator = (typeof LEAF_OPERATORS)[number];

export interface ConditionLeaf {
  field: string;
  operator: LeafOperator;
  value?: unknown;
}

export interface ConditionGroup {
  operator: 'AND' | 'OR';
  rules: Array<ConditionLeaf | ConditionGroup>;
}

export function isConditionGroup(member: ConditionLeaf | ConditionGroup): member is ConditionGroup {
  return Array.isArray((member as ConditionGroup).rules);
}

export function evaluateConditions(group: ConditionGroup, subject: Readonly<RuleSubject>): boolean {
  const test = (member: ConditionLeaf | ConditionGroup): boolean => (isConditionGroup(member) ? evaluateConditions(member, subject) : evaluateLeaf(member, subject));
  return group.operator === 'AND' ? group.rules.every(test) : group.rules.some(test);
}

export function evaluateLeaf(leaf: ConditionLeaf, subject: Readonly<RuleSubject>): boolean {
  const actual = getFieldValue(subject, leaf.field);
  const expected = leaf.value;
  switch (leaf.operator) {
    case 'equals':
      return equalsValue(actual, expected);
    case 'not_equals':
      return !equalsValue(actual, expected);
    case 'contains':
      return containsValue(actual, expected);
    case 'not_contains':
      return !containsValue(actual, expected);
    case 'starts_with':
      return isScalar(actual) && isScalar(expected) && text(actual).startsWith(text(expected));
    case 'ends_with':
      return isScalar(actual) && isScalar(expected) && text(actual).endsWith(text(expected));
    case 'is_empty':
      return isEmpty(actual);
    case 'is_not_empty':
      return !isEmpty(actual);
    case 'greater_than':
      return ordered(actual, expected, (order) => order > 0);
    case 'less_than':
      return ordered(actual, expected, (order) => order < 0);
    case 'greater_than_or_equal':
      return ordered(actual, expected, (order) => order >= 0);
    case 'less_than_or_equal':
      return ordered(actual, expected, (order) => order <= 0);
    case 'in':
      return Array.isArray(expected) && expected.some((candidate) => equalsValue(actual, candidate));
    case 'not_in':
      return !(Array.isArray(expected) && expected.some((candidate) => equalsValue(actual, candidate)));
    case 'matches_regex':
      return matchesRegex(actual, expected);
    default:
      return false;
  }
}

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';
}

function text(value: Scalar): string {
  return String(value).trim().toLowerCase();
}

const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;

export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC.test(value)) {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

export function asInstant(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value.trim())) return undefined;
  const time = Date.parse(value.trim());
  return Number.isFinite(time) ? time : undefined;
}

function equalsValue(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) return actual.some((element) => equalsValue(element, expected));
  if (actual === undefined || actual === null) return expected === null;
  if (!isScalar(actual) || !isScalar(expected)) return false;
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return a === b;
  return text(actual) === text(expected);
}

function containsValue(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual)) return actual.some((element) => equalsValue(element, expected));
  return isScalar(actual) && isScalar(expected) && text(actual).includes(text(expected));
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Numbers with numbers, dates with dates; anything else does not compare (false). */
function ordered(actual: unknown, expected: unknown, accept: (order: number) => boolean): boolean {
  const a = asNumber(actual);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined) return accept(Math.sign(a - b));
  const x = asInstant(actual);
  const y = asInstant(expected);
  if (x !== undefined && y !== undefined) return accept(Math.sign(x - y));
  return false;
}

function matchesRegex(actual: unknown, pattern: unknown): boolean {
  if (!isScalar(actual) || typeof pattern !== 'string') return false;
  // Cannot evaluate (undefined) counts as no match, as the rule runner counts a condition that throws.
  return testPattern(pattern, String(actual)) === true;
}
