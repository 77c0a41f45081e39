/**
 * IP restrictions of an API key (a request from elsewhere is 403 IP_RESTRICTED): addresses and CIDR
 * ranges, IPv4 and IPv6. An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack socket
 * reports for an IPv4 client) is compared as the IPv4 address it carries, so `1.2.3.4` in a list
 * matches it.
 */
import ipaddr from 'ipaddr.js';
import { DomainError } from '../errors';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/** Unwraps IPv4-mapped IPv6 addresses to IPv4. */
function canonical(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/**
 * Parses one restriction entry into a range; a single address is a range of full length.
 * Only dotted-quad IPv4 is accepted: `ipaddr.js` would also read `10.1` or octal forms, which
 * nobody means in an allow list.
 */
export function parseIpRestriction(entry: string): Range | null {
  const text = entry.trim();
  try {
    if (text.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(text);
      if (address.kind() === 'ipv4' && !ipaddr.IPv4.isValidCIDRFourPartDecimal(text)) return null;
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
      }
      return [address, bits];
    }
    if (ipaddr.IPv4.isValidFourPartDecimal(text)) return [ipaddr.IPv4.parse(text), 32];
    if (ipaddr.IPv6.isValid(text)) {
      const address = canonical(ipaddr.IPv6.parse(text));
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    }
  } catch {
    return null;
  }
  return null;
}

/** Checks a list given at key creation; the error names every bad entry. */
export function validateIpRestrictions(entries: string[]): string[] {
  const bad = entries.filter((entry) => parseIpRestriction(entry) === null);
  if (bad.length > 0) {
    throw new DomainError(
      'VALIDATION_ERROR',
      'Invalid IP restriction',
      bad.map((entry) => ({ field: 'ip_restrictions', message: `"${entry}" is not an IP address or CIDR range` })),
    );
  }
  return entries.map((entry) => entry.trim());
}

/** Whether a client address may use a key with these restrictions. An empty list allows any. */
export function ipAllowed(ip: string, restrictions: readonly string[]): boolean {
  if (restrictions.length === 0) return true;
  let client: Address;
  try {
    client = canonical(ipaddr.parse(ip.trim()));
  } catch {
    return false; // an address we cannot read is never inside a restriction
  }
  return restrictions.some((entry) => {
    const range = parseIpRestriction(entry);
    return range !== null && range[0].kind() === client.kind() && client.match(range);
  });
}
