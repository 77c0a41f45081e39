/**
 * Bot detection (docs/decisions.md "Validation"): a honeypot field, the time from form load to
 * submission, and a list of high-risk IP addresses and CIDR ranges. Pure: `now` is passed in.
 */
import ipaddr from 'ipaddr.js';

/** The honeypot `website` is hidden from people; any non-blank value means a form-filling bot. */
export function isHoneypotFilled(website: string | undefined): boolean {
  return website !== undefined && website.trim() !== '';
}

export interface TimingThresholds {
  /** Faster than this rejects (spec: under 1 s). */
  reject_below_ms: number;
  /** Faster than this, but not rejected, flags for review (spec: 1-3 s). */
  flag_below_ms: number;
}

export type TimingVerdict =
  | { kind: 'invalid' }
  | { kind: 'reject'; elapsedMs: number }
  | { kind: 'flag'; elapsedMs: number }
  /** `form_started_at` is later than `now`: clock skew between the form's host and us, or forged. */
  | { kind: 'future'; elapsedMs: number }
  | { kind: 'accept'; elapsedMs: number };

// ISO 8601 date-time with an explicit offset: without one the instant would depend on our zone.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

export function isIsoDateTime(value: string): boolean {
  return ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}

/** Elapsed time in [0, reject) rejects, [reject, flag) flags, [flag, ∞) accepts. */
export function classifyFormTiming(formStartedAt: string, now: Date, thresholds: TimingThresholds): TimingVerdict {
  if (!isIsoDateTime(formStartedAt)) return { kind: 'invalid' };
  const elapsedMs = now.getTime() - Date.parse(formStartedAt);
  if (elapsedMs < 0) return { kind: 'future', elapsedMs };
  if (elapsedMs < thresholds.reject_below_ms) return { kind: 'reject', elapsedMs };
  if (elapsedMs < thresholds.flag_below_ms) return { kind: 'flag', elapsedMs };
  return { kind: 'accept', elapsedMs };
}

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
type IpRange = [IpAddress, number];

/**
 * Strict parse of one address: dotted-quad IPv4 (ipaddr.js alone would also take `127.1` or hex
 * forms) or IPv6. IPv4-mapped IPv6 (`::ffff:1.2.3.4`, what a dual-stack socket reports) becomes
 * IPv4, so it matches IPv4 list entries.
 */
export function parseIpAddress(value: string): IpAddress | undefined {
  const text = value.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  const v6 = ipaddr.IPv6.parse(text);
  return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
}

/** One list entry: an address (a /32 or /128) or a CIDR range. */
export function parseIpRange(entry: string): IpRange | undefined {
  const text = entry.trim();
  const slash = text.indexOf('/');
  if (slash === -1) {
    const address = parseIpAddress(text);
    return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : undefined;
  }
  const address = parseIpAddress(text.slice(0, slash));
  const bitsText = text.slice(slash + 1);
  if (!address || !/^\d{1,3}$/.test(bitsText)) return undefined;
  const bits = Number(bitsText);
  return bits <= (address.kind() === 'ipv4' ? 32 : 128) ? [address, bits] : undefined;
}

/** Entries of a high-risk list that are neither an address nor a CIDR range (for the settings API). */
export function invalidIpListEntries(entries: readonly string[]): string[] {
  return entries.filter((entry) => parseIpRange(entry) === undefined);
}

/**
 * Does `ip` fall in any entry of the list? `undefined` when `ip` is not an address at all.
 * Invalid entries never match (the settings API refuses them; see `invalidIpListEntries`).
 */
export function isIpInList(ip: string, entries: readonly string[]): boolean | undefined {
  const address = parseIpAddress(ip);
  if (!address) return undefined;
  return entries.some((entry) => {
    const range = parseIpRange(entry);
    return range !== undefined && range[0].kind() === address.kind() && address.match(range);
  });
}
