/** GET /api/analytics/funnel/<report>: one of the five funnel reports over the caller's scope. */
import { parseFunnelPeriod, parseMinAgeHours, type FunnelPeriod } from '@leadstream/domain';
import type { FunnelReports } from '../funnel.reports';
import { invalidFunnelRequest, scopeOfCaller, type FunnelCallerInput, type FunnelScopeDeps } from './funnel-access';

export const FUNNEL_REPORTS = ['overview', 'time-to-convert', 'drop-offs', 'by-vendor', 'daily'] as const;
export type FunnelReportName = (typeof FUNNEL_REPORTS)[number];

export interface FunnelReportQuery {
  period: FunnelPeriod;
  minAgeHours: number;
}

/** The report's period (and, for drop-offs, minAgeHours): every problem of the query at once. */
export function parseFunnelReportQuery(
  query: Record<string, string | string[] | undefined>,
  report: FunnelReportName,
  now: Date,
): FunnelReportQuery {
  const period = parseFunnelPeriod(query, now);
  const minAge = report === 'drop-offs' ? parseMinAgeHours(query) : ({ ok: true, value: 0 } as const);
  const details = [...(period.ok ? [] : period.details), ...(minAge.ok ? [] : minAge.details)];
  if (!period.ok || !minAge.ok) throw invalidFunnelRequest('Invalid query parameters', details);
  return { period: period.value, minAgeHours: minAge.value };
}

export interface GetFunnelReportDeps extends FunnelScopeDeps {
  reports: FunnelReports;
  clock: () => Date;
}

export interface GetFunnelReportInput extends FunnelCallerInput {
  report: FunnelReportName;
  query: FunnelReportQuery;
}

export async function getFunnelReport(
  deps: GetFunnelReportDeps,
  input: GetFunnelReportInput,
): Promise<Record<string, unknown>> {
  const scope = await scopeOfCaller(deps, input);
  const { period, minAgeHours } = input.query;
  switch (input.report) {
    case 'overview':
      return deps.reports.overview(scope, period);
    case 'time-to-convert':
      return deps.reports.timeToConvert(scope, period);
    case 'drop-offs':
      return deps.reports.dropOffs(scope, period, minAgeHours, deps.clock());
    case 'by-vendor':
      return deps.reports.byVendor(scope, period);
    case 'daily':
      return deps.reports.daily(scope, period);
  }
}
