/**
 * The general analytics reports (the bodies are ours, docs/analytics.md):
 * counts come from SQL (AnalyticsQueries, and FunnelQueries for conversions); this module names
 * them, fills empty intervals, and derives rates, changes and costs.
 */
import {
  change,
  fraction,
  intervalStarts,
  periodView,
  previousPeriod,
  type AnalyticsGroup,
  type AnalyticsInterval,
  type FunnelPeriod,
} from '@leadstream/domain';
import type { FunnelQueries } from '../funnel/funnel.queries';
import type { NamedFunnelScope } from '../funnel/funnel.reports';
import type { AnalyticsQueries, OutcomeCounts } from './analytics.queries';

/** The organization's funnel scope with each vendor's type and cost per lead. */
export interface AnalyticsScope extends NamedFunnelScope {
  vendors: ReadonlyArray<{ id: string; name: string; type: string; cost_per_lead: number | null }>;
}

const ZERO: OutcomeCounts = { submitted: 0, accepted: 0, rejected: 0, duplicates: 0, pending: 0 };

/** Counts with the acceptance rate (accepted / submitted). */
const withRate = (counts: OutcomeCounts): OutcomeCounts & { acceptanceRate: number } => ({
  submitted: counts.submitted,
  accepted: counts.accepted,
  rejected: counts.rejected,
  duplicates: counts.duplicates,
  pending: counts.pending,
  acceptanceRate: fraction(counts.accepted, counts.submitted),
});

/** Money rounded to cents. */
const money = (amount: number): number => Math.round(amount * 100) / 100;

export class AnalyticsReports {
  constructor(
    private readonly queries: AnalyticsQueries,
    private readonly funnel: FunnelQueries,
  ) {}

  /** GET /api/analytics: totals, current statuses, rejection reasons and the vendors' counts. */
  async overview(scope: AnalyticsScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const [totals, statuses, reasons, byVendor] = await Promise.all([
      this.queries.totals(scope, period),
      this.queries.byStatus(scope, period),
      this.queries.rejectionReasons(scope, period),
      this.queries.byGroup(scope, period, 'vendor'),
    ]);
    return {
      period: periodView(period),
      totals: withRate(totals),
      byStatus: statuses,
      rejectionReasons: reasons,
      byVendor: byVendor.map((row) => ({
        vendorId: row.value,
        vendorName: row.value === null ? null : (scope.vendorNames.get(row.value) ?? null),
        ...withRate(row),
      })),
    };
  }

  /** This period against the one of the same length before it. */
  async executiveSummary(scope: AnalyticsScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const before = previousPeriod(period);
    const [current, previous, currentFunnel, previousFunnel] = await Promise.all([
      this.queries.totals(scope, period),
      this.queries.totals(scope, before),
      this.funnel.overview(scope, period),
      this.funnel.overview(scope, before),
    ]);
    const summary = (
      counts: OutcomeCounts,
      funnel: { totalInquiries: number; convertedInquiries: number },
    ): Record<string, number> => ({
      submitted: counts.submitted,
      accepted: counts.accepted,
      acceptanceRate: fraction(counts.accepted, counts.submitted),
      inquiries: funnel.totalInquiries,
      conversions: funnel.convertedInquiries,
      conversionRate: fraction(funnel.convertedInquiries, funnel.totalInquiries),
    });
    return {
      period: periodView(period),
      previousPeriod: periodView(before),
      current: summary(current, currentFunnel),
      previous: summary(previous, previousFunnel),
      change: {
        submitted: change(current.submitted, previous.submitted),
        accepted: change(current.accepted, previous.accepted),
        conversions: change(currentFunnel.convertedInquiries, previousFunnel.convertedInquiries),
      },
    };
  }

