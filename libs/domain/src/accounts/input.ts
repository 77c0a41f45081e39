/**
 * Reading request bodies of the accounts endpoints at the edge (bodies are checked where they
 * enter; inside, the types are trusted). Each reader collects every problem as `{field, message}`
 * and throws one VALIDATION_ERROR with all of them.
 */
import { DomainError, type ErrorDetail } from '../errors';
import { parseEmail } from '../validation/email-syntax';

export type Body = Record<string, unknown>;

/** The body as an object, or a VALIDATION_ERROR (a JSON array or scalar is not a body). */
export function asBody(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new DomainError('VALIDATION_ERROR', 'The request body must be a JSON object', [
      { field: 'body', message: 'must be a JSON object' },
    ]);
  }
  return value as Body;
}

export class Problems {
  readonly details: ErrorDetail[] = [];

  add(field: string, message: string): void {
    this.details.push({ field, message });
  }

  has(field?: string): boolean {
    return field === undefined ? this.details.length > 0 : this.details.some((detail) => detail.field === field);
  }

  throwIfAny(message = 'Validation failed'): void {
    if (this.details.length > 0) throw new DomainError('VALIDATION_ERROR', message, this.details);
  }

  /** Rejects keys the endpoint does not know, so a typo is not silently ignored. */
  onlyKnown(body: Body, known: readonly string[], prefix = ''): void {
    for (const key of Object.keys(body)) if (!known.includes(key)) this.add(prefix + key, 'is not a known field');
  }
}

/**
 * The blank characters a text is trimmed of: JavaScript's white space plus the four information
 * separators and NEL, which other platforms (Python's `str.isspace`) also count as space. The
 * published schemas use the same class (schemas/api/json-schema.ts), so a client validating with
 * any regular-expression engine agrees with the server on what "blank" means.
 */
export const BLANK = '\\s\\x1c-\\x1f\\x85\\ufeff';
const EDGE_BLANKS = new RegExp(`^[${BLANK}]+|[${BLANK}]+$`, 'gu');

export function trimBlank(value: string): string {
  return value.replace(EDGE_BLANKS, '');
}

/**
 * The bidirectional-text controls: the marks U+200E and U+200F, the embeddings and overrides
 * U+202A-U+202E and the isolates U+2066-U+2069. In a name they change how everything after the
 * name is drawn (a U+202E reverses the rest of a table row or a sentence), and a person's or an
 * organization's name never needs them: the readers of names drop them at the edge, wherever they
 * are in the name (docs/console.md, "User text").
 */
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function stripBidiControls(value: string): string {
  return value.replace(BIDI_CONTROLS, '');
}

/** The names of a lead: read without bidirectional-text controls at ingestion and in a change. */
export const LEAD_NAME_FIELDS: readonly string[] = ['first_name', 'last_name'];

/** The same object with each of `fields` that holds a string stripped of bidirectional-text controls (a lead submission's names). */
export function withoutBidiControls<T>(record: T, fields: readonly string[] = LEAD_NAME_FIELDS): T {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  const source = record as Record<string, unknown>;
  if (!fields.some((field) => typeof source[field] === 'string' && stripBidiControls(source[field]) !== source[field]))
    return record;
  const cleaned: Record<string, unknown> = { ...source };
  for (const field of fields) {
    const value = cleaned[field];
    if (typeof value === 'string') cleaned[field] = stripBidiControls(value);
  }
  return cleaned as T;
}

/**
 * A string of at most `max` characters as sent, with `min` or more once trimmed; the trimmed
 * value, or undefined (with a problem) when absent or wrong.
 */
export function text(
  body: Body,
  field: string,
  problems: Problems,
  options: { min: number; max: number; required?: boolean },
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (options.required !== false) problems.add(field, 'is required');
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.add(field, 'must be a string');
    return undefined;
  }
  const trimmed = trimBlank(value);
  if (trimmed.length < options.min || value.length > options.max) {
    problems.add(
      field,
      trimmed.length === 0 && options.min > 0 ? 'is required' : `must be ${options.min}-${options.max} characters`,
    );
    return undefined;
  }
  return trimmed;
}

/** A name (of a person, a vendor, an organization): `text` once its bidirectional-text controls are dropped. */
export function nameText(
  body: Body,
  field: string,
  problems: Problems,
  options: { min: number; max: number; required?: boolean },
): string | undefined {
  const value = body[field];
  return text(typeof value === 'string' ? { [field]: stripBidiControls(value) } : body, field, problems, options);
}

export function email(body: Body, field: string, problems: Problems, required = true): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (required) problems.add(field, 'is required');
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.add(field, 'must be a string');
    return undefined;
  }
  const parsed = parseEmail(value);
  if (!parsed.ok || trimBlank(value) !== value) {
    problems.add(
      field,
      !parsed.ok && parsed.message === 'is required' ? 'is required' : 'must be a valid email address',
    );
    return undefined;
  }
  return parsed.email;
}

/** A string that is only checked for presence (login passwords, tokens). */
export function secret(body: Body, field: string, problems: Problems, max = 512): string | undefined {
  const value = body[field];
  if (typeof value !== 'string' || value.length === 0) {
    problems.add(field, 'is required');
    return undefined;
  }
  if (value.length > max) {
    problems.add(field, `must be at most ${max} characters`);
    return undefined;
  }
  return value;
}

export function bool(body: Body, field: string, problems: Problems, prefix = ''): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') {
    problems.add(prefix + field, 'must be true or false');
    return undefined;
  }
  return value;
}

export function stringList(
  body: Body,
  field: string,
  problems: Problems,
  options: { maxItems: number; pattern?: RegExp; prefix?: string },
): string[] | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  const name = (options.prefix ?? '') + field;
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    problems.add(name, 'must be an array of strings');
    return undefined;
  }
  if (value.length > options.maxItems) {
    problems.add(name, `must have at most ${options.maxItems} entries`);
    return undefined;
  }
  // Entries are taken as sent (not trimmed): the published schema states them exactly.
  const items = value as string[];
  const bad = options.pattern ? items.filter((item) => !options.pattern?.test(item)) : [];
  if (bad.length > 0) {
    problems.add(name, `invalid entries: ${bad.join(', ')}`);
    return undefined;
  }
  return [...new Set(items)];
}

export function integer(
  body: Body,
  field: string,
  problems: Problems,
  options: { min: number; max: number; prefix?: string },
): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < options.min || value > options.max) {
    problems.add((options.prefix ?? '') + field, `must be a whole number between ${options.min} and ${options.max}`);
    return undefined;
  }
  return value;
}

export function oneOf<T extends string>(
  body: Body,
  field: string,
  allowed: readonly T[],
  problems: Problems,
  options: { required?: boolean; prefix?: string } = {},
): T | undefined {
  const value = body[field];
  const name = (options.prefix ?? '') + field;
  if (value === undefined || value === null) {
    if (options.required) problems.add(name, 'is required');
    return undefined;
  }
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    problems.add(name, `must be one of ${allowed.join(', ')}`);
    return undefined;
  }
  return value as T;
}
