import { describe, expect, it } from 'vitest';
import {
  change,
  dropOffAgeBuckets,
  formatDuration,
  fraction,
  intervalStarts,
  parseAnalyticsQuery,
  parseFunnelLinkCreate,
  parseFunnelPeriod,
  parseMinAgeHours,
  percentage,
  periodDays,
  periodView,
  previousPeriod,
} from './index';

const NOW = new Date('2025-06-15T13:45:00.000Z');
const INQUIRY = '3f1b2c4d-1111-4222-8333-444455556666';
const APPLICATION = 'a1b2c3d4-aaaa-4bbb-8ccc-ddddeeeeffff';

describe('parseFunnelLinkCreate', () => {
  it('takes two vendor UUIDs and a window that defaults to 24 hours', () => {
    expect(parseFunnelLinkCreate({ inquiryVendorId: INQUIRY, applicationVendorId: APPLICATION.toUpperCase() })).toEqual(
      { ok: true, value: { inquiryVendorId: INQUIRY, applicationVendorId: APPLICATION, timeWindowHours: 24 } },
    );
    expect(
      parseFunnelLinkCreate({ inquiryVendorId: INQUIRY, applicationVendorId: APPLICATION, timeWindowHours: 72 }),
    ).toMatchObject({ ok: true, value: { timeWindowHours: 72 } });
  });

  it('names every problem by field', () => {
    const parsed = parseFunnelLinkCreate({ inquiryVendorId: 'nope', timeWindowHours: 1.5, colour: 'red' });
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field)).toEqual([
      'colour',
      'inquiryVendorId',
      'applicationVendorId',
      'timeWindowHours',
    ]);
    expect(
      parseFunnelLinkCreate({ inquiryVendorId: INQUIRY, applicationVendorId: APPLICATION, timeWindowHours: 0 }).ok,
    ).toBe(false);
    expect(
      parseFunnelLinkCreate({ inquiryVendorId: INQUIRY, applicationVendorId: APPLICATION, timeWindowHours: 8_761 }).ok,
    ).toBe(false);
    expect(parseFunnelLinkCreate([]).ok).toBe(false);
  });
});

describe('parseFunnelPeriod', () => {
  it('defaults to the 30 days before today and today (UTC)', () => {
    const parsed = parseFunnelPeriod({}, NOW);
    expect(parsed).toEqual({
      ok: true,
      value: { start: new Date('2025-05-16T00:00:00.000Z'), end: new Date('2025-06-16T00:00:00.000Z') },
    });
    expect(parsed.ok && periodView(parsed.value)).toEqual({
      start: '2025-05-16T00:00:00.000Z',
      end: '2025-06-15T23:59:59.999Z',
    });
  });

  it('reads dates as whole UTC days and date-times as instants', () => {
    expect(parseFunnelPeriod({ startDate: '2025-06-01', endDate: '2025-06-02' }, NOW)).toEqual({
      ok: true,
      value: { start: new Date('2025-06-01T00:00:00Z'), end: new Date('2025-06-03T00:00:00Z') },
    });
    expect(parseFunnelPeriod({ startDate: '2025-06-01T08:00:00+02:00', endDate: '2025-06-01T12:00:00Z' }, NOW)).toEqual(
      { ok: true, value: { start: new Date('2025-06-01T06:00:00Z'), end: new Date('2025-06-01T12:00:00Z') } },
    );
  });

  it('keys its problems by parameter', () => {
    const problems = (query: Record<string, string | string[]>): Record<string, string> => {
      const parsed = parseFunnelPeriod(query, NOW);
      return parsed.ok ? {} : Object.fromEntries(parsed.details.map((detail) => [detail.field, detail.message]));
    };
    expect(problems({ startDate: '2025-06-10', endDate: '2025-06-01' })).toEqual({
      startDate: 'startDate must be before endDate',
    });
    expect(Object.keys(problems({ startDate: '2025-02-30', endDate: 'yesterday' }))).toEqual(['startDate', 'endDate']);
    expect(Object.keys(problems({ startDate: '2025-06-01T10:00:00' }))).toEqual(['startDate']);
    expect(Object.keys(problems({ startDate: ['2025-06-01', '2025-06-02'] }))).toEqual(['startDate']);
    expect(Object.keys(problems({ startDate: '2020-01-01', endDate: '2025-01-01' }))).toEqual(['endDate']);
  });

  it('lists the days of a period, partial days included', () => {
    expect(periodDays({ start: new Date('2025-06-01T12:00:00Z'), end: new Date('2025-06-03T00:00:00Z') })).toEqual([
      '2025-06-01',
      '2025-06-02',
    ]);
    expect(periodDays({ start: new Date('2025-06-01T00:00:00Z'), end: new Date('2025-06-03T00:00:01Z') })).toEqual([
      '2025-06-01',
      '2025-06-02',
      '2025-06-03',
    ]);
  });
});

