/**
 * Running an organization's validation rules over a submission (docs/validation-rules.md): enabled
 * rules in ascending priority (ties: creation time, then id), each seeing the transforms of the
 * rules before it. Every rule is evaluated, so POST /api/validation/check lists every error; the
 * validate stage refuses the lead with the first. A rule that cannot be evaluated (a stored rule
 * the API would refuse, a pattern the engine cannot run, anything that throws) neither fires nor
 * passes: it is listed in `unevaluable` with its name and error, and the lead goes to review.
 * Never throws.
 */
import { asInstant, asNumber } from '../rules/condition';
import { getFieldValue, setFieldValue } from '../rules/field-path';
import { MAX_MATCHED_INPUT_LENGTH, matchPattern } from '../rules/pattern-matcher';
import type { UnevaluableRule } from '../rules/review-flag';
import { titleCase } from '../rules/rule-action';
import { parseEmail } from '../validation/email-syntax';
import { normalizePhone } from '../validation/phone';
import { validationRuleProblem, type ValidationRule, type ValidationTransform } from './validation-rule';

export interface ValidationRuleFinding {
  field: string;
  message: string;
  rule_id: string;
}

export interface ValidationRulesOutcome {
  valid: boolean;
  errors: ValidationRuleFinding[];
  warnings: ValidationRuleFinding[];
  flags: ValidationRuleFinding[];
  /** Rules that could not be evaluated: the lead goes to manual review naming them. */
  unevaluable: Array<UnevaluableRule & { field: string }>;
  submission: Record<string, unknown>;
  applied: string[];
}

/** A check that cannot be run on this submission; `key` is the rule setting at fault. */
class CannotEvaluate extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

export function applyValidationRules(
  rules: readonly ValidationRule[],
  submission: Readonly<Record<string, unknown>>,
): ValidationRulesOutcome {
  const outcome: ValidationRulesOutcome = {
    valid: true,
    errors: [],
    warnings: [],
    flags: [],
    unevaluable: [],
    submission: { ...submission },
    applied: [],
  };
  const ordered = rules
    .filter((rule) => rule.enabled)
    .sort((a, b) => a.priority - b.priority || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  for (const rule of ordered) {
    outcome.applied.push(rule.id);
    let value: unknown;
    let holds: boolean;
    try {
      const problem = validationRuleProblem(rule);
      if (problem) throw new CannotEvaluate(problem.key, problem.message);
      value = getFieldValue(outcome.submission, rule.field);
      holds =
        rule.rule_type === 'required'
          ? !isEmpty(value)
          : isEmpty(value)
            ? true
            : check(rule, value, outcome.submission);
    } catch (error) {
      const message =
        error instanceof CannotEvaluate
          ? `${error.key}: ${error.message}`
          : `the check failed: ${error instanceof Error ? error.message : String(error)}`;
      outcome.unevaluable.push({
        rule_id: rule.id,
        rule_name: rule.name,
        field: typeof rule.field === 'string' ? rule.field : '(rule)',
        error: message,
      });
      continue;
    }
    if (rule.action === 'transform') {
      if (holds && !isEmpty(value) && rule.transform) {
        const next = transform(value, rule.transform);
        if (next !== undefined) outcome.submission = setFieldValue(outcome.submission, rule.field, next);
      }
      continue;
    }
    if (holds) continue;
    const finding = { field: rule.field, message: rule.message, rule_id: rule.id };
    if (rule.action === 'reject') outcome.errors.push(finding);
    else if (rule.action === 'flag') outcome.flags.push(finding);
    else outcome.warnings.push(finding);
  }
  outcome.valid = outcome.errors.length === 0;
  return outcome;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

function text(value: unknown): string {
  return (typeof value === 'string' ? value : JSON.stringify(value)).trim().toLowerCase();
}

function equal(a: unknown, b: unknown): boolean {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return x === y;
  return text(a) === text(b);
}

/** -1, 0, 1 for numbers, then dates; undefined when they do not compare. */
function order(a: unknown, b: unknown): number | undefined {
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== undefined && y !== undefined) return Math.sign(x - y);
  const s = asInstant(a);
  const t = asInstant(b);
  if (s !== undefined && t !== undefined) return Math.sign(s - t);
  return undefined;
}

function within(value: unknown, condition: string, bound: unknown, measure: (v: unknown) => unknown): boolean {
  const measured = measure(value);
  if (condition === 'between') {
    const [low, high] = bound as [unknown, unknown];
    const above = order(measured, low);
    const below = order(measured, high);
    return above !== undefined && below !== undefined && above >= 0 && below <= 0;
  }
  const compared = order(measured, bound);
  if (compared === undefined) return false;
  return condition === 'min' ? compared >= 0 : compared <= 0;
}

function check(rule: ValidationRule, value: unknown, submission: Readonly<Record<string, unknown>>): boolean {
  switch (rule.rule_type) {
    case 'format': {
      const raw = typeof value === 'string' ? value : String(value);
      switch (rule.condition) {
        case 'matches':
        case 'not_matches': {
          // A value too long to match (a custom field may hold 64 KB) fails the check rather than skip it.
          if (raw.length > MAX_MATCHED_INPUT_LENGTH) return false;
          const result = matchPattern(String(rule.value), raw);
          // The engine could not run the pattern (validationRuleProblem found the others): the rule cannot be evaluated.
          if (!result.ok) throw new CannotEvaluate('value', result.problem);
          return rule.condition === 'matches' ? result.matched : !result.matched;
        }
        case 'is_email':
          return parseEmail(raw).ok;
        case 'is_phone':
          return normalizePhone(raw, 'US').ok;
        case 'is_url':
          try {
            const url = new URL(raw);
            return url.protocol === 'http:' || url.protocol === 'https:';
          } catch {
            return false;
          }
        case 'is_date':
          return asInstant(raw) !== undefined;
        default:
          return true;
      }
    }
    case 'length':
      return within(value, rule.condition, rule.value, (v) => (Array.isArray(v) ? v.length : String(v).length));
    case 'range':
      return within(value, rule.condition, rule.value, (v) => v);
    case 'whitelist':
      return (rule.value as unknown[]).some((allowed) => equal(value, allowed));
    case 'blacklist':
      if (rule.condition === 'contains_any')
        return !(rule.value as unknown[]).some((word) => text(value).includes(text(word)));
      return !(rule.value as unknown[]).some((refused) => equal(value, refused));
    case 'comparison': {
      const other =
        typeof rule.value === 'object' && rule.value !== null
          ? getFieldValue(submission, String((rule.value as { field: unknown }).field))
          : rule.value;
      if (other === undefined || other === null || other === '') return true;
      switch (rule.condition) {
        case 'equals':
          return equal(value, other);
        case 'not_equals':
          return !equal(value, other);
        default: {
          const compared = order(value, other);
          if (compared === undefined) return false;
          if (rule.condition === 'greater_than' || rule.condition === 'after') return compared > 0;
          if (rule.condition === 'less_than' || rule.condition === 'before') return compared < 0;
          if (rule.condition === 'greater_than_or_equal') return compared >= 0;
          return compared <= 0;
        }
      }
    }
    default:
      return true;
  }
}

function transform(value: unknown, how: ValidationTransform): unknown {
  if (typeof value !== 'string') return undefined;
  switch (how) {
    case 'uppercase':
      return value.toUpperCase();
    case 'lowercase':
      return value.toLowerCase();
    case 'titlecase':
      return titleCase(value);
    case 'trim':
      return value.trim().replace(/\s+/g, ' ');
    case 'digits_only':
      return value.replace(/\D+/g, '');
  }
}
