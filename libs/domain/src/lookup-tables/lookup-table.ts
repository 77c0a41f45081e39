/**
 * Lookup tables (operations `createLookupTable`, ...) as request bodies: a name the `lookup` rule
 * action and the formula `lookup` function refer to, a description, and mappings of key to value
 * strings. A key missing from the table leaves the lookup's target unchanged
 * (docs/enrichment-rules.md).
 */
import type { ErrorDetail } from '../errors';

export interface LookupTableSettings {
  name: string;
  description: string | null;
  mappings: Record<string, string>;
}

export type LookupTableParse = { ok: true; value: LookupTableSettings } | { ok: false; details: ErrorDetail[] };

export const LOOKUP_TABLE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_LOOKUP_MAPPINGS = 10_000;
const MAX_KEY = 200;
const MAX_VALUE = 1_000;
const MAX_DESCRIPTION = 1_000;
const KEYS = ['name', 'description', 'mappings'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** POST /api/enrichment/lookup-tables. */
export function parseLookupTableCreate(body: unknown): LookupTableParse {
  return parseLookupTable(body, { name: '', description: null, mappings: {} }, true);
}

/** PATCH /api/enrichment/lookup-tables/:id: any of name, description, mappings (mappings are replaced whole). */
export function parseLookupTablePatch(body: unknown, current: LookupTableSettings): LookupTableParse {
  return parseLookupTable(body, current, false);
}

function parseLookupTable(body: unknown, base: LookupTableSettings, creating: boolean): LookupTableParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details: ErrorDetail[] = Object.keys(body)
    .filter((key) => !(KEYS as readonly string[]).includes(key))
    .map((key) => ({ field: key, message: `${key} is not a lookup table field (name, description, mappings)` }));
  const value: LookupTableSettings = { ...base };
  if (creating || 'name' in body) {
    const name = body['name'];
    if (typeof name !== 'string' || !LOOKUP_TABLE_NAME.test(name))
      details.push({
        field: 'name',
        message: 'name is required: 1-64 letters, digits, _ or -, starting with a letter or digit',
      });
    else value.name = name;
  }
  if ('description' in body) {
    const description = body['description'];
    if (description !== null && (typeof description !== 'string' || description.length > MAX_DESCRIPTION))
      details.push({
        field: 'description',
        message: `description must be a string of at most ${MAX_DESCRIPTION} characters, or null`,
      });
    else value.description = description;
  }
  if (creating || 'mappings' in body) {
    const mappings = body['mappings'];
    if (!isObject(mappings))
      details.push({ field: 'mappings', message: 'mappings is required: an object of key to value strings' });
    else {
      const entries = Object.entries(mappings);
      if (entries.length > MAX_LOOKUP_MAPPINGS)
        details.push({ field: 'mappings', message: `mappings may hold at most ${MAX_LOOKUP_MAPPINGS} keys` });
      for (const [key, mapped] of entries.slice(0, MAX_LOOKUP_MAPPINGS)) {
        if (key.length === 0 || key.length > MAX_KEY)
          details.push({ field: `mappings.${key}`, message: `keys must have 1-${MAX_KEY} characters` });
        else if (typeof mapped !== 'string' || mapped.length > MAX_VALUE)
          details.push({
            field: `mappings.${key}`,
            message: `values must be strings of at most ${MAX_VALUE} characters`,
          });
      }
      if (details.every((detail) => !detail.field.startsWith('mappings')))
        value.mappings = { ...(mappings as Record<string, string>) };
    }
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}
