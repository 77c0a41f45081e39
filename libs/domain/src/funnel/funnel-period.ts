/**
 * The query parameters of the funnel reports (docs/analytics.md "Funnel"): `startDate` and
 * `endDate` (ISO 8601 dates or date-times; by default the 30 days before today and today, UTC) and,
 * for drop-offs, `minAgeHours` (default 24). Problems are named by parameter, as the funnel
 * convention's `details` are keyed.
 */
import type { ErrorDetail } from '../errors';

export const DEFAULT_FUNNEL_DAYS = 30;
/** The longest period a report covers: two years of days (the daily report lists every day). */
export const MAX_FUNNEL_PERIOD_DAYS = 731;
export const DEFAULT_MIN_AGE_HOURS = 24;
export const MAX_MIN_AGE_HOURS = 8_760;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A date-time with a time zone: `Z` or an offset (a time without one would depend on the server). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The instants a report covers: from `start` (included) to `end` (excluded). */
export interface FunnelPeriod {
  start: Date;
  end: Date;
}

type Query = Record<string, string | string[] | undefined>;

function single(query: Query, name: string, details: ErrorDetail[]): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) {
    details.push({ field: name, message: `${name} must be given once` });
    return undefined;
  }
  return value === undefined || value === '' ? undefined : value;
}

function utcMidnight(year: number, month: number, day: number): Date | null {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

/** A date means its whole UTC day: its start for startDate, the next midnight for endDate. */
function instant(raw: string, edge: 'start' | 'end'): Date | null {
  const day = DATE_ONLY.exec(raw);
  if (day) {
    const midnight = utcMidnight(Number(day[1]), Number(day[2]), Number(day[3]));
    if (!midnight) return null;
    return edge === 'start' ? midnight : new Date(midnight.getTime() + DAY_MS);
  }
  if (!DATE_TIME.test(raw)) return null;
  const parsed = new Date(raw);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}

const startOfDay = (date: Date): Date => new Date(Math.floor(date.getTime() / DAY_MS) * DAY_MS);

export function parseFunnelPeriod(
  query: Query,
  now: Date,
): { ok: true; value: FunnelPeriod } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const rawStart = single(query, 'startDate', details);
  const rawEnd = single(query, 'endDate', details);
  const today = startOfDay(now);
  const end = rawEnd === undefined ? new Date(today.getTime() + DAY_MS) : instant(rawEnd, 'end');
  const start =
    rawStart === undefined ? new Date(today.getTime() - DEFAULT_FUNNEL_DAYS * DAY_MS) : instant(rawStart, 'start');
  if (rawStart !== undefined && !start)
    details.push({
      field: 'startDate',
      message: 'startDate must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
    });
  if (rawEnd !== undefined && !end)
    details.push({
      field: 'endDate',
      message: 'endDate must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone',
    });
  if (details.length > 0 || !start || !end) return { ok: false, details };
  if (start.getTime() >= end.getTime())
    return { ok: false, details: [{ field: 'startDate', message: 'startDate must be before endDate' }] };
  if (end.getTime() - start.getTime() > MAX_FUNNEL_PERIOD_DAYS * DAY_MS) {
    return {
      ok: false,
      details: [{ field: 'endDate', message: `the period must be at most ${MAX_FUNNEL_PERIOD_DAYS} days` }],
    };
  }
  return { ok: true, value: { start, end } };
}

export function parseMinAgeHours(query: Query): { ok: true; value: number } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const raw = single(query, 'minAgeHours', details);
  if (details.length > 0) return { ok: false, details };
  if (raw === undefined) return { ok: true, value: DEFAULT_MIN_AGE_HOURS };
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > MAX_MIN_AGE_HOURS)
    return {
      ok: false,
      details: [
        { field: 'minAgeHours', message: `minAgeHours must be a whole number of hours from 0 to ${MAX_MIN_AGE_HOURS}` },
      ],
    };
  return { ok: true, value };
}

/** The period as the reports show it: the first and the last millisecond covered. */
export function periodView(period: FunnelPeriod): { start: string; end: string } {
  return { start: period.start.toISOString(), end: new Date(period.end.getTime() - 1).toISOString() };
}

/** Every UTC day the period touches, as YYYY-MM-DD, in order. */
export function periodDays(period: FunnelPeriod): string[] {
  const days: string[] = [];
  for (let day = startOfDay(period.start).getTime(); day < period.end.getTime(); day += DAY_MS)
    days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}
