/**
 * Condition groups of rules: `{operator: AND|OR, rules: [...]}` whose members are leaves
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
 *   of pattern-limits.
 *
 * Two ways to evaluate:
 * - `conditionOutcome` (enrichment rules) answers match, no match, or cannot evaluate with the
 *   error and where it is (`conditions.rules[0].value: pattern too costly: ...`): a pattern that
 *   cannot be run (beyond the limits, invalid, the engine out of memory, a value longer than
 *   MAX_MATCHED_INPUT_LENGTH), or a stored condition the API would refuse (a field that is neither
 *   a lead field nor a calculated field of the subject, an unknown operator, a value of the wrong
 *   shape, a malformed group). A group is decided by a member that settles it (AND: one that does
 *   not match; OR: one that matches) even when another cannot be evaluated; otherwise such a
 *   member makes the group unevaluable. Never throws.
 * - `evaluateConditions` / `evaluateLeaf` (routing rules) answer true or false: a pattern that
 *   cannot be run does not match.
 */
import { fieldPathProblem, getFieldValue, type RuleSubject } from './field-path';
import { MAX_MATCHED_INPUT_LENGTH, matchPattern, testPattern } from './pattern-matcher';

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

/** What a condition group says about a subject; `error` names the condition that cannot be evaluated and why. */
export type ConditionOutcome = { kind: 'match' } | { kind: 'no_match' } | { kind: 'cannot_evaluate'; error: string };

const MATCH: ConditionOutcome = { kind: 'match' };
const NO_MATCH: ConditionOutcome = { kind: 'no_match' };

