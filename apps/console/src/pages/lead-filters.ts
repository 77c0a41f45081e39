import type { LeadStatus } from './lead-statuses';

/** The filters of the leads list, as the list and its export both send them. */
export interface LeadFilters {
  search?: string;
  status?: LeadStatus;
  source?: string;
  vendor_id?: string;
  program?: string;
  start_date?: string;
  end_date?: string;
}

/** The day after a YYYY-MM-DD date, so "until" includes its day (end_date is exclusive). */
export function nextDay(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(next.getTime())) return date;
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}
