import { describe, expect, it } from 'vitest';
import { buildCandidateQuery, windowStart } from './candidate-query';
import { DEFAULT_DEDUP_CONFIG, type DedupConfig } from './dedup-config';

const now = new Date('2025-01-10T12:00:00.000Z');
const incoming = {
  email: 'J.Smith@gmail.com',
  phone: '+1 555 123 4567',
  first_name: 'John',
  last_name: 'Smith',
  vendor_group: 'g1',
};
const withName: DedupConfig = {
  ...DEFAULT_DEDUP_CONFIG,
  match_fields: [...DEFAULT_DEDUP_CONFIG.match_fields, { field: 'name', algorithm: 'jaro_winkler' }],
};

describe('buildCandidateQuery', () => {
  it('queries only the keys of configured fields, inside the window', () => {
    expect(buildCandidateQuery({ incoming, config: DEFAULT_DEDUP_CONFIG, vendorId: 'v1', now })).toEqual({
      blocking_keys: ['e:jsmith@gmail.com', 'p:5551234567'],
      keys: { email: 'jsmith@gmail.com', phone: '5551234567', name: null },
      created_after: '2025-01-09T12:00:00.000Z',
      vendor_id: null,
      vendor_group: null,
      exclude_lead_id: null,
    });
  });
  it('adds the name key when names are matched on', () => {
    expect(buildCandidateQuery({ incoming, config: withName, vendorId: 'v1', now })?.blocking_keys).toContain(
      'n:S530j',
    );
  });
  it.each<[string, DedupConfig, Record<string, unknown>]>([
    ['within_vendor', { ...DEFAULT_DEDUP_CONFIG, scope: 'within_vendor' }, { vendor_id: 'v1', vendor_group: null }],
    ['vendor_group', { ...DEFAULT_DEDUP_CONFIG, scope: 'vendor_group' }, { vendor_id: null, vendor_group: 'g1' }],
    [
      'all time via override',
      { ...DEFAULT_DEDUP_CONFIG, vendor_overrides: { v1: { window_hours: null } } },
      { created_after: null },
    ],
  ])('%s', (_name, config, expected) => {
    expect(buildCandidateQuery({ incoming, config, vendorId: 'v1', now })).toMatchObject(expected);
  });
  it.each<[string, DedupConfig, typeof incoming | { first_name: string }]>([
    ['disabled', { ...DEFAULT_DEDUP_CONFIG, enabled: false }, incoming],
    ['no key to look up (never a full scan)', DEFAULT_DEDUP_CONFIG, { first_name: 'John' }],
    [
      'custom fields only',
      { ...DEFAULT_DEDUP_CONFIG, match_fields: [{ field: 'custom_fields.sid', algorithm: 'exact' }] },
      incoming,
    ],
  ])('null when %s', (_name, config, lead) => {
    expect(buildCandidateQuery({ incoming: lead, config, vendorId: 'v1', now })).toBeNull();
  });
});

describe('windowStart', () => {
  it.each([
    [1, '2025-01-10T11:00:00.000Z'],
    [168, '2025-01-03T12:00:00.000Z'],
    [720, '2024-12-11T12:00:00.000Z'],
  ] as const)('%d h', (hours, iso) => {
    expect(windowStart(hours, now)?.toISOString()).toBe(iso);
  });
  it('null is all time', () => {
    expect(windowStart(null, now)).toBeNull();
  });
});
