/**
 * Every rate limit (docs/api-conventions.md "Rate limits") multiplied by one factor
 * (RATE_LIMIT_SCALE): for a deployment that limits requests in front of leadstream, and for load
 * and fuzz runs on loopback that would otherwise measure the limiter. Answers and headers show the
 * scaled limit; 1 keeps the documented limits.
 */
import type { RateLimitDecision, RequestLimiter } from './rate-limiter';

export class ScaledRateLimiter implements RequestLimiter {
  constructor(
    private readonly inner: RequestLimiter,
    private readonly scale: number,
  ) {}

  consume(scope: string, subject: string, limit: number, now?: Date): Promise<RateLimitDecision> {
    return this.inner.consume(scope, subject, Math.max(1, Math.round(limit * this.scale)), now);
  }
}
