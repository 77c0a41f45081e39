/**
 * The funnel's numbers, all counted by SQL over the analytics projection: the `lead.created` rows
 * of `lead_events` (one per submission that passed validation, duplicates included), with the
 * vendor, the time and the normalized email (`email_key`). docs/analytics.md says the same in words.
 *
 * The funnel counts **people and first events**:
 * - An **inquiry** is a person's first submission in the period from an inquiry vendor of the scope;
 *   a later inquiry of the same person (same `email_key`), through any inquiry vendor, is not a
 *   second inquiry. An **application** is likewise a person's first submission from an application
 *   vendor. Submissions rejected by validation or a rule do not count.
 * - An inquiry **converts** when a link joins its vendor to the vendor of the same person's
 *   application, sent no earlier than the inquiry and at most the link's window after it. One person
 *   has one inquiry and one application in a period, so each application converts at most one
 *   inquiry and conversions never exceed applications.
 * - A conversion belongs to the period of its inquiry: inquiries are those of the period, their
 *   applications may come up to the longest window after its end.
 *
 * `FINAL` collapses events the projector received twice (ReplacingMergeTree by event id).
 */
import type { FunnelPeriod } from '@leadstream/domain';
import type { Analytics, QueryParams } from '@leadstream/ports';

/** Whose funnel: a tenant, its vendors by type, and the links that may convert between them. */
export interface FunnelScope {
  organizationId: string;
  environment: string;
  inquiryVendorIds: string[];
  applicationVendorIds: string[];
  links: Array<{ inquiryVendorId: string; applicationVendorId: string; timeWindowHours: number }>;
}

const HOUR_MS = 3_600_000;

function parameters(scope: FunnelScope, period: FunnelPeriod): QueryParams {
  const longestWindowMs = Math.max(0, ...scope.links.map((link) => link.timeWindowHours)) * HOUR_MS;
  return {
    organizationId: scope.organizationId,
    environment: scope.environment,
    inquiryVendors: scope.inquiryVendorIds,
    applicationVendors: scope.applicationVendorIds,
    linkInquiry: scope.links.map((link) => link.inquiryVendorId),
    linkApplication: scope.links.map((link) => link.applicationVendorId),
    linkWindowSeconds: scope.links.map((link) => link.timeWindowHours * 3_600),
    start: period.start,
    end: period.end,
    applicationsUntil: new Date(period.end.getTime() + longestWindowMs),
  };
}

/**
 * Sent with every funnel statement. A redelivered event lands in the partition of its first
 * delivery (same `occurred_at`), so FINAL need not merge across partitions.
 */
export const FINAL_SETTINGS = 'SETTINGS do_not_merge_across_partitions_select_final = 1';

const TENANT = `organization_id = {organizationId:String} AND environment = {environment:String}`;

/**
 * Submissions of the tenant from the given vendors between two instants, but those rejected by
 * validation or a rule (`lead.rejected`: invalid, disposable, bot, a rule's reject action).
 * Duplicates stay: a person's application is a duplicate of their inquiry.
 */
const submissions = (vendors: string, until: string): string => `
  SELECT lead_id, vendor_id, email_key, occurred_at AS submitted_at
  FROM lead_events FINAL
  WHERE ${TENANT} AND event = 'lead.created'
    AND occurred_at >= {start:DateTime64(3, 'UTC')} AND occurred_at < {${until}:DateTime64(3, 'UTC')}
    AND vendor_id IN {${vendors}:Array(String)}
    AND lead_id NOT IN (SELECT lead_id FROM lead_events WHERE ${TENANT} AND event = 'lead.rejected' AND occurred_at >= {start:DateTime64(3, 'UTC')})`;

/**
 * Each person's first submission of a set (`email_key` is the normalized email; a submission without
 * one is its own person). Ties in time go to the smaller lead id, so every engine picks the same row.
 */
const firstPerPerson = (source: string): string => `
  SELECT lead_id, vendor_id, email_key, submitted_at FROM (${source}) WHERE email_key = ''
  UNION ALL
  SELECT argMin(l, (t, l)) AS lead_id, argMin(v, (t, l)) AS vendor_id, k AS email_key, min(t) AS submitted_at
  FROM (SELECT lead_id AS l, vendor_id AS v, email_key AS k, submitted_at AS t FROM (${source})) WHERE k != '' GROUP BY k`;

/**
 * The common table expressions every report starts from: `inquiries` and `applications` of the
 * period (first per person), `links`, `matches` (a person's inquiry and application a link joins
 * within its window) and `conversions` (one row per converted inquiry and application vendor).
 */
