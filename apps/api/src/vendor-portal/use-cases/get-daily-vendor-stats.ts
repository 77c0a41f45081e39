/** GET /api/vendor-portal/daily-stats: the vendor's leads of one UTC day (today by default). */
import {
  acceptanceRate,
  DAY_MS,
  isoDate,
  parseUtcDate,
  type VendorCallerInput,
  type VendorReportDeps,
} from './vendor-report-access';

export interface GetDailyVendorStatsDeps extends VendorReportDeps {
  clock: () => Date;
}

export interface GetDailyVendorStatsInput extends VendorCallerInput {
  /** The UTC midnight of the day; undefined for today. */
  day: Date | undefined;
}

export interface DailyVendorStats {
  date: string;
  submitted: number;
  accepted: number;
  rejected: number;
  pending: number;
  acceptance_rate: number;
}

export async function getDailyVendorStats(
  deps: GetDailyVendorStatsDeps,
  input: GetDailyVendorStatsInput,
): Promise<DailyVendorStats> {
  const day = input.day ?? parseUtcDate(isoDate(deps.clock()));
  if (!day) throw new Error('clock gave an invalid date');
  const counts = await deps.reports.countOutcomes(input.tenant, input.vendorId, {
    from: day.toISOString(),
    to: new Date(day.getTime() + DAY_MS).toISOString(),
  });
  return {
    date: isoDate(day),
    submitted: counts.submitted,
    accepted: counts.accepted,
    rejected: counts.rejected,
    pending: counts.pending,
    acceptance_rate: acceptanceRate(counts),
  };
}
