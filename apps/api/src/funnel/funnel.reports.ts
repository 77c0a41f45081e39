/**
 * The five funnel reports (docs/analytics.md "Funnel") as their `data` bodies: the numbers come
 * from SQL (FunnelQueries); this module names them, fills the buckets, days and vendor pairs that
 * had none, and formats rates and durations.
 */
import {
  dropOffAgeBuckets,
  formatDuration,
  fraction,
  percentage,
  periodDays,
  periodView,
  TIME_TO_CONVERT_BUCKETS,
  type FunnelPeriod,
} from '@leadstream/domain';
import type { FunnelQueries, FunnelScope } from './funnel.queries';

/** A funnel scope with the vendors' names, for the reports that show them. */
export interface NamedFunnelScope extends FunnelScope {
  vendorNames: ReadonlyMap<string, string>;
}

const seconds = (value: number | null): number | null => (value === null ? null : Math.round(value));

export class FunnelReports {
  constructor(private readonly queries: FunnelQueries) {}

  async overview(scope: NamedFunnelScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const row = await this.queries.overview(scope, period);
    const average = seconds(row.averageSeconds);
    return {
      period: periodView(period),
      totalInquiries: row.totalInquiries,
      totalApplications: row.totalApplications,
      matchedApplications: row.matchedApplications,
      conversionRate: fraction(row.convertedInquiries, row.totalInquiries),
      averageTimeToConvertSeconds: average,
      averageTimeToConvertFormatted: formatDuration(average),
    };
  }

  async timeToConvert(scope: NamedFunnelScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const row = await this.queries.timeToConvert(scope, period, TIME_TO_CONVERT_BUCKETS);
    const median = seconds(row.medianSeconds);
    return {
      period: periodView(period),
      distribution: TIME_TO_CONVERT_BUCKETS.map((bucket, index) => ({
        bucket: bucket.bucket,
        count: row.counts[index] ?? 0,
        percentage: percentage(row.counts[index] ?? 0, row.totalConversions),
      })),
      totalConversions: row.totalConversions,
      medianTimeToConvertSeconds: median,
      medianTimeToConvertFormatted: formatDuration(median),
    };
  }

  async dropOffs(
    scope: NamedFunnelScope,
    period: FunnelPeriod,
    minAgeHours: number,
    now: Date,
  ): Promise<Record<string, unknown>> {
    const buckets = dropOffAgeBuckets(minAgeHours);
    const rows = new Map(
      (await this.queries.dropOffs(scope, period, minAgeHours, now, buckets)).map((row) => [row.inquiryVendorId, row]),
    );
    const linkedInquiryVendors = [...new Set(scope.links.map((link) => link.inquiryVendorId))];
    const byVendor = linkedInquiryVendors
      .map((vendorId) => {
        const row = rows.get(vendorId);
        const dropped = row?.dropped ?? 0;
        const total = row?.totalInquiries ?? 0;
        return {
          vendorId,
          vendorName: scope.vendorNames.get(vendorId) ?? null,
          droppedCount: dropped,
          totalInquiries: total,
          dropOffRate: fraction(dropped, total),
        };
      })
      .sort((a, b) => b.droppedCount - a.droppedCount || String(a.vendorName).localeCompare(String(b.vendorName)));
    const dropped = byVendor.reduce((sum, vendor) => sum + vendor.droppedCount, 0);
    const total = byVendor.reduce((sum, vendor) => sum + vendor.totalInquiries, 0);
    return {
      period: periodView(period),
      totalDroppedInquiries: dropped,
      dropOffRate: fraction(dropped, total),
      byVendor,
      byAge: buckets.map((bucket, index) => ({
        bucket: bucket.bucket,
        count: [...rows.values()].reduce((sum, row) => sum + (row.byAge[index] ?? 0), 0),
      })),
    };
  }

  async byVendor(scope: NamedFunnelScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const [pairs, inquiries] = await Promise.all([
      this.queries.byVendorPair(scope, period),
      this.queries.inquiriesByVendor(scope, period),
    ]);
    const inquiryCount = new Map(inquiries.map((row) => [row.vendorId, row.inquiries]));
    const vendorPairs = scope.links
      .map((link) => {
        const pair = pairs.find(
          (row) => row.inquiryVendorId === link.inquiryVendorId && row.applicationVendorId === link.applicationVendorId,
        );
        const count = inquiryCount.get(link.inquiryVendorId) ?? 0;
        const average = seconds(pair?.averageSeconds ?? null);
        return {
          inquiryVendorId: link.inquiryVendorId,
          inquiryVendorName: scope.vendorNames.get(link.inquiryVendorId) ?? null,
          applicationVendorId: link.applicationVendorId,
          applicationVendorName: scope.vendorNames.get(link.applicationVendorId) ?? null,
          inquiries: count,
          conversions: pair?.conversions ?? 0,
          conversionRate: fraction(pair?.conversions ?? 0, count),
          averageTimeToConvertSeconds: average,
          averageTimeToConvertFormatted: formatDuration(average),
        };
      })
      .sort(
        (a, b) =>
          b.conversions - a.conversions ||
          String(a.inquiryVendorName).localeCompare(String(b.inquiryVendorName)) ||
          String(a.applicationVendorName).localeCompare(String(b.applicationVendorName)),
      );
    return { period: periodView(period), vendorPairs };
  }

  async daily(scope: NamedFunnelScope, period: FunnelPeriod): Promise<Record<string, unknown>> {
    const rows = new Map((await this.queries.daily(scope, period)).map((row) => [row.date, row]));
    return {
      period: periodView(period),
      daily: periodDays(period).map((date) => {
        const row = rows.get(date);
        const inquiries = row?.inquiries ?? 0;
        const conversions = row?.conversions ?? 0;
        return {
          date,
          inquiries,
          applications: row?.applications ?? 0,
          conversions,
          conversionRate: fraction(conversions, inquiries),
        };
      }),
    };
  }
}
