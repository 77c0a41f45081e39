/**
 * General analytics (GET /api/analytics/...): counts by SQL over the projection. A submission is a
 * `lead.created` row of the period; its **outcome** comes from the later events of the same lead:
 * `rejected` (a `lead.rejected`: validation or a rule), else `accepted` (a `lead.accepted`: it
 * became an active lead, flagged or linked duplicates included), else `duplicate` (a
 * `lead.duplicate` that was rejected or merged), else `pending` (still in the pipeline).
 * `duplicates` counts every submission with a `lead.duplicate`, whatever its outcome.
 */
import type { AnalyticsGroup, AnalyticsInterval, FunnelPeriod } from '@leadstream/domain';
import type { Analytics } from '@leadstream/ports';

export interface AnalyticsTenant {
  organizationId: string;
  environment: string;
}

export interface OutcomeCounts {
  submitted: number;
  accepted: number;
  rejected: number;
  duplicates: number;
  pending: number;
}

const TENANT = `organization_id = {organizationId:String} AND environment = {environment:String}`;

/** The lead field each grouping key reads (`vendor` is the submitting vendor, which never changes). */
const GROUP_FIELDS: Record<Exclude<AnalyticsGroup, 'vendor'>, string> = {
  source: 'source',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  program: 'program_interest',
};

/** The SQL expression of a grouping key as submitted (null when the lead did not say). */
function submittedKey(group: AnalyticsGroup): string {
  return group === 'vendor'
    ? `nullIf(vendor_id, '')`
    : `nullIf(JSONExtractString(data, 'lead', '${GROUP_FIELDS[group]}'), '')`;
}

/**
 * The lead's final value of a grouping field: the newest `lead.enriched` (a rule's set_field) or
 * `lead.updated` (a user's change) that changed it, else the value submitted. A field cleared later
 * is null.
 */
function finalKeys(group: AnalyticsGroup): string {
  if (group === 'vendor') return '';
  const field = GROUP_FIELDS[group];
  return `,
  changed AS (
    SELECT lead_id, argMax(JSONExtractString(data, 'changes', '${field}', 'new'), occurred_at) AS changed_key
    FROM lead_events FINAL
    WHERE ${TENANT} AND event IN ('lead.enriched', 'lead.updated') AND JSONHas(data, 'changes', '${field}')
      AND occurred_at >= {start:DateTime64(3, 'UTC')} AND lead_id IN (SELECT lead_id FROM submitted)
    GROUP BY lead_id
  )`;
}

function groupKey(group: AnalyticsGroup): string {
  return group === 'vendor' ? 's.created_key' : `if(c.lead_id = '', s.created_key, nullIf(c.changed_key, ''))`;
}

const BUCKETS: Record<AnalyticsInterval, string> = {
  day: 'toDate(submitted_at)',
  week: 'toMonday(submitted_at)',
  month: 'toStartOfMonth(submitted_at)',
};

/** `classified`: each submission of the period with its outcome, duplicate mark and grouping key (its final value). */
const classified = (group: AnalyticsGroup): string => `
WITH
  submitted AS (
    SELECT lead_id, vendor_id, occurred_at AS submitted_at, ${submittedKey(group)} AS created_key
    FROM lead_events FINAL
    WHERE ${TENANT} AND event = 'lead.created' AND occurred_at >= {start:DateTime64(3, 'UTC')} AND occurred_at < {end:DateTime64(3, 'UTC')}
  ),
  outcomes AS (
    SELECT lead_id, max(event = 'lead.rejected') AS rejected, max(event = 'lead.accepted') AS accepted, max(event = 'lead.duplicate') AS duplicate
    FROM lead_events
    WHERE ${TENANT} AND event IN ('lead.rejected', 'lead.accepted', 'lead.duplicate') AND occurred_at >= {start:DateTime64(3, 'UTC')}
      AND lead_id IN (SELECT lead_id FROM submitted)
    GROUP BY lead_id
  )${finalKeys(group)},
  classified AS (
    SELECT s.lead_id AS lead_id, s.vendor_id AS vendor_id, s.submitted_at AS submitted_at, ${groupKey(group)} AS group_key,
      multiIf(o.rejected = 1, 'rejected', o.accepted = 1, 'accepted', o.duplicate = 1, 'duplicate', 'pending') AS outcome,
      o.duplicate = 1 AS is_duplicate
    FROM submitted AS s LEFT JOIN outcomes AS o ON o.lead_id = s.lead_id${group === 'vendor' ? '' : ' LEFT JOIN changed AS c ON c.lead_id = s.lead_id'}
  )`;

