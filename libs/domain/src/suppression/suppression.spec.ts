import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blockingKeyFields } from '../dedup/normalize';
import {
  leadSuppressionKeys,
  normalizeSuppressionValue,
  parseSuppressionListInput,
  parseSuppressionValues,
  registrableDomain,
  suppressionHash,
  suppressionMatch,
  type SuppressionList,
} from './suppression';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY = 86_400_000;

function list(overrides: Partial<SuppressionList>): SuppressionList {
  return {
    id: 'supl_a',
    organization_id: 'org_1',
    name: 'A',
    kind: 'email',
    action: 'reject',
    expires_after_days: null,
    sandbox_only: false,
    enabled: true,
    entry_count: 1,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('suppression values', () => {
  it('normalizes emails and phones exactly as the dedup blocking keys do', () => {
    for (const lead of [
      { email: 'Jane.Doe+promo@GoogleMail.com', phone: '+1 (415) 555-2671' },
      { email: ' someone+x@outlook.com ', phone: '+44 20 7946 0958' },
      { email: 'a.b@yahoo.com', phone: '020 7946 0958' },
    ]) {
      const keys = blockingKeyFields(lead);
      expect(normalizeSuppressionValue('email', lead.email)).toBe(keys.email);
      expect(normalizeSuppressionValue('phone', lead.phone)).toBe(keys.phone);
    }
  });

  it('takes the registrable domain of a host or address, lower case', () => {
    expect(registrableDomain('Mail.Example.COM')).toBe('example.com');
    expect(registrableDomain('someone@admissions.school.co.uk')).toBe('school.co.uk');
    expect(registrableDomain('uni.edu.au')).toBe('uni.edu.au');
    expect(registrableDomain('a.b.example.de')).toBe('example.de');
    expect(registrableDomain('localhost')).toBeNull();
    expect(normalizeSuppressionValue('domain', 'not a domain')).toBeNull();
  });

  it('hashes the normalized value, or takes a given SHA-256 in either case', () => {
    expect(suppressionHash('email', 'J.ane@gmail.com', false)).toBe(sha256('jane@gmail.com'));
    expect(suppressionHash('email', sha256('x@y.edu').toUpperCase(), true)).toBe(sha256('x@y.edu'));
    expect(suppressionHash('email', 'abc', true)).toBeNull();
    expect(suppressionHash('phone', '123', false)).toBeNull();
    expect(leadSuppressionKeys({ email: 'Someone@Mail.Rival.org', phone: '5552010001' })).toEqual({
      email: sha256('someone@mail.rival.org'),
      domain: sha256('rival.org'),
      phone: sha256('5552010001'),
    });
  });

  it('refuses more than 10,000 values a call and names each bad value', () => {
    expect(parseSuppressionValues('email', { values: Array.from({ length: 10_001 }, () => 'a@b.edu') })).toEqual({
      ok: false,
      details: [{ field: 'values', message: 'must be a list of 1 to 10000 values' }],
    });
    expect(parseSuppressionValues('email', { values: ['a@b.edu', 'nope'] })).toEqual({
      ok: false,
      details: [{ field: 'values[1]', message: 'must be a valid email' }],
    });
    expect(parseSuppressionValues('email', { values: ['A@b.edu', 'a@B.edu'] })).toEqual({
      ok: true,
      value: { hashes: [sha256('a@b.edu')] },
    });
  });

  it('checks list fields; the kind cannot change', () => {
    expect(parseSuppressionListInput({ name: ' x ', kind: 'phone', expires_after_days: 0 }, false)).toEqual({
      ok: false,
      details: [{ field: 'expires_after_days', message: 'must be null or a whole number from 1 to 36500' }],
    });
    expect(parseSuppressionListInput({ kind: 'email' }, true)).toEqual({
      ok: false,
      details: [{ field: 'kind', message: 'cannot be changed once the list is made' }],
    });
  });
});

describe('suppressionMatch', () => {
  const keys = leadSuppressionKeys({ email: 'jane@x.edu', phone: '4155552671' });
  const hit = (listId: string, hash: string, daysAgo: number) => ({
    list_id: listId,
    hash,
    added_at: new Date(NOW.getTime() - daysAgo * DAY),
  });

  it('skips disabled lists, sandbox-only lists outside the sandbox, and expired entries', () => {
    const disabled = list({ id: 'supl_d', enabled: false });
    const sandbox = list({ id: 'supl_s', sandbox_only: true });
    const expiring = list({ id: 'supl_e', expires_after_days: 30 });
    const hits = [hit('supl_d', keys.email!, 1), hit('supl_s', keys.email!, 1), hit('supl_e', keys.email!, 31)];
    expect(suppressionMatch([disabled, sandbox, expiring], keys, hits, 'live', NOW)).toBeNull();
    expect(suppressionMatch([disabled, sandbox, expiring], keys, hits, 'sandbox', NOW)?.id).toBe('supl_s');
    expect(suppressionMatch([expiring], keys, [hit('supl_e', keys.email!, 29)], 'live', NOW)?.id).toBe('supl_e');
  });

  it('matches each list on its own kind and prefers reject over flag, then the oldest list', () => {
    const phoneFlag = list({ id: 'supl_p', kind: 'phone', action: 'flag', created_at: '2025-01-01T00:00:00.000Z' });
    const domainReject = list({ id: 'supl_x', kind: 'domain', created_at: '2026-02-01T00:00:00.000Z' });
    const hits = [hit('supl_p', keys.phone!, 1), hit('supl_x', keys.domain!, 1), hit('supl_x', keys.email!, 1)];
    expect(suppressionMatch([phoneFlag, domainReject], keys, hits, 'live', NOW)?.id).toBe('supl_x');
    expect(suppressionMatch([phoneFlag], keys, hits, 'live', NOW)?.id).toBe('supl_p');
    // A hash of the wrong kind on a list does not match (the email hash on a domain list).
    expect(
      suppressionMatch([domainReject], { email: keys.email! }, [hit('supl_x', keys.email!, 1)], 'live', NOW),
    ).toBeNull();
  });
});
