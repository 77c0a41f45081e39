/**
 * Custom validation rules (docs/validation-rules.md): an organization's own checks on a submission,
 * run in the `validate` stage after the built-in ones, in ascending priority. A rule names a field,
 * a type with its condition and value, and what happens when the rule fires:
 *
 * | rule_type  | condition                                              | value                          |
 * |------------|--------------------------------------------------------|--------------------------------|
 * | required   | present                                                | (none)                         |
 * | format     | matches, not_matches (RE2), is_email, is_phone, is_url, is_date | the pattern (matches)  |
 * | length     | min, max, between                                      | a number, or [min, max]        |
 * | range      | min, max, between (numbers or ISO dates)               | a number/date, or [min, max]   |
 * | whitelist  | in                                                     | a list                         |
 * | blacklist  | not_in, contains_any                                   | a list                         |
 * | comparison | equals, not_equals, greater_than, less_than, greater_than_or_equal, less_than_or_equal, before, after | a literal or {"field": "<path>"} |
 *
 * A rule *fires* when its check fails (required: the field is missing; format: the value does
 * not match...). Actions: reject (422 failed_custom_rule with the rule's id and message), flag
 * (accepted, marked for review), warn (accepted with a warning), transform (the value is changed:
 * uppercase, lowercase, titlecase, trim, digits_only; transform rules fire when their check
 * holds, e.g. "utm_source matches [A-Z] → lowercase"). Only `required` looks at a missing or
 * empty field; the others skip it.
 */
import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';
import { asInstant, asNumber } from '../rules/condition';
import { patternProblem } from '../rules/pattern-matcher';
import { SUBMISSION_TEXT_FIELDS } from '../lead/lead-submission';

export const VALIDATION_RULE_TYPES = [
  'required',
  'format',
  'length',
  'range',
  'whitelist',
  'blacklist',
  'comparison',
] as const;
export const VALIDATION_RULE_ACTIONS = ['reject', 'flag', 'transform', 'warn'] as const;
export const VALIDATION_TRANSFORMS = ['uppercase', 'lowercase', 'titlecase', 'trim', 'digits_only'] as const;

export type ValidationRuleType = (typeof VALIDATION_RULE_TYPES)[number];
export type ValidationRuleAction = (typeof VALIDATION_RULE_ACTIONS)[number];
export type ValidationTransform = (typeof VALIDATION_TRANSFORMS)[number];

export const CONDITIONS: Readonly<Record<ValidationRuleType, readonly string[]>> = {
  required: ['present'],
  format: ['matches', 'not_matches', 'is_email', 'is_phone', 'is_url', 'is_date'],
  length: ['min', 'max', 'between'],
  range: ['min', 'max', 'between'],
  whitelist: ['in'],
  blacklist: ['not_in', 'contains_any'],
  comparison: [
    'equals',
    'not_equals',
    'greater_than',
    'less_than',
    'greater_than_or_equal',
    'less_than_or_equal',
    'before',
    'after',
  ],
};

export interface ValidationRuleSettings {
  name: string;
  field: string;
  rule_type: ValidationRuleType;
  condition: string;
  value: unknown;
  action: ValidationRuleAction;
  /** The change a `transform` rule makes. */
  transform?: ValidationTransform;
  message: string;
  priority: number;
  enabled: boolean;
}

export interface ValidationRule extends ValidationRuleSettings {
  id: string;
  created_at: string;
  updated_at: string;
}

export type ValidationRuleParse = { ok: true; value: ValidationRuleSettings } | { ok: false; details: ErrorDetail[] };

const KEYS = [
  'name',
  'field',
  'rule_type',
  'condition',
  'value',
  'action',
  'transform',
  'message',
  'priority',
  'enabled',
] as const;
const FIELD = /^custom_fields\.[a-z][a-z0-9_]{0,63}$/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function validationFieldProblem(field: unknown): string | null {
  if (typeof field === 'string' && ((SUBMISSION_TEXT_FIELDS as readonly string[]).includes(field) || FIELD.test(field)))
    return null;
  return `field must be a submission field (${SUBMISSION_TEXT_FIELDS.join(', ')}) or custom_fields.<name>`;
}

export function parseValidationRuleCreate(body: unknown): ValidationRuleParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseRule(body, null);
}

export function parseValidationRulePatch(body: unknown, current: ValidationRuleSettings): ValidationRuleParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseRule(body, current);
}

