/**
 * Golden tests of the five funnel reports on chDB and on a ClickHouse server over HTTP
 * (CLICKHOUSE_URL; infra/chdb-http in CI): a fixed set of projected events, and the answers
 * computed by hand (below, next to the data). The events go through the projector's own row mapping,
 * so the email normalization the funnel matches on is the projector's.
 *
 * Vendors: inquiry I1, I2; application A1, A2. Links: I1 -> A1 within 24 h, I2 -> A1 within 72 h
 * (A2 is linked to nothing). Period 2025-06-01 .. 2025-06-03 (UTC days).
 *
 * The funnel counts people and first events (docs/analytics.md): a repeated inquiry or application
 * of one person is not counted again, and one application converts at most one inquiry.
 */
import { parseFunnelPeriod, type FunnelPeriod } from '@leadstream/domain';
import { analyticsMigrations } from '@leadstream/engine-clickhouse';
import type { Analytics } from '@leadstream/ports';
import { toLeadEventRow } from '@leadstream/projector';
import type { LeadEventMessage } from '@leadstream/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAnalyticsEngines, type TestEngine } from '../analytics.test-support';
import { FunnelQueries } from './funnel.queries';
import { FunnelReports, type NamedFunnelScope } from './funnel.reports';

const ORG = 'org_golden';
const I1 = '11111111-1111-4111-8111-111111111111';
const I2 = '22222222-2222-4222-8222-222222222222';
const A1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const A2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

let sequence = 0;
function submission(
  vendorId: string,
  email: string,
  at: string,
  options: { organizationId?: string; environment?: 'live' | 'sandbox'; id?: string } = {},
): LeadEventMessage {
  sequence += 1;
  const leadId = `lead_${String(sequence).padStart(3, '0')}`;
  return {
    schema_version: 1,
    id: options.id ?? `evt_${leadId}`,
    event: 'lead.created',
    timestamp: at,
    organization_id: options.organizationId ?? ORG,
    environment: options.environment ?? 'live',
    data: { lead: { id: leadId, email, first_name: 'G', last_name: 'T', vendor_id: vendorId, created_at: at } },
  };
}

const q1 = submission(I1, 'ann@x.edu', '2025-06-01T10:00:00.000Z');
const rejectedInquiry = submission(I1, 'zed@x.edu', '2025-06-02T11:00:00.000Z');

/** The lead.rejected event validation emits after a submission's lead.created. */
function rejection(created: LeadEventMessage): LeadEventMessage {
  const lead = created.data['lead'] as Record<string, unknown>;
  return {
    ...created,
    id: `${created.id}_rejected`,
    event: 'lead.rejected',
    data: { lead_id: lead['id'], lead: { email: lead['email'] }, rejection_reason: 'bot_detected', rule_id: null },
  };
}
const EVENTS: LeadEventMessage[] = [
  // Inquiries of the period: q1, q2, q3 (I1), q4, q5, q7, q9 (I2). q6 is the day before; q1b and
  // q10 repeat a person's inquiry and are not counted again.
  q1,
  submission(I1, 'Ann@x.edu', '2025-06-01T10:10:00.000Z'), // q1b: ann inquires again (a duplicate)
  submission(I1, 'Bob.Smith@gmail.com', '2025-06-01T12:00:00.000Z'), // q2
  submission(I1, 'cat@x.edu', '2025-06-02T09:00:00.000Z'), // q3
  submission(I2, 'dan@x.edu', '2025-06-02T10:00:00.000Z'), // q4
  submission(I2, 'eve@x.edu', '2025-06-03T20:00:00.000Z'), // q5
  submission(I1, 'fay@x.edu', '2025-05-31T23:00:00.000Z'), // q6, before the period
  submission(I2, 'gus@x.edu', '2025-06-03T23:30:00.000Z'), // q7
  submission(I2, 'ivy@x.edu', '2025-06-02T12:00:00.000Z'), // q9: ivy inquires through I2 first ...
  submission(I1, 'ivy@x.edu', '2025-06-02T13:00:00.000Z'), // q10: ... then through I1
  // Applications.
  submission(A1, 'ANN@x.edu', '2025-06-01T10:30:00.000Z'), // p1: q1 converts after 1800 s
  submission(A1, 'bobsmith+apply@gmail.com', '2025-06-01T20:00:00.000Z'), // p2: q2 (same gmail address) after 28800 s
  submission(A1, 'cat@x.edu', '2025-06-03T10:00:00.000Z'), // p3: 25 h after q3, beyond I1's 24 h
  submission(A1, 'dan@x.edu', '2025-06-04T06:00:00.000Z'), // p4: q4 after 158400 s (44 h, within 72 h), after the period
  submission(A2, 'eve@x.edu', '2025-06-03T21:00:00.000Z'), // p5: A2 is not linked
  submission(A1, 'eve@x.edu', '2025-06-03T19:00:00.000Z'), // p6: before q5
  submission(A1, 'gus@x.edu', '2025-06-04T01:00:00.000Z'), // p7: q7 after 5400 s, after the period
  submission(A1, 'ann@x.edu', '2025-06-01T11:00:00.000Z'), // p8: ann applies again (not a second application)
  submission(A1, 'ivy@x.edu', '2025-06-02T14:00:00.000Z'), // p9: converts ivy's first inquiry q9 (I2) after 7200 s, once
  // Not this funnel: a rejected inquiry (a bot), another organization, the sandbox, and a redelivery of q1 (same event id).
  rejectedInquiry,
  rejection(rejectedInquiry),

  submission(A1, 'cat@x.edu', '2025-06-02T09:30:00.000Z', { organizationId: 'org_other' }),
  submission(I1, 'hal@x.edu', '2025-06-02T08:00:00.000Z', { environment: 'sandbox' }),
  { ...q1 },
];

