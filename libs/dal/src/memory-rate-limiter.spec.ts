import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory-rate-limiter';

/** 12:00:15 UTC: 15 s into a one-minute window that ends at 12:01:00. */
const START = Date.parse('2025-03-01T12:00:15.000Z');
const at = (offsetMs: number): Date => new Date(START + offsetMs);
const WINDOW_END_S = Date.parse('2025-03-01T12:01:00.000Z') / 1000;

describe('MemoryRateLimiter', () => {
  it('admits `limit` requests of a subject per fixed window, then refuses with the time left', async () => {
    const limiter = new MemoryRateLimiter();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('ingest_single_live', 'key_1', 3, at(i * 1_000)));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3]).toEqual({
      allowed: false,
      limit: 3,
      remaining: 0,
      resetAt: WINDOW_END_S,
      retryAfter: 42,
      window: 60,
    });
  });

  it('starts counting afresh at the window boundary, not 60 s after the first request', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 3; i++) await limiter.consume('s', 'k', 3, at(0));
    expect((await limiter.consume('s', 'k', 3, at(44_999))).allowed).toBe(false);
    // 12:01:00.000 is the next window's first millisecond.
    expect(await limiter.consume('s', 'k', 3, at(45_000))).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetAt: WINDOW_END_S + 60,
      retryAfter: 60,
      window: 60,
    });
  });

  it('keeps separate counters per scope and per subject', async () => {
    const limiter = new MemoryRateLimiter();
    await limiter.consume('ingest_single_live', 'key_1', 3, at(0));
    await limiter.consume('ingest_single_live', 'key_1', 3, at(0));
    expect((await limiter.consume('ingest_single_live', 'key_2', 3, at(0))).remaining).toBe(2);
    expect((await limiter.consume('ingest_bulk_live', 'key_1', 3, at(0))).remaining).toBe(2);
    expect((await limiter.consume('ingest_single_live', 'key_1', 3, at(0))).remaining).toBe(0);
  });

  it('reports retryAfter of at least 1 s at the end of a window', async () => {
    const limiter = new MemoryRateLimiter();
    expect((await limiter.consume('s', 'k', 1, at(44_900))).retryAfter).toBe(1);
  });

  it('forgets counters of ended windows once a later window is reached', async () => {
    const limiter = new MemoryRateLimiter();
    for (let i = 0; i < 50; i++) await limiter.consume('s', `k${i}`, 10, at(0));
    expect(limiter.size).toBe(50);
    await limiter.consume('s', 'k0', 10, at(60_000));
    expect(limiter.size).toBe(1);
  });

  it('decides like the store limiter for the same sequence (one shared decision function)', async () => {
    const { windowDecision } = await import('./rate-limiter');
    const limiter = new MemoryRateLimiter();
    const windowStart = Date.parse('2025-03-01T12:00:00.000Z');
    for (let count = 1; count <= 5; count++) {
      expect(await limiter.consume('s', 'k', 2, at(count))).toEqual(
        windowDecision(count, 2, windowStart, at(count), 60),
      );
    }
  });
});