describe('parseMinAgeHours', () => {
  it('defaults to 24 and takes whole hours', () => {
    expect(parseMinAgeHours({})).toEqual({ ok: true, value: 24 });
    expect(parseMinAgeHours({ minAgeHours: '0' })).toEqual({ ok: true, value: 0 });
    expect(parseMinAgeHours({ minAgeHours: '1.5' }).ok).toBe(false);
    expect(parseMinAgeHours({ minAgeHours: '-1' }).ok).toBe(false);
  });
});

describe('figures', () => {
  it('rounds fractions and percentages, and never divides by zero', () => {
    expect(fraction(1, 3)).toBe(0.3333);
    expect(percentage(1, 3)).toBe(33.33);
    expect(fraction(1, 0)).toBe(0);
  });

  it('formats durations with their two largest units', () => {
    expect([0, 45, 150, 3_600, 3_660, 90_000, 93_784, null].map(formatDuration)).toEqual([
      '0s',
      '45s',
      '2m 30s',
      '1h',
      '1h 1m',
      '1d 1h',
      '1d 2h',
      null,
    ]);
  });

  it('adds a 0-24hr drop-off bucket only when younger inquiries can be dropped', () => {
    expect(dropOffAgeBuckets(24).map((bucket) => bucket.bucket)).toEqual(['24-48hr', '2-7days', '7days+']);
    expect(dropOffAgeBuckets(6).map((bucket) => bucket.bucket)).toEqual(['0-24hr', '24-48hr', '2-7days', '7days+']);
  });
});

describe('parseAnalyticsQuery', () => {
  it('defaults to days and the source, and names bad choices', () => {
    expect(parseAnalyticsQuery({ startDate: '2025-06-01', endDate: '2025-06-30' }, NOW)).toMatchObject({
      ok: true,
      value: { interval: 'day', groupBy: 'source' },
    });
    const parsed = parseAnalyticsQuery({ startDate: 'x', interval: 'year', groupBy: 'colour' }, NOW);
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field)).toEqual(['startDate', 'interval', 'groupBy']);
  });

  it('lists interval starts: days, weeks from Monday, months', () => {
    const period = { start: new Date('2025-06-01T00:00:00Z'), end: new Date('2025-07-03T00:00:00Z') };
    expect(intervalStarts(period, 'day')).toHaveLength(32);
    expect(intervalStarts(period, 'week')).toEqual([
      '2025-05-26',
      '2025-06-02',
      '2025-06-09',
      '2025-06-16',
      '2025-06-23',
      '2025-06-30',
    ]);
    expect(intervalStarts(period, 'month')).toEqual(['2025-06-01', '2025-07-01']);
  });

  it('compares with the previous period of the same length', () => {
    expect(previousPeriod({ start: new Date('2025-06-11T00:00:00Z'), end: new Date('2025-06-21T00:00:00Z') })).toEqual({
      start: new Date('2025-06-01T00:00:00Z'),
      end: new Date('2025-06-11T00:00:00Z'),
    });
    expect([change(15, 10), change(5, 10), change(3, 0)]).toEqual([0.5, -0.5, null]);
  });
});
