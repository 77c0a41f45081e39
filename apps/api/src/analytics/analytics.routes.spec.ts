/**
 * The general analytics routes over HTTP on the production app with chDB: the user-API envelope,
 * the permission, every bad parameter named, and the organization's own events only. The numbers
 * are proved by analytics.golden.spec.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FunnelLinkRepository } from '@leadstream/dal';
import { analyticsMigrations, openAnalytics } from '@leadstream/engine-clickhouse';
import type { Analytics } from '@leadstream/ports';
import { toLeadEventRow } from '@leadstream/projector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let analytics: Analytics;
let analyticsDir: string;
let owner: UserApi & { organizationId: string };
let vendorId: string;

const REPORTS = [
  '',
  '/executive-summary',
  '/source-performance',
  '/conversion-funnel',
  '/lead-volume-trend',
  '/vendor-roi',
];
const PERIOD = '?startDate=2025-06-01&endDate=2025-06-07';

beforeAll(async () => {
  analyticsDir = mkdtempSync(join(tmpdir(), 'leadstream-analytics-routes-'));
  analytics = await openAnalytics({ dataDir: analyticsDir });
  await analytics.migrate(analyticsMigrations);
  server = await startAccountsServer({ analytics, repositories: [FunnelLinkRepository] });
  owner = await UserApi.owner(server.url, 'analyst@college.edu', 'Analytics College');
  vendorId = String(
    dataOf(await owner.call('POST', '/api/vendors', { name: 'Paid Leads', type: 'inquiry', cost_per_lead: 4 }))['id'],
  );
  const created = (organizationId: string, leadId: string): Record<string, unknown> => ({
    ...toLeadEventRow({
      schema_version: 1,
      id: `evt_${leadId}`,
      event: 'lead.created',
      timestamp: '2025-06-02T10:00:00.000Z',
      organization_id: organizationId,
      environment: 'live',
      data: { lead: { id: leadId, email: `${leadId}@x.edu`, vendor_id: vendorId, source: 'web' } },
    }),
  });
  const accepted = (leadId: string): Record<string, unknown> => ({
    ...toLeadEventRow({
      schema_version: 1,
      id: `evt_${leadId}_ok`,
      event: 'lead.accepted',
      timestamp: '2025-06-02T10:00:01.000Z',
      organization_id: owner.organizationId,
      environment: 'live',
      data: { lead_id: leadId, vendor_id: vendorId },
    }),
  });
  await analytics.insert('lead_events', [
    created(owner.organizationId, 'l1'),
    accepted('l1'),
    created(owner.organizationId, 'l2'),
    created('org_someone_else', 'l3'),
  ]);
});

afterAll(async () => {
  await server?.close();
  await analytics?.close();
  rmSync(analyticsDir, { recursive: true, force: true });
});

describe('general analytics routes', () => {
  it('answer every report in {data} for the organization only', async () => {
    for (const path of REPORTS) {
      const response = await owner.call('GET', `/api/analytics${path}${PERIOD}`);
      expect(response.status, path).toBe(200);
      expect(Object.keys(response.body)).toEqual(['data']);
    }
    expect(dataOf(await owner.call('GET', `/api/analytics${PERIOD}`))['totals']).toEqual({
      submitted: 2,
      accepted: 1,
      rejected: 0,
      duplicates: 0,
      pending: 1,
      acceptanceRate: 0.5,
    });
    expect(dataOf(await owner.call('GET', `/api/analytics/vendor-roi${PERIOD}`))['vendors']).toMatchObject([
      { vendorId, costPerLead: 4, submitted: 2, accepted: 1, spend: 4 },
    ]);
    expect(
      dataOf(await owner.call('GET', `/api/analytics/source-performance${PERIOD}&groupBy=vendor`))['rows'],
    ).toMatchObject([{ value: vendorId, label: 'Paid Leads', submitted: 2 }]);
    expect(
      dataOf(await owner.call('GET', `/api/analytics/lead-volume-trend${PERIOD}&interval=week`))['points'],
    ).toMatchObject([{ start: '2025-05-26' }, { start: '2025-06-02', submitted: 2 }]);
  });

  it('names every bad parameter', async () => {
    const response = await owner.call(
      'GET',
      '/api/analytics/lead-volume-trend?startDate=2025-06-09&endDate=2025-06-01&interval=hour',
    );
    expect(response.status).toBe(400);
    expect(
      (response.body['error'] as { code: string; details: Array<{ field: string }> }).details.map(
        (detail) => detail.field,
      ),
    ).toEqual(['startDate', 'interval']);
  });

  it('needs analytics:read: viewers read, the vendor role and strangers do not', async () => {
    const viewer = await owner.member('viewer.analytics@college.edu', 'viewer');
    expect((await viewer.call('GET', `/api/analytics/executive-summary${PERIOD}`)).status).toBe(200);
    expect((await new UserApi(server.url).call('GET', '/api/analytics')).body).toMatchObject({
      error: { code: 'TOKEN_INVALID' },
    });
    const vendorUser = await owner.member('vendor.analytics@college.edu', 'vendor');
    expect((await vendorUser.call('GET', '/api/analytics')).body).toMatchObject({
      error: { code: 'INSUFFICIENT_PERMISSIONS' },
    });
  });
});
