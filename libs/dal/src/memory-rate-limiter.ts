/**
 * Rate limiting in memory, with the decisions of RateLimiter (fixed one-minute windows,
 * docs/api-conventions.md "Rate limits"): for one api process that alone serves the data directory
 * (the embedded engines), where counting in the store cost a SQLite commit per request. Counters
 * are exact, and lost on a restart (a restarted process starts every subject with a fresh window
 * count, at most one window's worth).
 *
 * No timers: windows that have ended are pruned when the first request of a later window arrives.
 */
import { RATE_LIMIT_WINDOW_SECONDS } from '@leadstream/domain';
import { type RateLimitDecision, type RequestLimiter, windowDecision } from './rate-limiter';

export class MemoryRateLimiter implements RequestLimiter {
  /** `scope:subject` -> the count of the subject's current (or last) window. */
  private readonly counters = new Map<string, { windowStart: number; count: number }>();
  /** The newest window any request fell in; older windows' counters are pruned on reaching a new one. */
  private newestWindow = Number.NEGATIVE_INFINITY;

  constructor(private readonly windowSeconds = RATE_LIMIT_WINDOW_SECONDS) {}

  /** Counts one request of `subject` in `scope` and decides on it. */
  async consume(scope: string, subject: string, limit: number, now = new Date()): Promise<RateLimitDecision> {
    const windowMs = this.windowSeconds * 1000;
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    if (windowStart > this.newestWindow) this.prune(windowStart);
    const id = `${scope}:${subject}`;
    const counter = this.counters.get(id);
    let count: number;
    if (counter && counter.windowStart === windowStart) count = ++counter.count;
    else if (counter && counter.windowStart > windowStart) {
      // A clock that went back: the request is counted alone rather than against a newer window.
      count = 1;
    } else {
      count = 1;
      this.counters.set(id, { windowStart, count });
    }
    return windowDecision(count, limit, windowStart, now, this.windowSeconds);
  }

  /** How many subjects have a counter (for tests: ended windows do not pile up). */
  get size(): number {
    return this.counters.size;
  }

  private prune(windowStart: number): void {
    this.newestWindow = windowStart;
    for (const [id, counter] of this.counters) if (counter.windowStart < windowStart) this.counters.delete(id);
  }
}
