import { describe, expect, it } from 'vitest';
import { ingestScope, RATE_LIMITS, RATE_LIMIT_WINDOW_SECONDS } from './rate-limits';

describe('RATE_LIMITS (the documented rate limits)', () => {
  it('holds every row of the table with a one-minute window', () => {
    expect(RATE_LIMIT_WINDOW_SECONDS).toBe(60);
    expect(Object.keys(RATE_LIMITS)).toHaveLength(20);
    expect(RATE_LIMITS.authentication).toBe(10);
    expect(RATE_LIMITS.get_lead).toBe(200);
    expect(RATE_LIMITS.funnel_enterprise).toBe(1000);
  });

  it('picks the ingestion row by kind and environment', () => {
    expect(RATE_LIMITS[ingestScope('single', 'live')]).toBe(500);
    expect(RATE_LIMITS[ingestScope('bulk', 'live')]).toBe(50);
    expect(RATE_LIMITS[ingestScope('single', 'sandbox')]).toBe(100);
    expect(RATE_LIMITS[ingestScope('bulk', 'sandbox')]).toBe(10);
  });
});
