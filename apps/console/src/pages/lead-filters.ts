import type { paths } from '@leadstream/client';

/** The filters of the leads list, as the list and its export both send them (the export body's type). */
export type LeadFilters = NonNullable<
  paths['/api/leads/export']['post']['requestBody']['content']['application/json']['filters']
>;

/** The day after a YYYY-MM-DD date, so "until" includes its day (end_date is exclusive). */
export function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(next.getTime())) return date;
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