const COUNTS = `count() AS submitted, countIf(outcome = 'accepted') AS accepted, countIf(outcome = 'rejected') AS rejected,
  countIf(is_duplicate) AS duplicates, countIf(outcome = 'pending') AS pending`;

export class AnalyticsQueries {
  constructor(private readonly analytics: Analytics) {}

  private params(tenant: AnalyticsTenant, period: FunnelPeriod): Record<string, string | Date> {
    return {
      organizationId: tenant.organizationId,
      environment: tenant.environment,
      start: period.start,
      end: period.end,
    };
  }

  async totals(tenant: AnalyticsTenant, period: FunnelPeriod): Promise<OutcomeCounts> {
    const [row] = await this.analytics.query<OutcomeCounts>(
      `${classified('vendor')} SELECT ${COUNTS} FROM classified`,
      this.params(tenant, period),
    );
    return row!;
  }

  /** Counts per grouping key (null: the lead did not say), most submissions first. */
  async byGroup(
    tenant: AnalyticsTenant,
    period: FunnelPeriod,
    group: AnalyticsGroup,
  ): Promise<Array<OutcomeCounts & { value: string | null }>> {
    return this.analytics.query(
      `${classified(group)} SELECT group_key AS value, ${COUNTS} FROM classified GROUP BY group_key ORDER BY submitted DESC, value`,
      this.params(tenant, period),
    );
  }

  /** Counts per interval that had submissions (the first day of each, YYYY-MM-DD). */
  async trend(
    tenant: AnalyticsTenant,
    period: FunnelPeriod,
    interval: AnalyticsInterval,
  ): Promise<Array<OutcomeCounts & { start: string }>> {
    return this.analytics.query(
      `${classified('vendor')} SELECT toString(${BUCKETS[interval]}) AS start, ${COUNTS} FROM classified GROUP BY start ORDER BY start`,
      this.params(tenant, period),
    );
  }

  /** The current status of the period's submissions (`lead_status`: what the pipeline or a user set last). */
  async byStatus(tenant: AnalyticsTenant, period: FunnelPeriod): Promise<Array<{ status: string; count: number }>> {
    return this.analytics.query(
      `${classified('vendor')}
      SELECT status, count() AS count FROM lead_status FINAL
      WHERE ${TENANT} AND lead_id IN (SELECT lead_id FROM submitted)
      GROUP BY status ORDER BY count DESC, status`,
      this.params(tenant, period),
    );
  }

  /** Why submissions of the period were rejected, most frequent first. */
  async rejectionReasons(
    tenant: AnalyticsTenant,
    period: FunnelPeriod,
  ): Promise<Array<{ reason: string; count: number }>> {
    return this.analytics.query(
      `${classified('vendor')}
      SELECT JSONExtractString(data, 'rejection_reason') AS reason, count() AS count
      FROM (SELECT lead_id, any(data) AS data FROM lead_events FINAL WHERE ${TENANT} AND event = 'lead.rejected' AND occurred_at >= {start:DateTime64(3, 'UTC')}
            AND lead_id IN (SELECT lead_id FROM classified) GROUP BY lead_id)
      GROUP BY reason ORDER BY count DESC, reason`,
      this.params(tenant, period),
    );
  }
}
