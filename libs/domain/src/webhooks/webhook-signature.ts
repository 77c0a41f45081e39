/**
 * Webhook signatures (docs/webhooks.md): `X-Service-Signature: t=<unix seconds>,v1=<hex>` where the
 * hex is HMAC-SHA256 of `<t>.<raw body>` keyed with the webhook's secret. Each attempt is signed
 * with its own timestamp, so a retry a day later still passes a receiver's 300 s tolerance.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

export function signatureDigest(secret: string, timestampSeconds: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`, 'utf8').digest('hex');
}

/** The header value for one attempt. */
export function signatureHeader(secret: string, timestampSeconds: number, rawBody: string): string {
  return `t=${timestampSeconds},v1=${signatureDigest(secret, timestampSeconds, rawBody)}`;
}

/**
 * What a receiver does (docs/webhooks.md): parse the header, recompute the digest over the raw
 * body, compare in constant time, and refuse timestamps outside the tolerance.
 */
export function verifySignature(
  header: string,
  rawBody: string,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const at = item.indexOf('=');
    if (at < 1) continue;
    const key = item.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), item.slice(at + 1).trim()]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signatureDigest(secret, timestamp, rawBody), 'hex');
  return (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
