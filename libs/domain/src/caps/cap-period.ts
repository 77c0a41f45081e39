/**
 * The counting periods of volume caps (docs/caps.md), in the cap's IANA time zone:
 * - hour: wall-clock hours of the zone (a half-hour zone's hours start at :30 UTC); `duration`
 *   hours are counted from local midnight of the day, so a 6-hour cap resets at 00:00, 06:00,
 *   12:00 and 18:00 local time;
 * - day: from local midnight to the next local midnight (23 or 25 hours on a DST change);
 * - week: Monday 00:00 to the end of Sunday, local time;
 * - month: from the first of the month 00:00 to the end of its last day, local time.
 * With `duration` > 1 days, weeks and months are counted in blocks from 1970-01-01 (days),
 * Monday 1970-01-05 (weeks) and January 1970 (months), so a period never depends on when the cap
 * was made. A local midnight that does not exist (a DST change at midnight) starts the period at
 * the first instant after the gap; a repeated hour (clocks set back) belongs to the earlier hour.
 * Pure functions of the instant and the zone: no clock is read here.
 */

export const CAP_DURATION_UNITS = ['hour', 'day', 'week', 'month'] as const;
export type CapDurationUnit = (typeof CAP_DURATION_UNITS)[number];

export interface CapPeriod {
  /** First instant of the period (ISO 8601, UTC). */
  start: string;
  /** First instant of the next period (exclusive end). */
  end: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** Whether `zone` is a time zone this runtime knows (IANA names, and UTC). */
export function isValidTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.length === 0 || zone.length > 64) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instant`, in milliseconds (local = UTC + offset). */
export function zoneOffsetMs(instant: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const local = Date.UTC(
    parts['year'] ?? 1970,
    (parts['month'] ?? 1) - 1,
    parts['day'] ?? 1,
    parts['hour'] ?? 0,
    parts['minute'] ?? 0,
    parts['second'] ?? 0,
  );
  const wholeSeconds = instant - (((instant % 1000) + 1000) % 1000);
  return local - wholeSeconds;
}

/** The local wall time of `instant` as if it were UTC (milliseconds). */
function wallOf(instant: number, zone: string): number {
  return instant + zoneOffsetMs(instant, zone);
}

/**
 * The instant of a local wall time (given as if UTC): the earlier one when the wall time happens
 * twice, the end of the gap when it never happens.
 */
export function instantOfWall(wall: number, zone: string): number {
  const offsets = new Set([
    zoneOffsetMs(wall - DAY_MS, zone),
    zoneOffsetMs(wall, zone),
    zoneOffsetMs(wall + DAY_MS, zone),
  ]);
  const valid = [...offsets].map((offset) => wall - offset).filter((instant) => wallOf(instant, zone) === wall);
  if (valid.length > 0) return Math.min(...valid);
  // In a gap (clocks set forward): the first instant after it, where the offset before it ends.
  return wall - zoneOffsetMs(wall - DAY_MS, zone);
}

function floorTo(value: number, size: number): number {
  return Math.floor(value / size) * size;
}

/** The period of a cap of `duration` `unit`s in `zone` that holds `at`. */
export function capPeriodAt(at: Date, duration: number, unit: CapDurationUnit, zone: string): CapPeriod {
  const instant = at.getTime();
  const wall = wallOf(instant, zone);
  const day = Math.floor(wall / DAY_MS);
  let startWall: number;
  let endWall: number;
  switch (unit) {
    case 'hour': {
      const hour = Math.floor((wall - day * DAY_MS) / HOUR_MS);
      const first = floorTo(hour, duration);
      startWall = day * DAY_MS + first * HOUR_MS;
      endWall = day * DAY_MS + Math.min(first + duration, 24) * HOUR_MS;
      if (duration === 1) {
        // Every period is an hour of real time: clocks set back make the repeated wall hour two periods.
        let start = instantOfWall(startWall, zone);
        if (instant >= start + HOUR_MS) start += HOUR_MS;
        return { start: iso(start), end: iso(start + HOUR_MS) };
      }
      break;
    }
    case 'day': {
      const first = floorTo(day, duration);
      startWall = first * DAY_MS;
      endWall = (first + duration) * DAY_MS;
      break;
    }
    case 'week': {
      // 1970-01-05 (day 4) was a Monday.
      const week = Math.floor((day - 4) / 7);
      const first = floorTo(week, duration);
      startWall = (4 + first * 7) * DAY_MS;
      endWall = (4 + (first + duration) * 7) * DAY_MS;
      break;
    }
    case 'month': {
      const date = new Date(wall);
      const month = date.getUTCFullYear() * 12 + date.getUTCMonth() - 1970 * 12;
      const first = floorTo(month, duration);
      startWall = Date.UTC(1970, first, 1);
      endWall = Date.UTC(1970, first + duration, 1);
      break;
    }
  }
  return { start: iso(instantOfWall(startWall, zone)), end: iso(instantOfWall(endWall, zone)) };
}

function iso(instant: number): string {
  return new Date(instant).toISOString();
}
