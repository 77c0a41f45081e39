/**
 * The query parameters of the general analytics reports (GET /api/analytics/...; their parameters
 * are ours, docs/analytics.md): the funnel's `startDate`/`endDate`, an `interval` for trends and a
 * `groupBy` for source performance. Problems are named by parameter.
 */
import type { ErrorDetail } from '../errors';
import { parseFunnelPeriod, type FunnelPeriod } from './funnel-period';

export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];

/** What source performance can group by: the lead's attribution fields, or its vendor. */
export const ANALYTICS_GROUPS = ['source', 'utm_source', 'utm_medium', 'utm_campaign', 'program', 'vendor'] as const;
export type AnalyticsGroup = (typeof ANALYTICS_GROUPS)[number];

export interface AnalyticsQuery {
  period: FunnelPeriod;
  interval: AnalyticsInterval;
  groupBy: AnalyticsGroup;
}

type Query = Record<string, string | string[] | undefined>;

function choice<T extends string>(
  query: Query,
  name: string,
  allowed: readonly T[],
  fallback: T,
  details: ErrorDetail[],
): T {
  const value = query[name];
  if (value === undefined || value === '') return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  details.push({ field: name, message: `${name} must be one of ${allowed.join(', ')}` });
  return fallback;
}

export function parseAnalyticsQuery(
  query: Query,
  now: Date,
): { ok: true; value: AnalyticsQuery } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const period = parseFunnelPeriod(query, now);
  if (!period.ok) details.push(...period.details);
  const interval = choice(query, 'interval', ANALYTICS_INTERVALS, 'day', details);
  const groupBy = choice(query, 'groupBy', ANALYTICS_GROUPS, 'source', details);
  if (!period.ok || details.length > 0) return { ok: false, details };
  return { ok: true, value: { period: period.value, interval, groupBy } };
}

/** The period of the same length just before this one (for period-over-period change). */
export function previousPeriod(period: FunnelPeriod): FunnelPeriod {
  const length = period.end.getTime() - period.start.getTime();
  return { start: new Date(period.start.getTime() - length), end: new Date(period.start.getTime()) };
}

/** `(current - previous) / previous` rounded to 4 decimals; null when there was nothing before. */
export function change(current: number, previous: number): number | null {
  return previous > 0 ? Math.round(((current - previous) / previous) * 10_000) / 10_000 : null;
}

const DAY_MS = 86_400_000;

/** The first day (UTC, YYYY-MM-DD) of every interval the period touches: days, weeks from Monday, months. */
export function intervalStarts(period: FunnelPeriod, interval: AnalyticsInterval): string[] {
  const first = new Date(Math.floor(period.start.getTime() / DAY_MS) * DAY_MS);
  if (interval === 'week') first.setUTCDate(first.getUTCDate() - ((first.getUTCDay() + 6) % 7));
  if (interval === 'month') first.setUTCDate(1);
  const starts: string[] = [];
  for (const at = first; at.getTime() < period.end.getTime();) {
    starts.push(at.toISOString().slice(0, 10));
    if (interval === 'day') at.setUTCDate(at.getUTCDate() + 1);
    else if (interval === 'week') at.setUTCDate(at.getUTCDate() + 7);
    else at.setUTCMonth(at.getUTCMonth() + 1);
  }
  return starts;
}
