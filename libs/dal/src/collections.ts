import type { DocValue } from '@leadstream/ports';

/** Collection names, one place, so indexes and repositories cannot disagree. */
export const COLLECTIONS = {
  organizations: 'organizations',
  vendors: 'vendors',
  apiKeys: 'api_keys',
  rateLimits: 'rate_limits',
} as const;

/** A record as stored: the record's `id` becomes the document's `_id`. */
export type Stored<T extends { id: string }> = Omit<T, 'id'> & { _id: string };

export function toRecord<T extends { id: string }>(doc: Stored<T>): T {
  const { _id, ...rest } = doc;
  return { id: _id, ...rest } as unknown as T;
}

export function toDocument<T extends { id: string }>(record: T): Stored<T> {
  const { id, ...rest } = record;
  return { _id: id, ...rest };
}

/**
 * A plain-JSON value typed by an interface (interfaces have no index signature, so TypeScript
 * cannot see that they fit the port's `DocValue`). Only for values built from plain objects.
 */
export function plain<T extends object>(value: T): DocValue {
  return value as unknown as DocValue;
}
