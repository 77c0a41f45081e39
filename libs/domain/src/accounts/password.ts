/**
 * Passwords (docs/decisions.md "Accounts"): the strength rule (at least 8 characters with an
 * upper-case letter, a lower-case letter and a digit), and scrypt hashes with a per-user random
 * salt. The parameters travel inside the stored string, so they can be raised later without
 * invalidating existing hashes: `scrypt$N$r$p$<salt b64url>$<hash b64url>`.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export const PASSWORD_MIN_LENGTH = 8;
/** Longer passwords only cost hashing time; 128 is far beyond any passphrase. */
export const PASSWORD_MAX_LENGTH = 128;

/** Null when the password meets the rule, otherwise what is missing. */
export function passwordWeakness(password: string): string | null {
  const missing: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) missing.push(`at least ${PASSWORD_MIN_LENGTH} characters`);
  if (!/[A-Z]/.test(password)) missing.push('an uppercase letter');
  if (!/[a-z]/.test(password)) missing.push('a lowercase letter');
  if (!/[0-9]/.test(password)) missing.push('a digit');
  if (missing.length === 0) return null;
  return `Password must contain ${missing.join(', ')}`;
}

export interface ScryptParameters {
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

/** N=2^15, r=8 (32 MiB, roughly 50-100 ms): OWASP's scrypt recommendation. */
export const DEFAULT_SCRYPT: ScryptParameters = { N: 2 ** 15, r: 8, p: 1, keyLength: 32 };

function derive(password: string, salt: Buffer, params: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, params.keyLength, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, params: ScryptParameters = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((value) => Number.isSafeInteger(value) && value > 0)) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64url');
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = await derive(password, salt, { N, r, p, keyLength: expected.length });
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | undefined;

/**
 * A hash to compare against when the email is unknown or has no password yet, so that answer
 * takes as long as a wrong password (no user enumeration by timing).
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString('base64url'));
  return dummy;
}