const FUNNEL_CTES = `
WITH
  inquiries AS (${firstPerPerson(submissions('inquiryVendors', 'end'))}),
  applications AS (${firstPerPerson(submissions('applicationVendors', 'applicationsUntil'))}),
  links AS (
    SELECT tupleElement(link, 1) AS inquiry_vendor_id, tupleElement(link, 2) AS application_vendor_id, tupleElement(link, 3) AS window_seconds
    FROM (SELECT arrayJoin(arrayZip({linkInquiry:Array(String)}, {linkApplication:Array(String)}, {linkWindowSeconds:Array(UInt32)})) AS link)
  ),
  matches AS (
    SELECT i.lead_id AS inquiry_id, i.vendor_id AS inquiry_vendor_id, i.submitted_at AS inquiry_at,
      a.lead_id AS application_id, a.vendor_id AS application_vendor_id,
      dateDiff('millisecond', i.submitted_at, a.submitted_at) / 1000 AS seconds, l.window_seconds AS window_seconds
    FROM inquiries AS i
    INNER JOIN links AS l ON l.inquiry_vendor_id = i.vendor_id
    INNER JOIN applications AS a ON a.email_key = i.email_key AND a.vendor_id = l.application_vendor_id
    WHERE i.email_key != '' AND a.submitted_at >= i.submitted_at AND seconds <= window_seconds
  ),
  conversions AS (
    SELECT inquiry_id, inquiry_vendor_id, application_vendor_id, any(inquiry_at) AS inquiry_at, min(seconds) AS seconds
    FROM matches GROUP BY inquiry_id, inquiry_vendor_id, application_vendor_id
  ),
  converted AS (
    SELECT inquiry_id, any(inquiry_vendor_id) AS inquiry_vendor_id, any(inquiry_at) AS inquiry_at, min(seconds) AS seconds
    FROM conversions GROUP BY inquiry_id
  )`;

export interface OverviewRow {
  totalInquiries: number;
  totalApplications: number;
  matchedApplications: number;
  convertedInquiries: number;
  averageSeconds: number | null;
}

export interface TimeToConvertRow {
  totalConversions: number;
  medianSeconds: number | null;
  /** Conversions per bucket, in the order of the bucket bounds given. */
  counts: number[];
}

export interface DropOffRow {
  inquiryVendorId: string;
  totalInquiries: number;
  dropped: number;
  /** Dropped inquiries per age bucket, in the order of the bucket bounds given. */
  byAge: number[];
}

export interface VendorPairRow {
  inquiryVendorId: string;
  applicationVendorId: string;
  conversions: number;
  averageSeconds: number | null;
}

export interface DailyRow {
  date: string;
  inquiries: number;
  applications: number;
  conversions: number;
}

type Bounds = ReadonlyArray<{ from: number; to: number | null }>;

/** `multiIf` choosing the index (0-based) of the bucket a number of seconds falls in. */
function bucketIndex(expression: string, bounds: Bounds): string {
  const arms = bounds.flatMap((bound, index) =>
    bound.to === null ? [] : [`${expression} < ${bound.to}`, String(index)],
  );
  return `multiIf(${[...arms, String(bounds.length - 1)].join(', ')})`;
}

/** An array of counts, one per bucket, of the rows meeting `condition` (bounds are our constants, not input). */
function bucketCounts(expression: string, bounds: Bounds, condition = '1'): string {
  const index = bucketIndex(expression, bounds);
  return `[${bounds.map((_, bucket) => `countIf(${condition} AND ${index} = ${bucket})`).join(', ')}]`;
}

export class FunnelQueries {
  constructor(private readonly analytics: Analytics) {}

  async overview(scope: FunnelScope, period: FunnelPeriod): Promise<OverviewRow> {
    // The join (matches) runs once, and the totals come from one scan: ClickHouse inlines a CTE
    // wherever it is named.
    const [row] = await this.analytics.query<OverviewRow>(
      `${FUNNEL_CTES}
      SELECT t.totalInquiries AS totalInquiries, ta.totalApplications AS totalApplications,
        m.matchedApplications AS matchedApplications, m.convertedInquiries AS convertedInquiries, m.averageSeconds AS averageSeconds
      FROM (SELECT count() AS totalInquiries FROM inquiries) AS t
      CROSS JOIN (SELECT count() AS totalApplications FROM applications WHERE submitted_at < {end:DateTime64(3, 'UTC')}) AS ta
      CROSS JOIN (
        SELECT length(groupUniqArrayArray(applications)) AS matchedApplications, count() AS convertedInquiries, if(count() = 0, NULL, avg(first)) AS averageSeconds
        FROM (SELECT inquiry_id, min(seconds) AS first, groupUniqArray(application_id) AS applications FROM matches GROUP BY inquiry_id)
      ) AS m ${FINAL_SETTINGS}`,
      parameters(scope, period),
    );
    return row!;
  }

