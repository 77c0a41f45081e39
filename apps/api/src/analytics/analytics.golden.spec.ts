/**
 * Golden tests of the general analytics reports on chDB and on a ClickHouse server over HTTP
 * (CLICKHOUSE_URL): a fixed set of projected events and the answers computed by hand (next to
 * the data).
 *
 * Vendors: inquiry V1 (10 a lead), V2 (no cost); application A1 (5 a lead). Link V1 -> A1 within
 * 24 h. Period: the week 2025-06-09 (Mon) .. 2025-06-15; the previous period is 06-02 .. 06-08.
 */
import { parseAnalyticsQuery, type AnalyticsQuery } from '@leadstream/domain';
import { analyticsMigrations } from '@leadstream/engine-clickhouse';
import type { Analytics } from '@leadstream/ports';
import { toLeadEventRow } from '@leadstream/projector';
import type { LeadEventMessage } from '@leadstream/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAnalyticsEngines, type TestEngine } from '../analytics.test-support';
import { FunnelQueries } from '../funnel/funnel.queries';
import { AnalyticsQueries } from './analytics.queries';
import { AnalyticsReports, type AnalyticsScope } from './analytics.reports';

const ORG = 'org_analytics';
const V1 = '11111111-1111-4111-8111-111111111111';
const V2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

const events: LeadEventMessage[] = [];
let sequence = 0;
function event(name: LeadEventMessage['event'], leadId: string, at: string, data: Record<string, unknown>): void {
  sequence += 1;
  events.push({
    schema_version: 1,
    id: `evt_${sequence}`,
    event: name,
    timestamp: at,
    organization_id: ORG,
    environment: 'live',
    data,
  });
}

type Outcome = 'accepted' | 'rejected' | 'duplicate' | 'flagged' | 'pending';
function lead(
  id: string,
  vendorId: string,
  email: string,
  at: string,
  outcome: Outcome,
  fields: Record<string, string | null> = {},
): void {
  event('lead.created', id, at, {
    lead: { id, email, vendor_id: vendorId, source: null, utm_source: null, program_interest: null, ...fields },
  });
  const later = new Date(Date.parse(at) + 1_000).toISOString();
  if (outcome === 'rejected')
    event('lead.rejected', id, later, {
      lead_id: id,
      lead: { email },
      rejection_reason: 'disposable_email',
      rule_id: null,
    });
  if (outcome === 'duplicate' || outcome === 'flagged')
    event('lead.duplicate', id, later, {
      lead_id: id,
      duplicate_of: 'lead_x',
      action: outcome === 'flagged' ? 'flag' : 'reject',
    });
  if (outcome === 'accepted' || outcome === 'flagged')
    event('lead.accepted', id, later, { lead_id: id, vendor_id: vendorId, status: 'active' });
}

// The period.
lead('s1', V1, 'ann@x.edu', '2025-06-09T10:00:00.000Z', 'accepted', {
  source: 'web',
  utm_source: 'google',
  program_interest: 'MBA',
});
lead('s2', V1, 'bob@x.edu', '2025-06-09T11:00:00.000Z', 'rejected', {
  source: 'web',
  utm_source: 'google',
  program_interest: 'MBA',
});
lead('s3', V1, 'cat@x.edu', '2025-06-10T09:00:00.000Z', 'accepted', { source: 'fair', program_interest: 'BSc' });
lead('s4', V2, 'dan@x.edu', '2025-06-11T12:00:00.000Z', 'duplicate');
lead('s5', V2, 'eve@x.edu', '2025-06-12T08:00:00.000Z', 'pending', { source: 'web', utm_source: 'bing' });
lead('s6', V2, 'fay@x.edu', '2025-06-12T09:00:00.000Z', 'flagged', { source: 'web' });
lead('s7', A1, 'ann@x.edu', '2025-06-09T15:00:00.000Z', 'duplicate'); // ann converts (V1 -> A1 after 5 h)
lead('s8', A1, 'cat@x.edu', '2025-06-15T20:00:00.000Z', 'accepted'); // beyond cat's 24 h window
// A user moves s3 on: its current status is what lead.updated says.
event('lead.updated', 's3', '2025-06-16T09:00:00.000Z', {
  lead: { id: 's3', status: 'contacted', vendor_id: V1 },
  changes: { status: { old: 'active', new: 'contacted' } },
});
// Reports use a lead's final values: a rule gives s8 the source "Google Ads" (it had none), and a
// user moves s6 from "web" to "fair".
event('lead.enriched', 's8', '2025-06-15T20:00:02.000Z', {
  lead_id: 's8',
  rule_id: 'rule_ads',
  rule_ids: ['rule_ads'],
  changes: { source: { old: null, new: 'Google Ads' } },
  flags: [],
});
event('lead.updated', 's6', '2025-06-13T09:00:00.000Z', {
  lead: { id: 's6', email: 'fay@x.edu', phone: null, updated_at: '2025-06-13T09:00:00.000Z' },
  changes: { source: { old: 'web', new: 'fair' } },
});
// The previous period: 3 submissions, all accepted; gus converts.
lead('p1', V1, 'gus@x.edu', '2025-06-03T10:00:00.000Z', 'accepted');
lead('p2', V1, 'hal@x.edu', '2025-06-04T10:00:00.000Z', 'accepted');
lead('p3', A1, 'gus@x.edu', '2025-06-03T11:00:00.000Z', 'accepted');

