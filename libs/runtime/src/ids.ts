import { randomBytes } from 'node:crypto';

/**
 * A prefix-style id (docs/api-conventions.md "Identifiers"): the prefix, `_`, and 32 lowercase
 * hex characters, the first 12 the time in milliseconds since the epoch and the other 20 random
 * (80 bits, as in a UUIDv7).
 *
 * Ordered by time, so the ids made together land together at the end of every index keyed by
 * them (a lead's `_id`, its activity entries' and dedup log's `_id`s, `lead_id` columns) instead of
 * on a page of their own each: a batch of new leads then writes a few index pages, not one per
 * lead and index (docs/performance.md "Session 27"). The random part keeps ids unguessable and
 * unique across processes, and their hashes (partitions, weighted routing) evenly spread.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  const time = Math.max(0, Math.min(now, 0xffff_ffff_ffff)).toString(16).padStart(12, '0');
  return `${prefix}_${time}${randomBytes(10).toString('hex')}`;
}