  async timeToConvert(scope: FunnelScope, period: FunnelPeriod, bounds: Bounds): Promise<TimeToConvertRow> {
    const [row] = await this.analytics.query<{
      totalConversions: number;
      medianSeconds: number | null;
      counts: number[];
    }>(
      `${FUNNEL_CTES}
      SELECT count() AS totalConversions,
        if(count() = 0, NULL, quantileExactInclusive(0.5)(seconds)) AS medianSeconds,
        ${bucketCounts('seconds', bounds)} AS counts
      FROM converted ${FINAL_SETTINGS}`,
      parameters(scope, period),
    );
    return row!;
  }

  /** Per inquiry vendor that has a link: its inquiries at least `minAgeHours` old at `now`, and those that did not convert. */
  async dropOffs(
    scope: FunnelScope,
    period: FunnelPeriod,
    minAgeHours: number,
    now: Date,
    bounds: Bounds,
  ): Promise<DropOffRow[]> {
    const age = `dateDiff('millisecond', i.submitted_at, {now:DateTime64(3, 'UTC')}) / 1000`;
    return this.analytics.query<DropOffRow>(
      `${FUNNEL_CTES}
      SELECT i.vendor_id AS inquiryVendorId, count() AS totalInquiries,
        countIf(c.inquiry_id = '') AS dropped,
        ${bucketCounts(age, bounds, "c.inquiry_id = ''")} AS byAge
      FROM inquiries AS i
      LEFT JOIN converted AS c ON c.inquiry_id = i.lead_id
      WHERE i.vendor_id IN (SELECT inquiry_vendor_id FROM links) AND ${age} >= {minAgeSeconds:UInt32}
      GROUP BY i.vendor_id ${FINAL_SETTINGS}`,
      { ...parameters(scope, period), now, minAgeSeconds: minAgeHours * 3_600 },
    );
  }

  /** Conversions per linked pair; pairs without any are absent. */
  async byVendorPair(scope: FunnelScope, period: FunnelPeriod): Promise<VendorPairRow[]> {
    return this.analytics.query<VendorPairRow>(
      `${FUNNEL_CTES}
      SELECT inquiry_vendor_id AS inquiryVendorId, application_vendor_id AS applicationVendorId, count() AS conversions, avg(seconds) AS averageSeconds
      FROM conversions GROUP BY inquiry_vendor_id, application_vendor_id ${FINAL_SETTINGS}`,
      parameters(scope, period),
    );
  }

  /** Inquiries per inquiry vendor in the period (the by-vendor report's denominators). */
  async inquiriesByVendor(
    scope: FunnelScope,
    period: FunnelPeriod,
  ): Promise<Array<{ vendorId: string; inquiries: number }>> {
    return this.analytics.query(
      `${FUNNEL_CTES} SELECT vendor_id AS vendorId, count() AS inquiries FROM inquiries GROUP BY vendor_id ${FINAL_SETTINGS}`,
      parameters(scope, period),
    );
  }

  /** Converted inquiries per inquiry vendor (vendor ROI, executive summary). */
  async convertedByInquiryVendor(
    scope: FunnelScope,
    period: FunnelPeriod,
  ): Promise<Array<{ vendorId: string; conversions: number }>> {
    return this.analytics.query(
      `${FUNNEL_CTES} SELECT inquiry_vendor_id AS vendorId, count() AS conversions FROM converted GROUP BY inquiry_vendor_id ${FINAL_SETTINGS}`,
      parameters(scope, period),
    );
  }

  /** Days (UTC) with any inquiry, application or conversion; the others are zero. */
  async daily(scope: FunnelScope, period: FunnelPeriod): Promise<DailyRow[]> {
    return this.analytics.query<DailyRow>(
      `${FUNNEL_CTES}
      SELECT toString(day) AS date, sum(inquiries) AS inquiries, sum(applications) AS applications, sum(conversions) AS conversions
      FROM (
        SELECT toDate(submitted_at) AS day, 1 AS inquiries, 0 AS applications, 0 AS conversions FROM inquiries
        UNION ALL SELECT toDate(submitted_at), 0, 1, 0 FROM applications WHERE submitted_at < {end:DateTime64(3, 'UTC')}
        UNION ALL SELECT toDate(inquiry_at), 0, 0, 1 FROM converted
      )
      GROUP BY day ORDER BY day ${FINAL_SETTINGS}`,
      parameters(scope, period),
    );
  }
}
