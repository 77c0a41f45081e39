/**
 * Rate limiting with fixed one-minute windows (docs/api-conventions.md "Rate limits"), counted in
 * the document store so every api process shares the counters when the store is MongoDB.
 *
 * One document per scope, subject and window: `_id = scope:subject:windowStart`, incremented with
 * an upserting findOneAndUpdate that returns the new count. A TTL index on `expires_at` (the
 * window's end) removes finished windows.
 *
 * Exactness depends on the engine: MongoDB and the embedded store apply `$inc` atomically, so the
 * limit is exact. FerretDB 1.24 does not apply concurrent updates of one document atomically
 * (docs/store.md): concurrent requests lose increments, so limits there are approximate and
 * err towards letting requests through. Measured: 25 simultaneous requests against a limit of
 * 10 admitted 24-25, the counter ending at 3-8; one request at a time is counted exactly. Use
 * MongoDB where limits must hold under bursts.
 */
import { RATE_LIMIT_WINDOW_SECONDS } from '@leadstream/domain';
import { type Collection, type DocumentStore } from '@leadstream/ports';
import { COLLECTIONS } from './collections';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window (0 once the limit is reached). */
  remaining: number;
  /** When the window ends, in unix seconds (X-RateLimit-Reset). */
  resetAt: number;
  /** Seconds until the window ends, at least 1 (Retry-After). */
  retryAfter: number;
  /** Length of the window in seconds (the 429 body's `window`). */
  window: number;
}

/** What both limiters implement, and what the routes use. */
export type RequestLimiter = Pick<RateLimiter, 'consume'>;

/** The decision on the `count`-th request of the fixed window starting at `windowStart` (ms). */
export function windowDecision(
  count: number,
  limit: number,
  windowStart: number,
  now: Date,
  windowSeconds: number,
): RateLimitDecision {
  const windowEnd = windowStart + windowSeconds * 1000;
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetAt: windowEnd / 1000,
    retryAfter: Math.max(1, Math.ceil((windowEnd - now.getTime()) / 1000)),
    window: windowSeconds,
  };
}

interface RateLimitWindowDocument {
  _id: string;
  scope: string;
  subject: string;
  window_start: Date;
  count: number;
  expires_at: Date;
}

export class RateLimiter {
  private readonly collection: Collection<RateLimitWindowDocument>;

  constructor(
    store: DocumentStore,
    private readonly windowSeconds = RATE_LIMIT_WINDOW_SECONDS,
  ) {
    this.collection = store.collection<RateLimitWindowDocument>(COLLECTIONS.rateLimits);
  }

  /** Counts one request of `subject` (e.g. an API key id) in `scope` and decides on it. */
  async consume(scope: string, subject: string, limit: number, now = new Date()): Promise<RateLimitDecision> {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const windowEnd = windowStart + windowMs;
    const count = await this.increment(`${scope}:${subject}:${windowStart / 1000}`, {
      scope,
      subject,
      window_start: new Date(windowStart),
      expires_at: new Date(windowEnd),
    });
    return windowDecision(count, limit, windowStart, now, this.windowSeconds);
  }

  private async increment(id: string, fields: Omit<RateLimitWindowDocument, '_id' | 'count'>): Promise<number> {
    // Two first requests of a window may both try to insert: the store's upsert settles it.
    const doc = await this.collection.findOneAndUpdate(
      { _id: id },
      { $inc: { count: 1 }, $setOnInsert: fields },
      { upsert: true, returnDocument: 'after' },
    );
    if (!doc) throw new Error(`rate limit counter ${id} was not returned after an upsert`);
    return doc.count;
  }
}
