import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { ipAllowed, parseIpRestriction, validateIpRestrictions } from './ip-restrictions';

describe('ipAllowed', () => {
  it('allows any address when the list is empty', () => {
    expect(ipAllowed('203.0.113.9', [])).toBe(true);
    expect(ipAllowed('2001:db8::1', [])).toBe(true);
  });

  it('matches single IPv4 addresses and CIDR ranges', () => {
    const list = ['198.51.100.7', '10.0.0.0/8'];
    expect(ipAllowed('198.51.100.7', list)).toBe(true);
    expect(ipAllowed('198.51.100.8', list)).toBe(false);
    expect(ipAllowed('10.255.1.2', list)).toBe(true);
    expect(ipAllowed('11.0.0.1', list)).toBe(false);
  });

  it('matches IPv6 addresses and ranges in any spelling', () => {
    const list = ['2001:db8::1', '2001:db8:abcd::/48'];
    expect(ipAllowed('2001:0db8:0000:0000:0000:0000:0000:0001', list)).toBe(true);
    expect(ipAllowed('2001:db8:abcd:12::5', list)).toBe(true);
    expect(ipAllowed('2001:db8:abce::5', list)).toBe(false);
  });

  it('treats IPv4-mapped IPv6 addresses as IPv4, on both sides', () => {
    expect(ipAllowed('::ffff:10.1.2.3', ['10.0.0.0/8'])).toBe(true);
    expect(ipAllowed('::ffff:192.0.2.1', ['192.0.2.1'])).toBe(true);
    expect(ipAllowed('192.0.2.1', ['::ffff:192.0.2.1'])).toBe(true);
    expect(ipAllowed('192.0.2.77', ['::ffff:192.0.2.0/120'])).toBe(true);
    expect(ipAllowed('::ffff:192.0.2.1', ['192.0.2.2'])).toBe(false);
  });

  it('never matches across families or unreadable addresses', () => {
    expect(ipAllowed('::1', ['0.0.0.0/0'])).toBe(false);
    expect(ipAllowed('127.0.0.1', ['::/0'])).toBe(false);
    expect(ipAllowed('not-an-ip', ['0.0.0.0/0'])).toBe(false);
  });
});

describe('restriction entries', () => {
  it('accepts addresses and ranges, rejects shorthand IPv4 and garbage', () => {
    expect(parseIpRestriction('10.0.0.0/8')).not.toBeNull();
    expect(parseIpRestriction('::1')).not.toBeNull();
    expect(parseIpRestriction('10.1')).toBeNull();
    expect(parseIpRestriction('10.0.0.0/33')).toBeNull();
    expect(parseIpRestriction('example.com')).toBeNull();
  });

  it('names every bad entry in one VALIDATION_ERROR', () => {
    expect(validateIpRestrictions([' 1.2.3.4 ', '10.0.0.0/8'])).toEqual(['1.2.3.4', '10.0.0.0/8']);
    try {
      validateIpRestrictions(['1.2.3.4', 'nope', '300.1.1.1']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('VALIDATION_ERROR');
      expect((error as DomainError).details?.map((detail) => detail.message)).toEqual([
        '"nope" is not an IP address or CIDR range',
        '"300.1.1.1" is not an IP address or CIDR range',
      ]);
    }
  });
});
