import { describe, expect, it } from 'vitest';
import { DEFAULT_DEDUP_CONFIG, effectiveConfig, parseDedupConfigUpdate, type DedupConfig } from './dedup-config';

const weighted = (weights: number[]) => ({
  combination: 'weighted',
  match_fields: [
    { field: 'email', algorithm: 'email_normalized', weight: weights[0] },
    { field: 'phone', algorithm: 'phone_digits', weight: weights[1] },
    { field: 'name', algorithm: 'jaro_winkler', weight: weights[2] },
  ],
});

describe('parseDedupConfigUpdate', () => {
  it.each<[string, unknown, Partial<DedupConfig>]>([
    ['empty body keeps everything', {}, {}],
    ['threshold', { threshold: 90 }, { threshold: 90 }],
    ['threshold bounds are inclusive', { threshold: 0 }, { threshold: 0 }],
    ['threshold 100', { threshold: 100 }, { threshold: 100 }],
    ['window "all" is null', { window_hours: 'all' }, { window_hours: null }],
    ['window null', { window_hours: null }, { window_hours: null }],
    ['window 720', { window_hours: 720 }, { window_hours: 720 }],
    ['action', { action: 'link-to-existing' }, { action: 'link-to-existing' }],
    ['scope', { scope: 'vendor_group' }, { scope: 'vendor_group' }],
    ['disable', { enabled: false }, { enabled: false }],
    [
      'weights summing to 1 within float error (0.7+0.2+0.1)',
      weighted([0.7, 0.2, 0.1]),
      weighted([0.7, 0.2, 0.1]) as Partial<DedupConfig>,
    ],
    [
      'custom field',
      { match_fields: [{ field: 'custom_fields.student_id', algorithm: 'exact' }] },
      { match_fields: [{ field: 'custom_fields.student_id', algorithm: 'exact' }] },
    ],
    [
      'vendor overrides replace the map',
      { vendor_overrides: { v1: { window_hours: 'all', threshold: 95, action: 'flag' } } },
      { vendor_overrides: { v1: { window_hours: null, threshold: 95, action: 'flag' } } },
    ],
    [
      'an override comparing across vendor types',
      { vendor_overrides: { v1: { compare_across_types: true } } },
      { vendor_overrides: { v1: { compare_across_types: true } } },
    ],
  ])('accepts %s', (_name, input, expected) => {
    const result = parseDedupConfigUpdate(input, DEFAULT_DEDUP_CONFIG);
    expect(result).toEqual({ ok: true, config: { ...DEFAULT_DEDUP_CONFIG, ...expected } });
  });

  it.each<[string, unknown, string]>([
    ['non-object body', [], 'body'],
    ['unknown key', { treshold: 90 }, 'treshold'],
    ['threshold above 100', { threshold: 101 }, 'threshold'],
    ['threshold below 0', { threshold: -1 }, 'threshold'],
    ['threshold as string', { threshold: '85' }, 'threshold'],
    ['window not an option', { window_hours: 48 }, 'window_hours'],
    ['enabled not boolean', { enabled: 'yes' }, 'enabled'],
    ['unknown action', { action: 'delete' }, 'action'],
    ['unknown combination', { combination: 'xor' }, 'combination'],
    ['unknown scope', { scope: 'global' }, 'scope'],
    ['empty match_fields', { match_fields: [] }, 'match_fields'],
    ['unknown match field', { match_fields: [{ field: 'city', algorithm: 'exact' }] }, 'match_fields[0].field'],
    ['unknown algorithm', { match_fields: [{ field: 'email', algorithm: 'metaphone' }] }, 'match_fields[0].algorithm'],
    [
      'phone_digits on a name',
      { match_fields: [{ field: 'name', algorithm: 'phone_digits' }] },
      'match_fields[0].algorithm',
    ],
    [
      'unknown key in a match field',
      { match_fields: [{ field: 'email', algorithm: 'exact', boost: 2 }] },
      'match_fields[0].boost',
    ],
    [
      'field listed twice',
      {
        match_fields: [
          { field: 'email', algorithm: 'exact' },
          { field: 'email', algorithm: 'levenshtein' },
        ],
      },
      'match_fields[1].field',
    ],
    [
      'weight above 1',
      { match_fields: [{ field: 'email', algorithm: 'exact', weight: 1.5 }] },
      'match_fields[0].weight',
    ],
    ['weights summing to 0.9', weighted([0.5, 0.3, 0.1]), 'match_fields'],
    ['weights summing to 1.1', weighted([0.5, 0.3, 0.3]), 'match_fields'],
    ['weighted without weights (current fields have none)', { combination: 'weighted' }, 'match_fields'],
    [
      'override with unknown key',
      { vendor_overrides: { v1: { scope: 'within_vendor' } } },
      'vendor_overrides.v1.scope',
    ],
    [
      'override threshold out of range',
      { vendor_overrides: { v1: { threshold: 200 } } },
      'vendor_overrides.v1.threshold',
    ],
    [
      'override window not an option',
      { vendor_overrides: { v1: { window_hours: 2 } } },
      'vendor_overrides.v1.window_hours',
    ],
    ['override not an object', { vendor_overrides: { v1: 'flag' } }, 'vendor_overrides.v1'],
    [
      'compare_across_types not a boolean',
      { vendor_overrides: { v1: { compare_across_types: 'yes' } } },
      'vendor_overrides.v1.compare_across_types',
    ],
  ])('rejects %s with a detail on %s', (_name, input, field) => {
    const result = parseDedupConfigUpdate(input, DEFAULT_DEDUP_CONFIG);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details.map((d) => d.field)).toContain(field);
  });

  it('explains the weight sum', () => {
    const result = parseDedupConfigUpdate(weighted([0.5, 0.3, 0.1]), DEFAULT_DEDUP_CONFIG);
    expect(result).toEqual({
      ok: false,
      details: [{ field: 'match_fields', message: 'weights must sum to 1 (they sum to 0.9)' }],
    });
  });

  it('reports every problem at once', () => {
    const result = parseDedupConfigUpdate({ threshold: 300, action: 'nope', extra: 1 }, DEFAULT_DEDUP_CONFIG);
    expect(result.ok ? [] : result.details.map((d) => d.field).sort()).toEqual(['action', 'extra', 'threshold']);
  });

  it('does not mutate the current configuration', () => {
    const current = structuredClone(DEFAULT_DEDUP_CONFIG);
    parseDedupConfigUpdate({ threshold: 10, match_fields: [{ field: 'email', algorithm: 'exact' }] }, current);
    expect(current).toEqual(DEFAULT_DEDUP_CONFIG);
  });
});

describe('effectiveConfig', () => {
  const config: DedupConfig = {
    ...DEFAULT_DEDUP_CONFIG,
    vendor_overrides: {
      strict: { threshold: 95, action: 'flag' },
      forever: { window_hours: null },
    },
  };
  it.each<[string | null, Pick<DedupConfig, 'threshold' | 'action' | 'window_hours'>]>([
    [null, { threshold: 85, action: 'reject', window_hours: 24 }],
    ['other', { threshold: 85, action: 'reject', window_hours: 24 }],
    ['strict', { threshold: 95, action: 'flag', window_hours: 24 }],
    ['forever', { threshold: 85, action: 'reject', window_hours: null }],
    ['toString', { threshold: 85, action: 'reject', window_hours: 24 }],
  ])('vendor %j', (vendorId, expected) => {
    const { threshold, action, window_hours } = effectiveConfig(config, vendorId);
    expect({ threshold, action, window_hours }).toEqual(expected);
  });
});
