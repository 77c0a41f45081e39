/**
 * Custom fields of a submission (docs/decisions.md "Leads API", custom fields): every key must be a
 * custom field the organization has configured, every value must match the field's type and the
 * field's validation rules (pattern, min, max, enum), and required fields must be present.
 *
 * Patterns are organization input run on every submission, so they run on RE2 through the shared,
 * bounded pattern cache of rules/pattern-matcher, never on the JavaScript RegExp engine.
 */
import type { ErrorDetail } from '../errors';
import type { CustomFieldValue } from '../lead/lead-submission';
import { MAX_MATCHED_INPUT_LENGTH, testPattern } from '../rules/pattern-matcher';

export const CUSTOM_FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'array', 'object'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/**
 * Validation rules of a custom field. `pattern` applies to string and date values (an
 * unanchored RE2 search: anchor with ^ and $); `min`/`max` bound a number's value, a string's
 * length and an array's item count; `enum` lists the allowed scalar values.
 */
export interface CustomFieldValidation {
  pattern?: string;
  min?: number;
  max?: number;
  enum?: Array<string | number | boolean>;
}

export interface CustomFieldDefinition {
  name: string;
  type: CustomFieldType;
  required: boolean;
  /** Applied on creation when the submission leaves the field out (absent, not null). */
  default_value?: CustomFieldValue;
  validation?: CustomFieldValidation | null;
}

/** The first rule of `validation` that `value` (already of the field's type, not null) breaks. */
export function customFieldRuleProblem(
  value: CustomFieldValue,
  validation: CustomFieldValidation | null | undefined,
): string | undefined {
  if (!validation || value === null) return undefined;
  if (validation.enum && validation.enum.length > 0 && !validation.enum.some((allowed) => allowed === value)) {
    return `must be one of ${validation.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}`;
  }
  const size =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? [...value].length
        : Array.isArray(value)
          ? value.length
          : undefined;
  const unit = typeof value === 'number' ? '' : typeof value === 'string' ? ' characters' : ' items';
  const what = typeof value === 'number' ? 'must be' : 'must have';
  if (size !== undefined && validation.min !== undefined && size < validation.min)
    return `${what} at least ${validation.min}${unit}`;
  if (size !== undefined && validation.max !== undefined && size > validation.max)
    return `${what} at most ${validation.max}${unit}`;
  if (validation.pattern !== undefined && typeof value === 'string') {
    // A value the pattern cannot be run on is refused: letting it through would skip the check.
    if (value.length > MAX_MATCHED_INPUT_LENGTH)
      return `cannot be checked against the field's pattern: longer than ${MAX_MATCHED_INPUT_LENGTH} characters`;
    const matched = testPattern(validation.pattern, value);
    if (matched === undefined) return "cannot be checked: the field's pattern is invalid";
    if (!matched) return `must match the pattern ${validation.pattern}`;
  }
  return undefined;
}

/**
 * The submission's custom fields with the definitions' defaults filled in for fields it leaves out
 * (a field given as null stays null: the sender cleared it on purpose).
 */
export function applyCustomFieldDefaults(
  values: Readonly<Record<string, CustomFieldValue>> | undefined,
  definitions: readonly CustomFieldDefinition[],
): Record<string, CustomFieldValue> | undefined {
  let result: Record<string, CustomFieldValue> | undefined = values ? { ...values } : undefined;
  for (const definition of definitions) {
    if (definition.default_value === undefined || definition.default_value === null) continue;
    if (result && definition.name in result) continue;
    result = { ...(result ?? {}), [definition.name]: structuredClone(definition.default_value) };
  }
  return result;
}

/** A detail plus whether it is about absence, so the verdict can say `missing_required`. */
export interface FieldProblem extends ErrorDetail {
  missing: boolean;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO 8601 calendar date `YYYY-MM-DD` that exists (no 2025-02-30). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

export function matchesCustomFieldType(value: CustomFieldValue, type: CustomFieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && isIsoDate(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

const TYPE_MESSAGES: Readonly<Record<CustomFieldType, string>> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be true or false',
  date: 'must be an ISO 8601 date (YYYY-MM-DD)',
  array: 'must be an array',
  object: 'must be an object',
};

/**
 * Problems of `custom_fields`, each with field `custom_fields.<name>`. With `onlyGiven` (a partial
 * update) only the given keys are checked, and a required field may not be cleared. `null` counts as absent: it
 * is allowed for optional fields (it clears a value) and missing for required ones.
 */
export function checkCustomFields(
  values: Readonly<Record<string, CustomFieldValue>> | undefined,
  definitions: readonly CustomFieldDefinition[],
  options: { onlyGiven?: boolean } = {},
): FieldProblem[] {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const given = values ?? {};
  const problems: FieldProblem[] = [];

  for (const [name, value] of Object.entries(given)) {
    const definition = byName.get(name);
    if (!definition) {
      problems.push({ field: `custom_fields.${name}`, message: 'is not a configured custom field', missing: false });
    } else if (value !== null && !matchesCustomFieldType(value, definition.type)) {
      problems.push({ field: `custom_fields.${name}`, message: TYPE_MESSAGES[definition.type], missing: false });
    } else {
      const rule = customFieldRuleProblem(value, definition.validation);
      if (rule) problems.push({ field: `custom_fields.${name}`, message: rule, missing: false });
    }
  }
  if (options.onlyGiven) return problems.concat(clearedRequired(given, definitions));
  for (const definition of definitions) {
    const value = given[definition.name];
    if (definition.required && (value === undefined || value === null || value === '')) {
      problems.push({ field: `custom_fields.${definition.name}`, message: 'is required', missing: true });
    }
  }
  return problems;
}

/** For a partial update (`onlyGiven`): a required field may not be cleared; untouched ones are not checked. */
function clearedRequired(
  given: Readonly<Record<string, CustomFieldValue>>,
  definitions: readonly CustomFieldDefinition[],
): FieldProblem[] {
  return definitions
    .filter(
      (definition) =>
        definition.required &&
        definition.name in given &&
        (given[definition.name] === null || given[definition.name] === ''),
    )
    .map((definition) => ({ field: `custom_fields.${definition.name}`, message: 'is required', missing: true }));
}
