import { describe, expect, it } from 'vitest';
import { capPeriodAt, instantOfWall, isValidTimeZone } from './cap-period';
import { capCheckOrder, parseCapCreate, parseCapPatch } from './cap';

const at = (iso: string): Date => new Date(iso);

describe('capPeriodAt', () => {
  it('a day cap runs from local midnight to the next local midnight', () => {
    expect(capPeriodAt(at('2026-11-27T04:59:59.999Z'), 1, 'day', 'America/New_York')).toEqual({
      start: '2026-11-26T05:00:00.000Z',
      end: '2026-11-27T05:00:00.000Z',
    });
    expect(capPeriodAt(at('2026-11-27T05:00:00.000Z'), 1, 'day', 'America/New_York')).toEqual({
      start: '2026-11-27T05:00:00.000Z',
      end: '2026-11-28T05:00:00.000Z',
    });
  });

  it('the day clocks go forward is 23 hours long, the day they go back 25 (America/New_York)', () => {
    expect(capPeriodAt(at('2026-03-08T12:00:00Z'), 1, 'day', 'America/New_York')).toEqual({
      start: '2026-03-08T05:00:00.000Z',
      end: '2026-03-09T04:00:00.000Z',
    });
    expect(capPeriodAt(at('2026-11-01T12:00:00Z'), 1, 'day', 'America/New_York')).toEqual({
      start: '2026-11-01T04:00:00.000Z',
      end: '2026-11-02T05:00:00.000Z',
    });
  });

  it('a midnight that does not exist starts the day at the end of the gap (America/Santiago, 2026-09-06)', () => {
    // Chile sets its clocks from 00:00 to 01:00 on the first Sunday of September.
    const period = capPeriodAt(at('2026-09-06T12:00:00Z'), 1, 'day', 'America/Santiago');
    expect(period).toEqual({ start: '2026-09-06T04:00:00.000Z', end: '2026-09-07T03:00:00.000Z' });
  });

  it('an hour cap: the repeated hour when clocks go back is two periods of one hour each', () => {
    // 2026-11-01 01:00-02:00 happens twice in New York: 05:00-06:00Z (EDT) and 06:00-07:00Z (EST).
    expect(capPeriodAt(at('2026-11-01T05:30:00Z'), 1, 'hour', 'America/New_York')).toEqual({
      start: '2026-11-01T05:00:00.000Z',
      end: '2026-11-01T06:00:00.000Z',
    });
    expect(capPeriodAt(at('2026-11-01T06:30:00Z'), 1, 'hour', 'America/New_York')).toEqual({
      start: '2026-11-01T06:00:00.000Z',
      end: '2026-11-01T07:00:00.000Z',
    });
    // Clocks forward 2026-03-08 02:00 -> 03:00: 01:00 EST is 06:00Z, 03:00 EDT is 07:00Z.
    expect(capPeriodAt(at('2026-03-08T06:59:00Z'), 1, 'hour', 'America/New_York').end).toBe('2026-03-08T07:00:00.000Z');
    expect(capPeriodAt(at('2026-03-08T07:00:00Z'), 1, 'hour', 'America/New_York').start).toBe(
      '2026-03-08T07:00:00.000Z',
    );
  });

  it('hours of a half-hour zone start at :30 UTC; a 6-hour cap resets at 00, 06, 12, 18 local', () => {
    expect(capPeriodAt(at('2026-11-27T10:45:00Z'), 1, 'hour', 'Asia/Kolkata')).toEqual({
      start: '2026-11-27T10:30:00.000Z',
      end: '2026-11-27T11:30:00.000Z',
    });
    expect(capPeriodAt(at('2026-11-27T10:45:00Z'), 6, 'hour', 'Asia/Kolkata')).toEqual({
      start: '2026-11-27T06:30:00.000Z',
      end: '2026-11-27T12:30:00.000Z',
    });
  });

  it('a week cap runs Monday 00:00 to the end of Sunday, local time, across a DST change', () => {
    // Sunday 2026-11-01 23:59 in New York is still the week of Monday 2026-10-26 (EDT).
    expect(capPeriodAt(at('2026-11-02T04:59:00Z'), 1, 'week', 'America/New_York')).toEqual({
      start: '2026-10-26T04:00:00.000Z',
      end: '2026-11-02T05:00:00.000Z',
    });
    expect(capPeriodAt(at('2026-11-02T05:00:00Z'), 1, 'week', 'America/New_York').start).toBe(
      '2026-11-02T05:00:00.000Z',
    );
  });

  it('a month cap ends at the end of the month in its zone (Europe/Berlin, March with the DST change)', () => {
    expect(capPeriodAt(at('2026-03-15T00:00:00Z'), 1, 'month', 'Europe/Berlin')).toEqual({
      start: '2026-02-28T23:00:00.000Z',
      end: '2026-03-31T22:00:00.000Z',
    });
    // 2026-03-31T22:30Z is 00:30 on April 1st in Berlin.
    expect(capPeriodAt(at('2026-03-31T22:30:00Z'), 1, 'month', 'Europe/Berlin').start).toBe('2026-03-31T22:00:00.000Z');
  });

  it('durations above 1 count blocks from the epoch, independent of when the cap was made', () => {
    expect(capPeriodAt(at('2026-11-27T12:00:00Z'), 3, 'month', 'UTC')).toEqual({
      start: '2026-10-01T00:00:00.000Z',
      end: '2027-01-01T00:00:00.000Z',
    });
    const twoDays = capPeriodAt(at('2026-11-27T12:00:00Z'), 2, 'day', 'UTC');
    expect(Date.parse(twoDays.end) - Date.parse(twoDays.start)).toBe(2 * 86_400_000);
    expect(Date.parse(twoDays.start) % (2 * 86_400_000)).toBe(0);
  });

  it('instantOfWall takes the earlier instant of a repeated wall time', () => {
    expect(new Date(instantOfWall(Date.UTC(2026, 10, 1, 1, 30), 'America/New_York')).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
  });
});

describe('parseCapCreate / parseCapPatch', () => {
  it('fills the defaults: day, 1, the given zone, reason cap_reached, enabled, no conditions', () => {
    expect(parseCapCreate({ name: ' Daily ', maximum: 50 }, 'Europe/Berlin')).toEqual({
      ok: true,
      value: {
        name: 'Daily',
        scope: 'organization',
        vendor_id: null,
        maximum: 50,
        duration: 1,
        duration_units: 'day',
        time_zone: 'Europe/Berlin',
        conditions: null,
        reason: 'cap_reached',
        enabled: true,
      },
    });
  });

  it('names every problem at once', () => {
    const parsed = parseCapCreate(
      { name: '', maximum: -1, duration: 0, duration_units: 'year', time_zone: 'Mars/Olympus', reason: 'Full!', x: 1 },
      'UTC',
    );
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field).sort()).toEqual([
      'duration',
      'duration_units',
      'maximum',
      'name',
      'reason',
      'time_zone',
      'x',
    ]);
  });

  it('a vendor cap needs a vendor; an organization cap has none', () => {
    const vendorless = parseCapCreate({ name: 'v', maximum: 1, scope: 'vendor' }, 'UTC');
    expect(vendorless.ok ? [] : vendorless.details).toEqual([
      { field: 'vendor_id', message: 'vendor_id is required when scope is vendor' },
    ]);
    const created = parseCapCreate({ name: 'v', maximum: 1, scope: 'vendor', vendor_id: 'ven_1' }, 'UTC');
    expect(created.ok && created.value.vendor_id).toBe('ven_1');
    const patched = created.ok ? parseCapPatch({ maximum: 7 }, created.value) : undefined;
    expect(patched?.ok && patched.value.maximum).toBe(7);
  });

  it('knows IANA zones', () => {
    expect(isValidTimeZone('America/Los_Angeles')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Nowhere/City')).toBe(false);
  });
});

describe('capCheckOrder', () => {
  it('organization caps first, then vendor caps, each lowest maximum first', () => {
    const caps = [
      { id: 'cap_v10', scope: 'vendor' as const, maximum: 10, created_at: '2026-01-01' },
      { id: 'cap_o100', scope: 'organization' as const, maximum: 100, created_at: '2026-01-01' },
      { id: 'cap_v5', scope: 'vendor' as const, maximum: 5, created_at: '2026-01-01' },
      { id: 'cap_o50', scope: 'organization' as const, maximum: 50, created_at: '2026-01-01' },
    ];
    expect(capCheckOrder(caps).map((cap) => cap.id)).toEqual(['cap_o50', 'cap_o100', 'cap_v5', 'cap_v10']);
  });
});
