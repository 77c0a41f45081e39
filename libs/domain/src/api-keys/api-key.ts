/**
 * API keys of vendors (docs/api-conventions.md "Authentication"). The full key is shown once; only
 * its SHA-256 hash is stored (docs/decisions.md). Pure: randomness comes from
 * `crypto.getRandomValues` or is injected, hashing is a computation.
 */
import { createHash, getRandomValues } from 'node:crypto';
import type { Environment } from '../tenant';

export type ApiKeyPermission = 'read' | 'write';
export const API_KEY_PERMISSIONS: readonly ApiKeyPermission[] = ['read', 'write'];
/**
 * Permissions of a key created without a list, by the API and the CLI alike: submit leads and read
 * them back (the `status_url` of a 202 needs read). Narrow a key with an explicit list.
 */
export const DEFAULT_API_KEY_PERMISSIONS: readonly ApiKeyPermission[] = ['read', 'write'];

/** The stored key record; the secret itself is never part of it. */
export interface ApiKey {
  /** `key_…` */
  id: string;
  organization_id: string;
  vendor_id: string;
  environment: Environment;
  name: string;
  /** SHA-256 hex of the full key. */
  key_hash: string;
  /** e.g. `vk_live_abcd…wxyz`, safe to show in lists. */
  key_preview: string;
  permissions: ApiKeyPermission[];
  /** IP addresses and CIDR ranges; empty = any address. */
  ip_restrictions: string[];
  /** Requests per minute replacing the default of the route, or null. */
  rate_limit: number | null;
  enabled: boolean;
  revoked_at: Date | null;
  /** Set on the old key by a rotation: it stays valid until then (24 hours after the rotation). */
  expires_at: Date | null;
  created_at: Date;
  last_used_at: Date | null;
}

export const API_KEY_PREFIX: Record<Environment, string> = { live: 'vk_live_', sandbox: 'vk_test_' };

/** 32 base62 characters carry about 190 bits: far beyond guessing. */
export const API_KEY_SECRET_LENGTH = 32;

/** How long a rotated key keeps working (`rotateApiKey`). */
export const ROTATED_KEY_OVERLAP_MS = 24 * 60 * 60 * 1000;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_PATTERN = new RegExp(`^vk_(live|test)_[0-9A-Za-z]{${API_KEY_SECRET_LENGTH},}$`);

/** Fills a byte array with random values; `crypto.getRandomValues` unless a test injects one. */
export type RandomSource = (bytes: Uint8Array) => Uint8Array;

const cryptoRandom: RandomSource = (bytes) => getRandomValues(bytes);

/**
 * `length` uniformly distributed base62 characters. Bytes of 248 and above are dropped
 * (rejection sampling) because 256 is not a multiple of 62 and `byte % 62` would favour some
 * characters.
 */
export function randomBase62(length: number, random: RandomSource = cryptoRandom): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random(new Uint8Array(length * 2))) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(environment: Environment, random: RandomSource = cryptoRandom): string {
  return API_KEY_PREFIX[environment] + randomBase62(API_KEY_SECRET_LENGTH, random);
}

export function newApiKeyId(random: RandomSource = cryptoRandom): string {
  return `key_${randomBase62(24, random)}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Whether a string has the shape of one of our keys (cheap check before any lookup). */
export function isWellFormedApiKey(key: string): boolean {
  return SECRET_PATTERN.test(key);
}

/** The environment a key belongs to by its prefix, or null for anything else. */
export function environmentOfKey(key: string): Environment | null {
  if (key.startsWith(API_KEY_PREFIX.live)) return 'live';
  if (key.startsWith(API_KEY_PREFIX.sandbox)) return 'sandbox';
  return null;
}

/** `vk_live_abcd…wxyz`: the prefix, the first and last four characters of the secret. */
export function keyPreview(key: string): string {
  const environment = environmentOfKey(key);
  const prefix = environment ? API_KEY_PREFIX[environment] : '';
  const secret = key.slice(prefix.length);
  if (secret.length < 12) return `${prefix}…`; // too short to reveal any of it
  return `${prefix}${secret.slice(0, 4)}…${secret.slice(-4)}`;
}