const scope: NamedFunnelScope = {
  organizationId: ORG,
  environment: 'live',
  inquiryVendorIds: [I1, I2],
  applicationVendorIds: [A1, A2],
  links: [
    { inquiryVendorId: I1, applicationVendorId: A1, timeWindowHours: 24 },
    { inquiryVendorId: I2, applicationVendorId: A1, timeWindowHours: 72 },
  ],
  vendorNames: new Map([
    [I1, 'Inquiry One'],
    [I2, 'Inquiry Two'],
    [A1, 'Applications'],
    [A2, 'Other Applications'],
  ]),
};

const PERIOD_VIEW = { start: '2025-06-01T00:00:00.000Z', end: '2025-06-03T23:59:59.999Z' };

const engines = testAnalyticsEngines('funnel');

describe.each(engines)('funnel reports on the golden events (%s)', (_name, makeEngine) => {
  let period: FunnelPeriod;
  let engine: TestEngine;
  let analytics: Analytics;
  let reports: FunnelReports;

  beforeAll(async () => {
    if (!makeEngine) return;
    engine = makeEngine();
    analytics = await engine.open();
    await analytics.migrate(analyticsMigrations);
    // Two inserts, so the redelivered q1 sits in another part until FINAL collapses it.
    await analytics.insert(
      'lead_events',
      EVENTS.slice(0, -1).map((event) => ({ ...toLeadEventRow(event) })),
    );
    await analytics.insert(
      'lead_events',
      EVENTS.slice(-1).map((event) => ({ ...toLeadEventRow(event) })),
    );
    reports = new FunnelReports(new FunnelQueries(analytics));
    const parsed = parseFunnelPeriod(
      { startDate: '2025-06-01', endDate: '2025-06-03' },
      new Date('2025-06-05T00:00:00Z'),
    );
    if (!parsed.ok) throw new Error('period');
    period = parsed.value;
  });

  afterAll(async () => {
    await analytics?.close();
    await engine?.dispose();
  });

  describe.skipIf(!makeEngine)('every report', () => {
    it('overview: 7 people inquired, 5 applied in the period, 5 applications converted 5 inquiries, on average after 40320 s', async () => {
      // Conversions: q1-p1 1800, q2-p2 28800, q4-p4 158400, q7-p7 5400, q9-p9 7200 s. Not counted again:
      // q1b, q10 (repeated inquiries), p8 (ann's second application), p5 (eve's second, after p6).
      expect(await reports.overview(scope, period)).toEqual({
        period: PERIOD_VIEW,
        totalInquiries: 7,
        totalApplications: 5, // p1, p2, p3, p6, p9 (p4 and p7 come after the period)
        matchedApplications: 5,
        conversionRate: 0.7143,
        averageTimeToConvertSeconds: 40_320,
        averageTimeToConvertFormatted: '11h 12m',
      });
    });

    it('time to convert: five conversions, median 7200 s (ivy)', async () => {
      expect(await reports.timeToConvert(scope, period)).toEqual({
        period: PERIOD_VIEW,
        distribution: [
          { bucket: '0-1hr', count: 1, percentage: 20 },
          { bucket: '1-6hr', count: 2, percentage: 40 },
          { bucket: '6-12hr', count: 1, percentage: 20 },
          { bucket: '12-24hr', count: 0, percentage: 0 },
          { bucket: '24hr+', count: 1, percentage: 20 },
        ],
        totalConversions: 5,
        medianTimeToConvertSeconds: 7_200,
        medianTimeToConvertFormatted: '2h',
      });
    });

    it('drop-offs at 2025-06-05: q3 (63 h old) and q5 (28 h old) never converted', async () => {
      const now = new Date('2025-06-05T00:00:00Z');
      expect(await reports.dropOffs(scope, period, 24, now)).toEqual({
        period: PERIOD_VIEW,
        totalDroppedInquiries: 2,
        dropOffRate: 0.2857,
        byVendor: [
          { vendorId: I1, vendorName: 'Inquiry One', droppedCount: 1, totalInquiries: 3, dropOffRate: 0.3333 },
          { vendorId: I2, vendorName: 'Inquiry Two', droppedCount: 1, totalInquiries: 4, dropOffRate: 0.25 },
        ],
        byAge: [
          { bucket: '24-48hr', count: 1 },
          { bucket: '2-7days', count: 1 },
          { bucket: '7days+', count: 0 },
        ],
      });
      // At least 30 hours old: q5 (28 h) and q7 (24.5 h) are too young to count.
      expect(await reports.dropOffs(scope, period, 30, now)).toMatchObject({
        totalDroppedInquiries: 1,
        dropOffRate: 0.2,
        byVendor: [
          { vendorId: I1, droppedCount: 1, totalInquiries: 3, dropOffRate: 0.3333 },
          { vendorId: I2, droppedCount: 0, totalInquiries: 2, dropOffRate: 0 },
        ],
        byAge: [
          { bucket: '24-48hr', count: 0 },
          { bucket: '2-7days', count: 1 },
          { bucket: '7days+', count: 0 },
        ],
      });
    });

    it('by vendor: each linked pair with its inquiries, conversions and average time (most conversions first), adding up to the overview', async () => {
      const byVendor = await reports.byVendor(scope, period);
      const pairs = byVendor['vendorPairs'] as Array<{ inquiries: number; conversions: number }>;
      const overview = await reports.overview(scope, period);
      expect(pairs.reduce((sum, pair) => sum + pair.inquiries, 0)).toBe(overview['totalInquiries']);
      expect(pairs.reduce((sum, pair) => sum + pair.conversions, 0)).toBe(overview['matchedApplications']);
      expect(byVendor).toEqual({
        period: PERIOD_VIEW,
        vendorPairs: [
          {
            inquiryVendorId: I2,
            inquiryVendorName: 'Inquiry Two',
            applicationVendorId: A1,
            applicationVendorName: 'Applications',
            inquiries: 4,
            conversions: 3,
            conversionRate: 0.75,
            averageTimeToConvertSeconds: 57_000,
            averageTimeToConvertFormatted: '15h 50m',
          },
          {
            inquiryVendorId: I1,
            inquiryVendorName: 'Inquiry One',
            applicationVendorId: A1,
            applicationVendorName: 'Applications',
            inquiries: 3,
            conversions: 2,
            conversionRate: 0.6667,
            averageTimeToConvertSeconds: 15_300,
            averageTimeToConvertFormatted: '4h 15m',
          },
        ],
      });
    });

    it('daily: every day of the period, conversions on the day of their inquiry', async () => {
      expect(await reports.daily(scope, period)).toEqual({
        period: PERIOD_VIEW,
        daily: [
          { date: '2025-06-01', inquiries: 2, applications: 2, conversions: 2, conversionRate: 1 },
          { date: '2025-06-02', inquiries: 3, applications: 1, conversions: 2, conversionRate: 0.6667 },
          { date: '2025-06-03', inquiries: 2, applications: 2, conversions: 1, conversionRate: 0.5 },
        ],
      });
    });

    it('answers zeros and nulls for an organization without links or events', async () => {
      const empty: NamedFunnelScope = { ...scope, organizationId: 'org_empty', links: [] };
      expect(await reports.overview(empty, period)).toMatchObject({
        totalInquiries: 0,
        matchedApplications: 0,
        conversionRate: 0,
        averageTimeToConvertSeconds: null,
        averageTimeToConvertFormatted: null,
      });
      expect(await reports.timeToConvert(empty, period)).toMatchObject({
        totalConversions: 0,
        medianTimeToConvertSeconds: null,
      });
      expect(await reports.dropOffs(empty, period, 24, new Date('2025-06-05T00:00:00Z'))).toMatchObject({
        totalDroppedInquiries: 0,
        byVendor: [],
      });
      expect(await reports.byVendor(empty, period)).toMatchObject({ vendorPairs: [] });
    });
  });
});
