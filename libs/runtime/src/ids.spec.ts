import { describe, expect, it } from 'vitest';
import { newId } from './ids';

describe('newId', () => {
  it('is the prefix and 32 hex characters, the first 12 the time in milliseconds', () => {
    const id = newId('lead', Date.UTC(2026, 10, 29, 17, 0, 0, 123));
    expect(id).toMatch(/^lead_[0-9a-f]{32}$/);
    expect(Number.parseInt(id.slice(5, 17), 16)).toBe(Date.UTC(2026, 10, 29, 17, 0, 0, 123));
  });

  it('sorts ids of later milliseconds after earlier ones, as strings', () => {
    const start = Date.UTC(2026, 0, 1);
    const ids = [0, 1, 2, 999, 1000, 86_400_000].map((offset) => newId('evt', start + offset));
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes different ids within one millisecond, with 80 random bits', () => {
    const now = Date.now();
    const ids = new Set(Array.from({ length: 10_000 }, () => newId('evt', now)));
    expect(ids.size).toBe(10_000);
    const randomParts = new Set([...ids].map((id) => id.slice(16)));
    expect(randomParts.size).toBe(10_000);
  });
});
