/**
 * Small builders for the JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of the HTTP API, so the
 * operation table in `operations.ts` reads like a table of endpoints. Each builder returns a plain
 * JSON Schema object; nothing here knows about OpenAPI.
 */
import { BLANK } from '@leadstream/domain';

export type JsonSchema = { [keyword: string]: unknown };

export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

export const str = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
export const int = (extra: JsonSchema = {}): JsonSchema => ({ type: 'integer', ...extra });
export const num = (extra: JsonSchema = {}): JsonSchema => ({ type: 'number', ...extra });
export const bool = (): JsonSchema => ({ type: 'boolean' });
export const dateTime = (): JsonSchema => ({ type: 'string', format: 'date-time' });
export const oneOfValues = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
export const array = (items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: 'array', items, ...extra });
export const anyObject = (): JsonSchema => ({ type: 'object' });

/** The schema, or null. */
export function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema['type'] === 'string' && !('$ref' in schema)) {
    const nullableSchema: JsonSchema = { ...schema, type: [schema['type'], 'null'] };
    if (Array.isArray(schema['enum'])) nullableSchema['enum'] = [...(schema['enum'] as unknown[]), null];
    return nullableSchema;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/**
 * An object with these properties. `required` lists the keys always present; a response object
 * may carry more keys than it lists (clients ignore unknown keys), a request object may not.
 */
export function obj(
  properties: Record<string, JsonSchema>,
  required: readonly string[] = [],
  extra: JsonSchema = {},
): JsonSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required: [...required] } : {}), ...extra };
}

/** A request body: only the listed keys (a typo is an error, not silently ignored). */
export function body(
  properties: Record<string, JsonSchema>,
  required: readonly string[] = [],
  extra: JsonSchema = {},
): JsonSchema {
  return obj(properties, required, { additionalProperties: false, ...extra });
}

/** Every key of an object is required (response objects whose fields are always present, null or not). */
export function record(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return obj(
    properties,
    Object.keys(properties).filter((key) => !optional.includes(key)),
  );
}

/**
 * Text of at most `max` characters as sent, and `min` (1 or 2) or more once trimmed of blanks
 * (the domain's `trimBlank`, with the same character class). The pattern needs only a character
 * class, so every regular-expression engine reads it alike.
 */
export function trimmedText(min: 1 | 2, max: number): JsonSchema {
  const visible = `[^${BLANK}]`;
  return { type: 'string', maxLength: max, pattern: min === 1 ? visible : `${visible}[\\s\\S]*${visible}` };
}

/** `{data: X}`: the user API's success envelope (docs/api-conventions.md). */
export const data = (schema: JsonSchema): JsonSchema => obj({ data: schema }, ['data']);

/** `{data: [X]}`. */
export const dataList = (schema: JsonSchema): JsonSchema => data(array(schema));

/** `{data: [X], meta: {page, limit, total, totalPages}}`: a paged list. */
export const pagedList = (schema: JsonSchema): JsonSchema =>
  obj({ data: array(schema), meta: ref('PageMeta') }, ['data', 'meta']);