const scope: AnalyticsScope = {
  organizationId: ORG,
  environment: 'live',
  inquiryVendorIds: [V1, V2],
  applicationVendorIds: [A1],
  links: [{ inquiryVendorId: V1, applicationVendorId: A1, timeWindowHours: 24 }],
  vendorNames: new Map([
    [V1, 'Vendor One'],
    [V2, 'Vendor Two'],
    [A1, 'Apply'],
  ]),
  vendors: [
    { id: V1, name: 'Vendor One', type: 'inquiry', cost_per_lead: 10 },
    { id: V2, name: 'Vendor Two', type: 'inquiry', cost_per_lead: null },
    { id: A1, name: 'Apply', type: 'application', cost_per_lead: 5 },
  ],
};

const PERIOD_VIEW = { start: '2025-06-09T00:00:00.000Z', end: '2025-06-15T23:59:59.999Z' };

function query(extra: Record<string, string> = {}): AnalyticsQuery {
  const parsed = parseAnalyticsQuery(
    { startDate: '2025-06-09', endDate: '2025-06-15', ...extra },
    new Date('2025-06-20T00:00:00Z'),
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
  return parsed.value;
}

const engines = testAnalyticsEngines('analytics');

describe.each(engines)('general analytics on the golden events (%s)', (_name, makeEngine) => {
  let engine: TestEngine;
  let analytics: Analytics;
  let reports: AnalyticsReports;

  beforeAll(async () => {
    if (!makeEngine) return;
    engine = makeEngine();
    analytics = await engine.open();
    await analytics.migrate(analyticsMigrations);
    await analytics.insert(
      'lead_events',
      events.map((message) => ({ ...toLeadEventRow(message) })),
    );
    reports = new AnalyticsReports(new AnalyticsQueries(analytics), new FunnelQueries(analytics));
  });

  afterAll(async () => {
    await analytics?.close();
    await engine?.dispose();
  });

  describe.skipIf(!makeEngine)('every report', () => {
    it('overview: 8 submissions, 4 accepted, 1 rejected, 3 duplicates (one flagged and accepted), 1 pending', async () => {
      expect(await reports.overview(scope, query().period)).toEqual({
        period: PERIOD_VIEW,
        totals: { submitted: 8, accepted: 4, rejected: 1, duplicates: 3, pending: 1, acceptanceRate: 0.5 },
        // s1, s6, s8 active; s4, s7 duplicate (rejected by deduplication); s3 contacted; s5 new; s2 rejected.
        byStatus: [
          { status: 'active', count: 3 },
          { status: 'duplicate', count: 2 },
          { status: 'contacted', count: 1 },
          { status: 'new', count: 1 },
          { status: 'rejected', count: 1 },
        ],
        rejectionReasons: [{ reason: 'disposable_email', count: 1 }],
        byVendor: [
          {
            vendorId: V1,
            vendorName: 'Vendor One',
            submitted: 3,
            accepted: 2,
            rejected: 1,
            duplicates: 0,
            pending: 0,
            acceptanceRate: 0.6667,
          },
          {
            vendorId: V2,
            vendorName: 'Vendor Two',
            submitted: 3,
            accepted: 1,
            rejected: 0,
            duplicates: 2,
            pending: 1,
            acceptanceRate: 0.3333,
          },
          {
            vendorId: A1,
            vendorName: 'Apply',
            submitted: 2,
            accepted: 1,
            rejected: 0,
            duplicates: 1,
            pending: 0,
            acceptanceRate: 0.5,
          },
        ],
      });
    });

    it('executive summary: this week against the week before', async () => {
      expect(await reports.executiveSummary(scope, query().period)).toEqual({
        period: PERIOD_VIEW,
        previousPeriod: { start: '2025-06-02T00:00:00.000Z', end: '2025-06-08T23:59:59.999Z' },
        current: { submitted: 8, accepted: 4, acceptanceRate: 0.5, inquiries: 5, conversions: 1, conversionRate: 0.2 },
        previous: { submitted: 3, accepted: 3, acceptanceRate: 1, inquiries: 2, conversions: 1, conversionRate: 0.5 },
        change: { submitted: 1.6667, accepted: 0.3333, conversions: 0 },
      });
    });

    it('source performance by the final source (a rule or a user changed two) and by UTM source (null: not given), most submissions first', async () => {
      const bySource = await reports.sourcePerformance(scope, query().period, 'source');
      expect(bySource['rows']).toEqual([
        { value: 'web', submitted: 3, accepted: 1, rejected: 1, duplicates: 0, pending: 1, acceptanceRate: 0.3333 },
        { value: 'fair', submitted: 2, accepted: 2, rejected: 0, duplicates: 1, pending: 0, acceptanceRate: 1 },
        { value: null, submitted: 2, accepted: 0, rejected: 0, duplicates: 2, pending: 0, acceptanceRate: 0 },
        { value: 'Google Ads', submitted: 1, accepted: 1, rejected: 0, duplicates: 0, pending: 0, acceptanceRate: 1 },
      ]);
      const byUtm = await reports.sourcePerformance(scope, query().period, 'utm_source');
      expect(
        (byUtm['rows'] as Array<{ value: string | null; submitted: number }>).map((row) => [row.value, row.submitted]),
      ).toEqual([
        [null, 5],
        ['google', 2],
        ['bing', 1],
      ]);
      const byVendor = await reports.sourcePerformance(scope, query().period, 'vendor');
      expect(byVendor['rows']).toMatchObject([
        { value: V1, label: 'Vendor One' },
        { value: V2, label: 'Vendor Two' },
        { value: A1, label: 'Apply' },
      ]);
    });

    it('conversion funnel: submitted 8, valid 7, accepted 4, converted 1', async () => {
      expect((await reports.conversionFunnel(scope, query().period))['stages']).toEqual([
        { stage: 'submitted', count: 8, rateFromPrevious: 1, rateFromSubmitted: 1 },
        { stage: 'valid', count: 7, rateFromPrevious: 0.875, rateFromSubmitted: 0.875 },
        { stage: 'accepted', count: 4, rateFromPrevious: 0.5714, rateFromSubmitted: 0.5 },
        { stage: 'converted', count: 1, rateFromPrevious: 0.25, rateFromSubmitted: 0.125 },
      ]);
    });

    it('lead volume trend by day (every day listed) and by week', async () => {
      const daily = await reports.leadVolumeTrend(scope, query().period, 'day');
      expect(
        (daily['points'] as Array<{ start: string; submitted: number; accepted: number }>).map((point) => [
          point.start,
          point.submitted,
          point.accepted,
        ]),
      ).toEqual([
        ['2025-06-09', 3, 1],
        ['2025-06-10', 1, 1],
        ['2025-06-11', 1, 0],
        ['2025-06-12', 2, 1],
        ['2025-06-13', 0, 0],
        ['2025-06-14', 0, 0],
        ['2025-06-15', 1, 1],
      ]);
      expect((await reports.leadVolumeTrend(scope, query().period, 'week'))['points']).toEqual([
        { start: '2025-06-09', submitted: 8, accepted: 4, rejected: 1, duplicates: 3, pending: 1, acceptanceRate: 0.5 },
      ]);
    });

    it('vendor ROI: spend is accepted leads × cost per lead, against conversions', async () => {
      expect(await reports.vendorRoi(scope, query().period)).toEqual({
        period: PERIOD_VIEW,
        vendors: [
          {
            vendorId: V1,
            vendorName: 'Vendor One',
            type: 'inquiry',
            costPerLead: 10,
            submitted: 3,
            accepted: 2,
            conversions: 1,
            spend: 20,
            costPerSubmission: 6.67,
            costPerConversion: 20,
          },
          {
            vendorId: A1,
            vendorName: 'Apply',
            type: 'application',
            costPerLead: 5,
            submitted: 2,
            accepted: 1,
            conversions: 0,
            spend: 5,
            costPerSubmission: 2.5,
            costPerConversion: null,
          },
          {
            vendorId: V2,
            vendorName: 'Vendor Two',
            type: 'inquiry',
            costPerLead: null,
            submitted: 3,
            accepted: 1,
            conversions: 0,
            spend: null,
            costPerSubmission: null,
            costPerConversion: null,
          },
        ],
        totals: { spend: 25, accepted: 3, conversions: 1, costPerConversion: 25 },
      });
    });
  });
});
