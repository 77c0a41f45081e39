/** GET /api/vendor-portal/summary/:year/:month: the vendor's leads of one UTC month, with the rejection reasons. */
import type { VendorOutcomeCounts } from '@leadstream/dal';
import { acceptanceRate, type VendorCallerInput, type VendorReportDeps } from './vendor-report-access';

export type GetMonthlyVendorSummaryDeps = VendorReportDeps;

export interface GetMonthlyVendorSummaryInput extends VendorCallerInput {
  year: number;
  /** 1-12. */
  month: number;
}

export interface MonthlyVendorSummary {
  year: number;
  month: number;
  submitted: number;
  accepted: number;
  rejected: number;
  pending: number;
  acceptance_rate: number;
  rejection_breakdown: VendorOutcomeCounts['rejection_breakdown'];
}

export async function getMonthlyVendorSummary(
  deps: GetMonthlyVendorSummaryDeps,
  input: GetMonthlyVendorSummaryInput,
): Promise<MonthlyVendorSummary> {
  const { year, month } = input;
  const counts = await deps.reports.countOutcomes(input.tenant, input.vendorId, {
    from: new Date(Date.UTC(year, month - 1, 1)).toISOString(),
    to: new Date(Date.UTC(year, month, 1)).toISOString(),
  });
  return {
    year,
    month,
    submitted: counts.submitted,
    accepted: counts.accepted,
    rejected: counts.rejected,
    pending: counts.pending,
    acceptance_rate: acceptanceRate(counts),
    rejection_breakdown: counts.rejection_breakdown,
  };
}
