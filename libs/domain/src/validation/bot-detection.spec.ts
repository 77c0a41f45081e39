import { describe, expect, it } from 'vitest';
import { classifyFormTiming, invalidIpListEntries, isHoneypotFilled, isIpInList } from './bot-detection';

describe('isHoneypotFilled', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['   ', false],
    ['http://spam.example', true],
    ['x', true],
  ])('%j → %s', (website, expected) => {
    expect(isHoneypotFilled(website)).toBe(expected);
  });
});

describe('classifyFormTiming', () => {
  const now = new Date('2025-03-01T12:00:10.000Z');
  const thresholds = { reject_below_ms: 1_000, flag_below_ms: 3_000 };

  it.each([
    ['2025-03-01T12:00:09.500Z', 'reject'],
    ['2025-03-01T12:00:10.000Z', 'reject'], // 0 ms
    ['2025-03-01T12:00:09.000Z', 'flag'], // exactly 1 s
    ['2025-03-01T12:00:07.001Z', 'flag'], // 2.999 s
    ['2025-03-01T12:00:07.000Z', 'accept'], // exactly 3 s
    ['2025-03-01T11:59:00Z', 'accept'],
    ['2025-03-01T13:59:00+02:00', 'accept'], // offsets are honoured: 11:59 UTC
    ['2025-03-01T12:00:30.000Z', 'future'],
    ['2025-03-01 12:00:00', 'invalid'], // no offset
    ['yesterday', 'invalid'],
    ['2025-13-45T12:00:00Z', 'invalid'],
  ])('%s → %s', (startedAt, kind) => {
    expect(classifyFormTiming(startedAt, now, thresholds).kind).toBe(kind);
  });

  it('reports the elapsed time', () => {
    expect(classifyFormTiming('2025-03-01T12:00:08.250Z', now, thresholds)).toEqual({ kind: 'flag', elapsedMs: 1_750 });
  });
});

describe('isIpInList', () => {
  const list = ['203.0.113.7', '198.51.100.0/24', '2001:db8::/32', '::1', 'not-an-ip', '10.0.0.0/99'];

  it.each([
    ['203.0.113.7', true],
    ['203.0.113.8', false],
    ['198.51.100.200', true],
    ['198.51.101.1', false],
    ['::ffff:198.51.100.9', true], // IPv4-mapped IPv6 matches the IPv4 range
    ['2001:db8:1234::5', true],
    ['2001:db9::5', false],
    ['0:0:0:0:0:0:0:1', true],
    ['10.0.0.1', false], // the invalid entry 10.0.0.0/99 never matches
  ])('%s → %s', (ip, expected) => {
    expect(isIpInList(ip, list)).toBe(expected);
  });

  it.each(['', 'localhost', '127.1', '300.1.1.1', '1.2.3.4/24'])('is undefined for the non-address %j', (ip) => {
    expect(isIpInList(ip, list)).toBeUndefined();
  });

  it('lists the invalid entries of a configured list', () => {
    expect(invalidIpListEntries(list)).toEqual(['not-an-ip', '10.0.0.0/99']);
  });
});
