/**
 * Documents are stored as JSON text. JSON has no date type, so a Date is written as a tagged
 * string: DATE_TAG followed by `toISOString()`. The tag (U+0001) sorts below every other
 * non-empty string, so all dates form one contiguous range of text values, ordered by time, and
 * range filters can keep dates and strings apart with plain comparisons. Text that starts with
 * the tag, or with the escape (U+0002), is stored behind one more escape, so a tagged value is
 * always a date and any text a client sends is stored as it came. (Only the order of texts that
 * begin with those two control characters differs from plain code-point order.)
 */
import { type BaseDocument, type DocValue, type Scalar } from '@leadstream/ports';

export const DATE_TAG = '\u0001';
export const ESCAPE = '\u0002';
/** SQL for the bounds of the date range: dates are `>= DATE_LOW AND < DATE_HIGH`. */
export const DATE_LOW_SQL = 'char(1)';
export const DATE_HIGH_SQL = 'char(2)';

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function encodeString(value: string): string {
  return value.startsWith(DATE_TAG) || value.startsWith(ESCAPE) ? ESCAPE + value : value;
}

function decodeString(value: string): string | Date {
  if (value.startsWith(DATE_TAG)) return new Date(value.slice(1));
  if (value.startsWith(ESCAPE)) return value.slice(1);
  return value;
}

/** Converts a document value to its stored JSON form. `undefined` properties are dropped. */
export function toJson(value: DocValue): JsonValue {
  if (value instanceof Date) return DATE_TAG + value.toISOString();
  if (typeof value === 'string') return encodeString(value);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(toJson);
  const out: Record<string, JsonValue> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner !== undefined) out[key] = toJson(inner);
  }
  return out;
}

export function encodeDoc(doc: BaseDocument): string {
  return JSON.stringify(toJson(doc));
}

export function decodeDoc<T>(text: string): T {
  // A reviver makes JSON.parse call back for every value, several times slower; only a document
  // holding a tagged or escaped string (stored as \u0001 or \u0002, JSON's escapes) needs one.
  if (!text.includes('\\u000') && !text.includes(DATE_TAG) && !text.includes(ESCAPE)) return JSON.parse(text) as T;
  return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? decodeString(value) : value)) as T;
}

/**
 * The value to bind for a scalar so it compares with what json_extract returns: dates as tagged
 * text, booleans as 1/0 (json_extract turns JSON true/false into integers).
 */
export function bindScalar(value: Scalar): string | number | null {
  if (value instanceof Date) return DATE_TAG + value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return encodeString(value);
  return value;
}
