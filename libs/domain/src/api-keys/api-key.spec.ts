import { describe, expect, it } from 'vitest';
import {
  API_KEY_SECRET_LENGTH,
  environmentOfKey,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  keyPreview,
  newApiKeyId,
  randomBase62,
  type RandomSource,
} from './api-key';

/** A source that yields the given bytes over and over. */
const repeating =
  (values: number[]): RandomSource =>
  (bytes) =>
    bytes.map((_, index) => values[index % values.length] ?? 0);

describe('API key format', () => {
  it('prefixes live keys with vk_live_ and sandbox keys with vk_test_, then 32 base62 characters', () => {
    const live = generateApiKey('live');
    const sandbox = generateApiKey('sandbox');
    expect(live).toMatch(/^vk_live_[0-9A-Za-z]{32}$/);
    expect(sandbox).toMatch(/^vk_test_[0-9A-Za-z]{32}$/);
    expect(live.length).toBe('vk_live_'.length + API_KEY_SECRET_LENGTH);
    expect(generateApiKey('live')).not.toBe(live);
    expect(isWellFormedApiKey(live) && isWellFormedApiKey(sandbox)).toBe(true);
    expect(isWellFormedApiKey('vk_live_short')).toBe(false);
    expect(isWellFormedApiKey(`sk_live_${'a'.repeat(32)}`)).toBe(false);
  });

  it('uses injected randomness and drops bytes that would bias base62', () => {
    // 0 -> '0', 61 -> 'z', 248 and 255 are rejected, 62 -> '0' again.
    expect(randomBase62(4, repeating([0, 248, 61, 255, 62]))).toBe('0z00');
    expect(generateApiKey('sandbox', repeating([10]))).toBe(`vk_test_${'A'.repeat(32)}`);
    expect(newApiKeyId(repeating([36]))).toBe(`key_${'a'.repeat(24)}`);
  });

  it('hashes with SHA-256 hex', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('tells the environment from the prefix', () => {
    expect(environmentOfKey('vk_live_x')).toBe('live');
    expect(environmentOfKey('vk_test_x')).toBe('sandbox');
    expect(environmentOfKey('Bearer vk_live_x')).toBeNull();
  });

  it('masks all but the prefix and four characters at each end', () => {
    expect(keyPreview('vk_live_abcdEFGH0123456789ijklmnopqrstwxyz')).toBe('vk_live_abcd…wxyz');
    expect(keyPreview('vk_test_short')).toBe('vk_test_…');
  });
});
