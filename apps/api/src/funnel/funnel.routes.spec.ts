/**
 * The funnel API over HTTP (docs/analytics.md "Funnel") on the production app with chDB: links, the
 * reports' envelope and scoping, both credentials, and the funnel error convention. The numbers
 * themselves are proved by funnel.golden.spec.ts.
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
const vendors: Record<'i1' | 'i2' | 'a1', string> = { i1: '', i2: '', a1: '' };
let i2Key: string;
let i1ReadKey: string;
let sandboxKey: string;

async function createVendor(name: string, type: 'inquiry' | 'application'): Promise<string> {
  return String(dataOf(await owner.call('POST', '/api/vendors', { name, type }))['id']);
}

async function createKey(
  vendorId: string,
  permissions: string[],
  environment: 'live' | 'sandbox' = 'live',
): Promise<string> {
  return String(
    dataOf(
      await owner.call('POST', '/api/api-keys', {
        name: `key ${permissions.join('+')}`,
        vendor_id: vendorId,
        permissions,
        environment,
      }),
    )['key'],
  );
}

const withKey = (key: string): UserApi => new UserApi(server.url, key);

let sequence = 0;
function created(
  vendorId: string,
  email: string,
  at: string,
  environment: 'live' | 'sandbox' = 'live',
): Record<string, unknown> {
  sequence += 1;
  const leadId = `lead_route_${sequence}`;
  return {
    ...toLeadEventRow({
      schema_version: 1,
      id: `evt_${leadId}`,
      event: 'lead.created',
      timestamp: at,
      organization_id: owner.organizationId,
      environment,
      data: { lead: { id: leadId, email, vendor_id: vendorId } },
    }),
  };
}

beforeAll(async () => {
  analyticsDir = mkdtempSync(join(tmpdir(), 'leadstream-funnel-routes-'));
  analytics = await openAnalytics({ dataDir: analyticsDir });
  await analytics.migrate(analyticsMigrations);
  server = await startAccountsServer({ analytics, repositories: [FunnelLinkRepository] });
  owner = await UserApi.owner(server.url, 'funnel@college.edu', 'Funnel College');
  vendors.i1 = await createVendor('Inquiry One', 'inquiry');
  vendors.i2 = await createVendor('Inquiry Two', 'inquiry');
  vendors.a1 = await createVendor('Applications', 'application');
  i2Key = await createKey(vendors.i2, ['read', 'write']);
  i1ReadKey = await createKey(vendors.i1, ['read']);
  sandboxKey = await createKey(vendors.i1, ['read'], 'sandbox');
  await analytics.insert('lead_events', [
    created(vendors.i1, 'ann@x.edu', '2025-06-01T10:00:00Z'),
    created(vendors.a1, 'ann@x.edu', '2025-06-01T12:00:00Z'), // I1 -> A1 after 2 h
    created(vendors.i2, 'bea@x.edu', '2025-06-01T10:00:00Z'),
    created(vendors.a1, 'bea@x.edu', '2025-06-02T09:00:00Z'), // I2 -> A1 after 23 h
    created(vendors.i2, 'cy@x.edu', '2025-06-02T10:00:00Z'), // never converts
    created(vendors.i1, 'dee@x.edu', '2025-06-01T10:00:00Z', 'sandbox'),
  ]);
});

afterAll(async () => {
  await server?.close();
  await analytics?.close();
  rmSync(analyticsDir, { recursive: true, force: true });
});

describe('funnel links', () => {
  let i1Link: string;

  it('creates a link (201, without names), lists it with names, and says there are links', async () => {
    const response = await owner.call('POST', '/api/vendor-funnel-links', {
      inquiryVendorId: vendors.i1,
      applicationVendorId: vendors.a1,
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        inquiryVendorId: vendors.i1,
        applicationVendorId: vendors.a1,
        timeWindowHours: 24,
        createdAt: expect.any(String),
      },
    });
    i1Link = String((response.body['data'] as Record<string, unknown>)['id']);
    expect((await owner.call('GET', '/api/vendor-funnel-links')).body).toEqual({
      success: true,
      data: [
        {
          id: i1Link,
          inquiryVendorId: vendors.i1,
          inquiryVendorName: 'Inquiry One',
          applicationVendorId: vendors.a1,
          applicationVendorName: 'Applications',
          timeWindowHours: 24,
          createdAt: expect.any(String),
        },
      ],
    });
    expect((await owner.call('GET', '/api/vendor-funnel-links/has-links')).body).toEqual({
      success: true,
      hasLinks: true,
    });
  });

  it('answers the creation errors of 4.11 in the funnel convention', async () => {
    expect(
      await owner.call('POST', '/api/vendor-funnel-links', {
        inquiryVendorId: vendors.i1,
        applicationVendorId: vendors.a1,
      }),
    ).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: 'A funnel link for this vendor pair already exists',
        details: { applicationVendorId: expect.any(String) },
      },
    });
    expect(
      await owner.call('POST', '/api/vendor-funnel-links', {
        inquiryVendorId: vendors.a1,
        applicationVendorId: vendors.i1,
      }),
    ).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: expect.stringContaining('is not of type inquiry'),
        details: { inquiryVendorId: expect.any(String), applicationVendorId: expect.any(String) },
      },
    });
    expect(
      await owner.call('POST', '/api/vendor-funnel-links', {
        inquiryVendorId: '00000000-0000-4000-8000-000000000000',
        applicationVendorId: vendors.a1,
      }),
    ).toMatchObject({
      status: 404,
      body: { success: false, error: 'Resource not found' },
    });
    const bad = await owner.call('POST', '/api/vendor-funnel-links', { inquiryVendorId: 'x', timeWindowHours: 0 });
    expect(bad).toMatchObject({ status: 400, body: { success: false } });
    expect(Object.keys(bad.body['details'] as object)).toEqual([
      'inquiryVendorId',
      'applicationVendorId',
      'timeWindowHours',
    ]);
  });

  it('lets an API key see and change only the links of its vendor', async () => {
    const key = withKey(i2Key);
    expect((await key.call('GET', '/api/vendor-funnel-links')).body).toEqual({ success: true, data: [] });
    expect((await key.call('GET', '/api/vendor-funnel-links/has-links')).body).toEqual({
      success: true,
      hasLinks: false,
    });
    const other = await createVendor('Inquiry Three', 'inquiry');
    expect(
      await key.call('POST', '/api/vendor-funnel-links', { inquiryVendorId: other, applicationVendorId: vendors.a1 }),
    ).toMatchObject({ status: 403, body: { success: false, error: 'Insufficient permissions' } });
    expect(
      (
        await key.call('POST', '/api/vendor-funnel-links', {
          inquiryVendorId: vendors.i2,
          applicationVendorId: vendors.a1,
          timeWindowHours: 48,
        })
      ).status,
    ).toBe(201);
    expect(((await key.call('GET', '/api/vendor-funnel-links')).body['data'] as unknown[]).length).toBe(1);
    expect(await key.call('DELETE', `/api/vendor-funnel-links/${i1Link}`)).toMatchObject({
      status: 404,
      body: { success: false, error: 'Resource not found' },
    });
    expect(
      await withKey(i1ReadKey).call('POST', '/api/vendor-funnel-links', {
        inquiryVendorId: vendors.i1,
        applicationVendorId: vendors.a1,
      }),
    ).toMatchObject({ status: 403 });
  });

  it('deletes a link once', async () => {
    const made = await owner.call('POST', '/api/vendor-funnel-links', {
      inquiryVendorId: await createVendor('Short', 'inquiry'),
      applicationVendorId: vendors.a1,
    });
    const id = String((made.body['data'] as Record<string, unknown>)['id']);
    expect(await owner.call('DELETE', `/api/vendor-funnel-links/${id}`)).toMatchObject({
      status: 200,
      body: { success: true, message: 'Funnel link deleted' },
    });
    expect((await owner.call('DELETE', `/api/vendor-funnel-links/${id}`)).status).toBe(404);
  });
});

describe('funnel reports', () => {
  const period = '?startDate=2025-06-01&endDate=2025-06-02';

  it('answers the organization with a session token', async () => {
    const overview = await owner.call('GET', `/api/analytics/funnel/overview${period}`);
    expect(overview.status).toBe(200);
    expect(overview.headers.get('x-ratelimit-limit')).toBe('500');
    expect(overview.body).toEqual({
      success: true,
      data: {
        period: { start: '2025-06-01T00:00:00.000Z', end: '2025-06-02T23:59:59.999Z' },
        totalInquiries: 3,
        totalApplications: 2,
        matchedApplications: 2,
        conversionRate: 0.6667,
        averageTimeToConvertSeconds: 45_000,
        averageTimeToConvertFormatted: '12h 30m',
      },
    });
    for (const report of ['time-to-convert', 'drop-offs', 'by-vendor', 'daily']) {
      const response = await owner.call('GET', `/api/analytics/funnel/${report}${period}`);
      expect(response.status, report).toBe(200);
      expect(response.body['success']).toBe(true);
    }
    expect((await owner.call('GET', `/api/analytics/funnel/by-vendor${period}`)).body['data']).toMatchObject({
      vendorPairs: [
        { inquiryVendorName: 'Inquiry One', applicationVendorName: 'Applications', inquiries: 1, conversions: 1 },
        {
          inquiryVendorName: 'Inquiry Two',
          applicationVendorName: 'Applications',
          inquiries: 2,
          conversions: 1,
          conversionRate: 0.5,
        },
      ],
    });
  });

  it("answers an API key with its own vendor's funnel only", async () => {
    expect((await withKey(i2Key).call('GET', `/api/analytics/funnel/overview${period}`)).body['data']).toMatchObject({
      totalInquiries: 2,
      totalApplications: 2,
      matchedApplications: 1,
      conversionRate: 0.5,
    });
    expect(
      (await withKey(i1ReadKey).call('GET', `/api/analytics/funnel/by-vendor${period}`)).body['data'],
    ).toMatchObject({ vendorPairs: [{ inquiryVendorName: 'Inquiry One', conversions: 1 }] });
  });

  it('answers a sandbox key under /sandbox with the sandbox events', async () => {
    const response = await withKey(sandboxKey).call('GET', `/sandbox/api/analytics/funnel/overview${period}`);
    expect(response).toMatchObject({
      status: 200,
      body: { success: true, data: { totalInquiries: 1, matchedApplications: 0 } },
    });
    expect((await withKey(sandboxKey).call('GET', `/api/analytics/funnel/overview${period}`)).status).toBe(401);
  });

  it('names every bad parameter in details, keyed by parameter', async () => {
    expect(
      await owner.call('GET', '/api/analytics/funnel/overview?startDate=2025-06-10&endDate=2025-06-01'),
    ).toMatchObject({
      status: 400,
      body: {
        success: false,
        error: 'Invalid query parameters',
        details: { startDate: 'startDate must be before endDate' },
      },
    });
    const both = await owner.call('GET', '/api/analytics/funnel/drop-offs?startDate=June&minAgeHours=soon');
    expect(both.status).toBe(400);
    expect(Object.keys(both.body['details'] as object)).toEqual(['startDate', 'minAgeHours']);
  });

  it("answers 401 'Authentication required' and 403 'Insufficient permissions' in the funnel convention", async () => {
    expect(await new UserApi(server.url).call('GET', '/api/analytics/funnel/overview')).toMatchObject({
      status: 401,
      body: { success: false, error: 'Authentication required' },
    });
    expect(await withKey('vk_live_nope').call('GET', '/api/analytics/funnel/daily')).toMatchObject({
      status: 401,
      body: { success: false, error: 'Authentication required' },
    });
    const viewer = await owner.member('viewer@college.edu', 'viewer');
    expect((await viewer.call('GET', `/api/analytics/funnel/daily${period}`)).status).toBe(200);
    expect(
      await viewer.call('POST', '/api/vendor-funnel-links', {
        inquiryVendorId: vendors.i2,
        applicationVendorId: vendors.a1,
      }),
    ).toMatchObject({ status: 403, body: { success: false, error: 'Insufficient permissions' } });
  });
});
