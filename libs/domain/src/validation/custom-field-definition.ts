/**
 * The custom field definition resource (`createCustomField`, `updateCustomField`) as a request
 * body: POST creates one, PATCH changes label, required, default_value and validation. `name` and
 * `type` are fixed once created: leads already hold values under that name and of that type.
 */
import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';
import type { CustomFieldValue } from '../lead/lead-submission';
import { patternProblem } from '../rules/pattern-matcher';
import { customFieldValueProblem } from './json-nesting';
import {
  CUSTOM_FIELD_TYPES,
  customFieldRuleProblem,
  matchesCustomFieldType,
  type CustomFieldDefinition,
  type CustomFieldType,
  type CustomFieldValidation,
} from './custom-fields';

export const CUSTOM_FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_LABEL = 100;
const MAX_PATTERN = 1_000;
const MAX_ENUM = 100;

/** What the organization configures; the store adds id, organization and timestamps. */
export interface CustomFieldSettings extends CustomFieldDefinition {
  label: string;
  default_value: CustomFieldValue;
  validation: CustomFieldValidation | null;
}

export type CustomFieldParse = { ok: true; value: CustomFieldSettings } | { ok: false; details: ErrorDetail[] };

const CREATE_KEYS = ['name', 'label', 'type', 'required', 'default_value', 'validation'] as const;
const VALIDATION_KEYS = ['pattern', 'min', 'max', 'enum'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** POST /enrichment/custom-fields. */
export function parseCustomFieldCreate(body: unknown): CustomFieldParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details: ErrorDetail[] = unknownKeys(body, CREATE_KEYS, '');
  const name = body['name'];
  if (typeof name !== 'string' || !CUSTOM_FIELD_NAME.test(name)) {
    details.push({
      field: 'name',
      message: 'name is required: a lowercase identifier of 1-64 characters (a-z, 0-9, _), starting with a letter',
    });
  }
  const type = body['type'];
  if (typeof type !== 'string' || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(type)) {
    details.push({ field: 'type', message: `type is required: one of ${CUSTOM_FIELD_TYPES.join(', ')}` });
  }
  if (details.length > 0) return { ok: false, details };
  const base: CustomFieldSettings = {
    name: name as string,
    type: type as CustomFieldType,
    label: name as string,
    required: false,
    default_value: null,
    validation: null,
  };
  return mergeSettings(base, body);
}

/** PATCH /enrichment/custom-fields/:id: a partial update of the current settings. */
export function parseCustomFieldUpdate(body: unknown, current: CustomFieldSettings): CustomFieldParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details = unknownKeys(body, CREATE_KEYS, '');
  for (const fixed of ['name', 'type'] as const) {
    if (fixed in body && body[fixed] !== current[fixed])
      details.push({ field: fixed, message: `${fixed} cannot be changed; create a new field instead` });
  }
  if (details.length > 0) return { ok: false, details };
  return mergeSettings(current, body);
}

function unknownKeys(body: Record<string, unknown>, known: readonly string[], prefix: string): ErrorDetail[] {
  return Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((key) => ({ field: `${prefix}${key}`, message: `${key} is not a known field` }));
}

function mergeSettings(current: CustomFieldSettings, body: Record<string, unknown>): CustomFieldParse {
  const details: ErrorDetail[] = [];
  const next: CustomFieldSettings = { ...current };
  if ('label' in body) {
    const label = body['label'];
    if (typeof label !== 'string' || trimBlank(label) === '' || label.length > MAX_LABEL)
      details.push({ field: 'label', message: `label must be a non-empty string of at most ${MAX_LABEL} characters` });
    else next.label = trimBlank(label);
  }
  if ('required' in body) {
    if (typeof body['required'] !== 'boolean')
      details.push({ field: 'required', message: 'required must be true or false' });
    else next.required = body['required'];
  }
  if ('validation' in body) {
    const parsed = parseValidation(body['validation'], next.type);
    if ('details' in parsed) details.push(...parsed.details);
    else next.validation = parsed.validation;
  }
  if ('default_value' in body) next.default_value = (body['default_value'] ?? null) as CustomFieldValue;
  if (details.length === 0 && next.default_value !== null) {
    // The default must itself be a value the field accepts, or every lead created with it would be refused.
    const unholdable = customFieldValueProblem(next.name, next.default_value);
    if (!matchesCustomFieldType(next.default_value, next.type))
      details.push({ field: 'default_value', message: `default_value must be a value of type ${next.type}` });
    else if (unholdable) details.push({ field: 'default_value', message: `default_value ${unholdable}` });
    else {
      const problem = customFieldRuleProblem(next.default_value, next.validation);
      if (problem) details.push({ field: 'default_value', message: `default_value ${problem}` });
    }
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, value: next };
}

function parseValidation(
  value: unknown,
  type: CustomFieldType,
): { validation: CustomFieldValidation | null } | { details: ErrorDetail[] } {
  if (value === null) return { validation: null };
  if (!isObject(value))
    return {
      details: [{ field: 'validation', message: 'validation must be an object with optional pattern, min, max, enum' }],
    };
  const details = unknownKeys(value, VALIDATION_KEYS, 'validation.');
  const validation: CustomFieldValidation = {};
  const pattern = value['pattern'];
  if (pattern !== undefined && pattern !== null) {
    if (typeof pattern !== 'string' || pattern === '' || pattern.length > MAX_PATTERN) {
      details.push({
        field: 'validation.pattern',
        message: `validation.pattern must be a non-empty string of at most ${MAX_PATTERN} characters`,
      });
    } else if (type !== 'string' && type !== 'date') {
      details.push({
        field: 'validation.pattern',
        message: 'validation.pattern applies only to string and date fields',
      });
    } else {
      const problem = patternProblem(pattern);
      if (problem) details.push({ field: 'validation.pattern', message: problem });
      else validation.pattern = pattern;
    }
  }
  for (const bound of ['min', 'max'] as const) {
    const given = value[bound];
    if (given === undefined || given === null) continue;
    if (typeof given !== 'number' || !Number.isFinite(given))
      details.push({ field: `validation.${bound}`, message: `validation.${bound} must be a number` });
    else if (type !== 'number' && type !== 'string' && type !== 'array')
      details.push({
        field: `validation.${bound}`,
        message: `validation.${bound} applies only to number, string and array fields`,
      });
    else validation[bound] = given;
  }
  if (validation.min !== undefined && validation.max !== undefined && validation.min > validation.max) {
    details.push({ field: 'validation.min', message: 'validation.min must not be greater than validation.max' });
  }
  const allowed = value['enum'];
  if (allowed !== undefined && allowed !== null) {
    if (!Array.isArray(allowed) || allowed.length === 0 || allowed.length > MAX_ENUM) {
      details.push({ field: 'validation.enum', message: `validation.enum must be an array of 1-${MAX_ENUM} values` });
    } else if (
      !allowed.every(
        (item) =>
          (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') &&
          matchesCustomFieldType(item, type),
      )
    ) {
      details.push({
        field: 'validation.enum',
        message: `validation.enum values must be scalars of the field's type (${type})`,
      });
    } else {
      validation.enum = allowed as Array<string | number | boolean>;
    }
  }
  return details.length > 0 ? { details } : { validation: Object.keys(validation).length > 0 ? validation : null };
}
