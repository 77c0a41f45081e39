/**
 * Custom fields of a submission (spec 2.2, 2.8): every key must be a custom field the organization
 * has configured, every value must match the field's type, and required fields must be present.
 * The definition here is the minimum validation needs; the full resource (label, default_value,
 * validation pattern/min/max/enum) belongs to the custom-field feature.
 */
import type { ErrorDetail } from '../errors';
import type { CustomFieldValue } from '../lead/lead-submission';

export const CUSTOM_FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'array', 'object'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

export interface CustomFieldDefinition {
  name: string;
  type: CustomFieldType;
  required: boolean;
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
 * Problems of `custom_fields`, each with field `custom_fields.<name>`. `null` counts as absent: it
 * is allowed for optional fields (it clears a value) and missing for required ones.
 */
export function checkCustomFields(
  values: Readonly<Record<string, CustomFieldValue>> | undefined,
  definitions: readonly CustomFieldDefinition[],
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
    }
  }
  for (const definition of definitions) {
    const value = given[definition.name];
    if (definition.required && (value === undefined || value === null || value === '')) {
      problems.push({ field: `custom_fields.${definition.name}`, message: 'is required', missing: true });
    }
  }
  return problems;
}