/** Match, no match, or cannot evaluate (with the error), for a group as it is stored. Never throws. */
export function conditionOutcome(group: ConditionGroup, subject: Readonly<RuleSubject>): ConditionOutcome {
  try {
    return groupOutcome(group, subject, []);
  } catch (error) {
    // Nothing above throws on any stored value; this is the last guard (a group nested beyond the stack).
    return {
      kind: 'cannot_evaluate',
      error: `conditions cannot be evaluated: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function cannotEvaluate(path: string, problem: string): ConditionOutcome {
  return { kind: 'cannot_evaluate', error: `${path}: ${problem}` };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member read as a group: it has `rules`, or an AND/OR operator and no field. */
function looksLikeGroup(member: Record<string, unknown>): boolean {
  return 'rules' in member || ((member['operator'] === 'AND' || member['operator'] === 'OR') && !('field' in member));
}

/**
 * Where a member sits, as the indexes of its groups' `rules` from the top: the error's path
 * (`conditions.rules[1].rules[0]`) is spelled out only when a member cannot be evaluated, which is
 * rare, instead of for every member of every rule on every lead.
 */
function pathOf(trail: readonly number[], suffix = ''): string {
  return `conditions${trail.map((index) => `.rules[${index}]`).join('')}${suffix}`;
}

function groupOutcome(group: unknown, subject: Readonly<RuleSubject>, trail: number[]): ConditionOutcome {
  if (!isObject(group)) return cannotEvaluate(pathOf(trail), 'not a condition group {operator, rules}');
  if (group['operator'] !== 'AND' && group['operator'] !== 'OR')
    return cannotEvaluate(pathOf(trail, '.operator'), 'operator must be AND or OR');
  const members = group['rules'];
  if (!Array.isArray(members)) return cannotEvaluate(pathOf(trail, '.rules'), 'a group lists its conditions in rules');
  const all = group['operator'] === 'AND';
  let unknown: ConditionOutcome | null = null;
  for (let index = 0; index < members.length; index++) {
    const member: unknown = members[index];
    trail.push(index);
    const outcome =
      isObject(member) && looksLikeGroup(member)
        ? groupOutcome(member, subject, trail)
        : leafOutcome(member, subject, trail);
    trail.pop();
    // AND is settled by a member that does not match, OR by one that matches.
    if (outcome.kind === (all ? 'no_match' : 'match')) return outcome;
    if (outcome.kind === 'cannot_evaluate') unknown ??= outcome;
  }
  return unknown ?? (all ? MATCH : NO_MATCH);
}

const LEAF_OPERATOR_SET: ReadonlySet<string> = new Set(LEAF_OPERATORS);

function leafOutcome(leaf: unknown, subject: Readonly<RuleSubject>, trail: readonly number[]): ConditionOutcome {
  if (!isObject(leaf))
    return cannotEvaluate(pathOf(trail), 'not a condition {field, operator, value} or a group {operator, rules}');
  const fieldProblem = fieldPathProblem(leaf['field']);
  if (fieldProblem && !isCalculatedName(leaf['field'], subject))
    return cannotEvaluate(pathOf(trail, '.field'), fieldProblem);
  const operator = leaf['operator'];
  if (typeof operator !== 'string' || !LEAF_OPERATOR_SET.has(operator)) {
    return cannotEvaluate(
      pathOf(trail, '.operator'),
      `unknown operator ${JSON.stringify(operator)}; one of ${LEAF_OPERATORS.join(', ')}`,
    );
  }
  const condition = leaf as unknown as ConditionLeaf;
  const valueProblem = storedValueProblem(condition);
  if (valueProblem) return cannotEvaluate(pathOf(trail, '.value'), valueProblem);
  if (condition.operator !== 'matches_regex') return evaluateLeaf(condition, subject) ? MATCH : NO_MATCH;
  const actual = getFieldValue(subject, condition.field);
  if (!isScalar(actual)) return NO_MATCH;
  const input = String(actual);
  if (input.length > MAX_MATCHED_INPUT_LENGTH)
    return cannotEvaluate(
      pathOf(trail, '.field'),
      `${condition.field} holds ${input.length} characters, more than a pattern is matched against (${MAX_MATCHED_INPUT_LENGTH})`,
    );
  const result = matchPattern(condition.value as string, input);
  if (!result.ok) return cannotEvaluate(pathOf(trail, '.value'), result.problem);
  return result.matched ? MATCH : NO_MATCH;
}

function isCalculatedName(field: unknown, subject: Readonly<RuleSubject>): boolean {
  const calculated = subject['calculated_fields'];
  return typeof field === 'string' && isObject(calculated) && Object.prototype.hasOwnProperty.call(calculated, field);
}

/** Why a stored leaf's value cannot be compared with its operator (what parsing would refuse), or null. */
function storedValueProblem(leaf: ConditionLeaf): string | null {
  const value = leaf.value;
  switch (leaf.operator) {
    case 'is_empty':
    case 'is_not_empty':
      return null;
    case 'in':
    case 'not_in':
      return Array.isArray(value) && value.every((item) => item === null || isScalar(item))
        ? null
        : `${leaf.operator} needs a list of strings, numbers or booleans`;
    case 'matches_regex':
      return typeof value === 'string' && value !== '' ? null : 'matches_regex needs a pattern (text)';
    case 'greater_than':
    case 'less_than':
    case 'greater_than_or_equal':
    case 'less_than_or_equal':
      return asNumber(value) !== undefined || asInstant(value) !== undefined
        ? null
        : `${leaf.operator} needs a number or an ISO 8601 date`;
    default:
      return value === null || isScalar(value)
        ? null
        : `${leaf.operator} needs a value (text, number, boolean or null)`;
  }
}

export function evaluateConditions(group: ConditionGroup, subject: Readonly<RuleSubject>): boolean {
  const test = (member: ConditionLeaf | ConditionGroup): boolean =>
    isConditionGroup(member) ? evaluateConditions(member, subject) : evaluateLeaf(member, subject);
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
  return (
    typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean'
  );
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
  // Here (routing rules) a pattern that cannot be evaluated does not match; conditionOutcome names it instead.
  return testPattern(pattern, String(actual)) === true;
}