  /** Counts per source, UTM field, program or vendor. */
  async sourcePerformance(
    scope: AnalyticsScope,
    period: FunnelPeriod,
    groupBy: AnalyticsGroup,
  ): Promise<Record<string, unknown>> {
    const rows = await this.queries.byGroup(scope, period, groupBy);
    return {
      period: periodView(period),
      groupBy,
      rows: rows.map((row) => ({
        value: row.value,
        ...(groupBy === 'vendor'
          ? { label: row.value === null ? null : (scope.vendorNames.get(row.value) ?? null) }
          : {}),
        ...withRate(row),
      })),
    };
  }

  /** From submission to conversion: each stage with its share of the one before and of all submissions. */
  async conversionFunnel(scope: AnalyticsScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const [totals, funnel] = await Promise.all([
      this.queries.totals(scope, period),
      this.funnel.overview(scope, period),
    ]);
    const valid = totals.submitted - totals.rejected;
    const counts: Array<[string, number]> = [
      ['submitted', totals.submitted],
      ['valid', valid],
      ['accepted', totals.accepted],
      ['converted', funnel.convertedInquiries],
    ];
    return {
      period: periodView(period),
      stages: counts.map(([stage, count], index) => ({
        stage,
        count,
        rateFromPrevious: index === 0 ? 1 : fraction(count, counts[index - 1]![1]),
        rateFromSubmitted: fraction(count, totals.submitted),
      })),
    };
  }

  /** Counts per day, week (from Monday) or month, every interval listed. */
  async leadVolumeTrend(
    scope: AnalyticsScope,
    period: FunnelPeriod,
    interval: AnalyticsInterval,
  ): Promise<Record<string, unknown>> {
    const rows = new Map((await this.queries.trend(scope, period, interval)).map((row) => [row.start, row]));
    return {
      period: periodView(period),
      interval,
      points: intervalStarts(period, interval).map((start) => ({ start, ...withRate(rows.get(start) ?? ZERO) })),
    };
  }

  /**
   * What each vendor cost and returned: spend is accepted leads × the vendor's cost per lead
   * (rejected and duplicate leads are not paid for); conversions are the vendor's inquiries that
   * converted (inquiry vendors).
   */
  async vendorRoi(scope: AnalyticsScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const [counts, converted] = await Promise.all([
      this.queries.byGroup(scope, period, 'vendor'),
      this.funnel.convertedByInquiryVendor(scope, period),
    ]);
    const countsOf = new Map(counts.map((row) => [row.value, row]));
    const conversionsOf = new Map(converted.map((row) => [row.vendorId, row.conversions]));
    const vendors = scope.vendors.map((vendor) => {
      const row = countsOf.get(vendor.id) ?? ZERO;
      const conversions = conversionsOf.get(vendor.id) ?? 0;
      const spend = vendor.cost_per_lead === null ? null : money(row.accepted * vendor.cost_per_lead);
      return {
        vendorId: vendor.id,
        vendorName: vendor.name,
        type: vendor.type,
        costPerLead: vendor.cost_per_lead,
        submitted: row.submitted,
        accepted: row.accepted,
        conversions,
        spend,
        costPerSubmission: spend === null || row.submitted === 0 ? null : money(spend / row.submitted),
        costPerConversion: spend === null || conversions === 0 ? null : money(spend / conversions),
      };
    });
    vendors.sort((a, b) => (b.spend ?? -1) - (a.spend ?? -1) || a.vendorName.localeCompare(b.vendorName));
    const priced = vendors.filter((vendor) => vendor.spend !== null);
    const spend = money(priced.reduce((sum, vendor) => sum + (vendor.spend ?? 0), 0));
    const conversions = priced.reduce((sum, vendor) => sum + vendor.conversions, 0);
    return {
      period: periodView(period),
      vendors,
      totals: {
        spend,
        accepted: priced.reduce((sum, vendor) => sum + vendor.accepted, 0),
        conversions,
        costPerConversion: conversions === 0 ? null : money(spend / conversions),
      },
    };
  }
}