function parseRule(body: Record<string, unknown>, current: ValidationRuleSettings | null): ValidationRuleParse {
  const details: ErrorDetail[] = Object.keys(body)
    .filter((key) => !(KEYS as readonly string[]).includes(key))
    .map((key) => ({ field: key, message: `${key} is not a validation rule field (${KEYS.join(', ')})` }));
  const merged = { ...(current ?? {}), ...body } as Record<string, unknown>;
  const name = merged['name'];
  if (typeof name !== 'string' || trimBlank(name) === '' || name.length > 200)
    details.push({ field: 'name', message: 'name is required: text of 1-200 characters' });
  const fieldProblem = validationFieldProblem(merged['field']);
  if (fieldProblem) details.push({ field: 'field', message: fieldProblem });
  const ruleType = merged['rule_type'];
  const typeOk = typeof ruleType === 'string' && (VALIDATION_RULE_TYPES as readonly string[]).includes(ruleType);
  if (!typeOk)
    details.push({ field: 'rule_type', message: `rule_type is required: one of ${VALIDATION_RULE_TYPES.join(', ')}` });
  const condition = merged['condition'] ?? (typeOk ? CONDITIONS[ruleType as ValidationRuleType][0] : undefined);
  if (typeOk && (typeof condition !== 'string' || !CONDITIONS[ruleType as ValidationRuleType].includes(condition))) {
    details.push({
      field: 'condition',
      message: `a ${String(ruleType)} rule's condition is one of ${CONDITIONS[ruleType as ValidationRuleType].join(', ')}`,
    });
  } else if (typeOk) {
    const problem = valueProblem(ruleType as ValidationRuleType, condition as string, merged['value']);
    if (problem) details.push({ field: 'value', message: problem });
  }
  const action = merged['action'];
  if (typeof action !== 'string' || !(VALIDATION_RULE_ACTIONS as readonly string[]).includes(action))
    details.push({ field: 'action', message: `action is required: one of ${VALIDATION_RULE_ACTIONS.join(', ')}` });
  const transform = merged['transform'];
  if (
    action === 'transform' &&
    (typeof transform !== 'string' || !(VALIDATION_TRANSFORMS as readonly string[]).includes(transform))
  ) {
    details.push({
      field: 'transform',
      message: `a transform rule needs transform: one of ${VALIDATION_TRANSFORMS.join(', ')}`,
    });
  }
  if (action !== 'transform' && transform !== undefined)
    details.push({ field: 'transform', message: 'transform is only for rules whose action is transform' });
  const message = merged['message'];
  if (typeof message !== 'string' || trimBlank(message) === '' || message.length > 500)
    details.push({ field: 'message', message: 'message is required: text of 1-500 characters, shown to the vendor' });
  const priority = merged['priority'] ?? 100;
  if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1_000_000)
    details.push({
      field: 'priority',
      message: 'priority must be a whole number from 0 to 1000000 (lower runs first)',
    });
  const enabled = merged['enabled'] ?? true;
  if (typeof enabled !== 'boolean') details.push({ field: 'enabled', message: 'enabled must be true or false' });
  if (details.length > 0) return { ok: false, details };
  return {
    ok: true,
    value: {
      name: trimBlank(name as string),
      field: merged['field'] as string,
      rule_type: ruleType as ValidationRuleType,
      condition: condition as string,
      value: merged['value'] ?? null,
      action: action as ValidationRuleAction,
      ...(action === 'transform' ? { transform: transform as ValidationTransform } : {}),
      message: message as string,
      priority: priority as number,
      enabled: enabled as boolean,
    },
  };
}

/**
 * Why a stored rule cannot be evaluated as it is (what parsing would refuse: a field that is not a
 * submission field, an unknown type, condition or action, a value of the wrong shape, a pattern
 * beyond the limits or invalid), as the setting and the message; or null.
 */
export function validationRuleProblem(rule: Readonly<ValidationRuleSettings>): { key: string; message: string } | null {
  const fieldProblem = validationFieldProblem(rule.field);
  if (fieldProblem) return { key: 'field', message: fieldProblem };
  const type: unknown = rule.rule_type;
  if (typeof type !== 'string' || !(VALIDATION_RULE_TYPES as readonly string[]).includes(type))
    return { key: 'rule_type', message: `unknown rule type ${JSON.stringify(type)}` };
  if (typeof rule.condition !== 'string' || !CONDITIONS[rule.rule_type].includes(rule.condition)) {
    return {
      key: 'condition',
      message: `a ${rule.rule_type} rule's condition is one of ${CONDITIONS[rule.rule_type].join(', ')}`,
    };
  }
  const problem = valueProblem(rule.rule_type, rule.condition, rule.value);
  if (problem) return { key: 'value', message: problem };
  if (!(VALIDATION_RULE_ACTIONS as readonly unknown[]).includes(rule.action))
    return { key: 'action', message: `action is one of ${VALIDATION_RULE_ACTIONS.join(', ')}` };
  if (rule.action === 'transform' && !(VALIDATION_TRANSFORMS as readonly unknown[]).includes(rule.transform))
    return {
      key: 'transform',
      message: `a transform rule needs transform: one of ${VALIDATION_TRANSFORMS.join(', ')}`,
    };
  return null;
}

function isScalar(value: unknown): boolean {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

function bound(value: unknown, dates: boolean): boolean {
  return asNumber(value) !== undefined || (dates && asInstant(value) !== undefined);
}

function valueProblem(type: ValidationRuleType, condition: string, value: unknown): string | null {
  switch (type) {
    case 'required':
      return null;
    case 'format':
      if (condition === 'matches' || condition === 'not_matches') {
        if (typeof value !== 'string' || value === '' || value.length > 1000)
          return `${condition} needs a pattern (text)`;
        return patternProblem(value);
      }
      return null;
    case 'length':
    case 'range': {
      const dates = type === 'range';
      if (condition === 'between') {
        return Array.isArray(value) && value.length === 2 && bound(value[0], dates) && bound(value[1], dates)
          ? null
          : `between needs [min, max]${dates ? ' (numbers or ISO dates)' : ''}`;
      }
      return bound(value, dates) ? null : `${condition} needs a ${dates ? 'number or ISO date' : 'number'}`;
    }
    case 'whitelist':
    case 'blacklist':
      return Array.isArray(value) && value.length > 0 && value.length <= 1000 && value.every(isScalar)
        ? null
        : 'value must be a list of 1-1000 strings or numbers';
    case 'comparison': {
      if (isObject(value))
        return Object.keys(value).length === 1 && validationFieldProblem(value['field']) === null
          ? null
          : 'value must be a literal or {"field": "<another field>"}';
      if (!isScalar(value)) return 'value must be a literal or {"field": "<another field>"}';
      if (
        ['greater_than', 'less_than', 'greater_than_or_equal', 'less_than_or_equal', 'before', 'after'].includes(
          condition,
        ) &&
        !bound(value, true)
      )
        return `${condition} compares numbers or dates`;
      return null;
    }
  }
}
