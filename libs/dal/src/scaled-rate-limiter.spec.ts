import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory-rate-limiter';
import { ScaledRateLimiter } from './scaled-rate-limiter';

describe('ScaledRateLimiter', () => {
  it('multiplies the limit it is asked for, and the decision reports the scaled limit', async () => {
    const limiter = new ScaledRateLimiter(new MemoryRateLimiter(), 3);
    const now = new Date('2026-01-01T00:00:10.000Z');
    const decisions = [];
    for (let i = 0; i < 7; i += 1) decisions.push(await limiter.consume('general_api', 'user-1', 2, now));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, true, false]);
    expect(decisions[0]?.limit).toBe(6);
  });
});
