/**
 * The funnel end to end on `leadstream start` (embedded engines): leads ingested through HTTP by an
 * inquiry vendor and an application vendor go through the pipeline and the projector into chDB,
 * and the funnel reports count them. A person who inquires twice is one inquiry; their application
 * is not a duplicate of the inquiry (deduplication compares an application with applications) and
 * converts it once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { jsonClient } from './test-support/json-client';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-funnel-'));
let server: CliProcess | undefined;
let url = '';
const call = jsonClient(() => url);

beforeAll(async () => {
  ({ server, url } = await CliProcess.startService(serviceEnv({ DATA_DIR: dataDir })));
}, 180_000);

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

describe('the funnel on leadstream start', () => {
  it('counts an inquiry that turned into an application, from ingestion to the reports', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'funnel.owner@example.edu',
      password: 'Funnel-Passw0rd',
      first_name: 'Fu',
      last_name: 'Nnel',
      organization_name: 'Funnel College',
    });
    const token = String(registered.body['token']);
    const inquiry = String(
      data((await call('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry' }, token)).body)['id'],
    );
    const application = String(
      data((await call('POST', '/api/vendors', { name: 'Apply Portal', type: 'application' }, token)).body)['id'],
    );
    const inquiryKey = String(
      data((await call('POST', '/api/api-keys', { name: 'inq', vendor_id: inquiry }, token)).body)['key'],
    );
    const applicationKey = String(
      data((await call('POST', '/api/api-keys', { name: 'app', vendor_id: application }, token)).body)['key'],
    );
    expect(
      (
        await call(
          'POST',
          '/api/vendor-funnel-links',
          { inquiryVendorId: inquiry, applicationVendorId: application },
          token,
        )
      ).status,
    ).toBe(201);

    expect(
      (
        await call(
          'POST',
          '/api/v1/leads/ingest',
          { email: 'ann.inquirer@example.edu', first_name: 'Ann', last_name: 'Inquirer' },
          inquiryKey,
        )
      ).status,
    ).toBe(201);
    // Ann inquires again: a duplicate of her inquiry, and not a second inquiry in the funnel.
    const again = await call(
      'POST',
      '/api/v1/leads/ingest',
      { email: 'ann.inquirer@example.edu', first_name: 'Ann', last_name: 'Inquirer' },
      inquiryKey,
    );
    expect(again).toMatchObject({ status: 409, body: { success: false, error: 'Duplicate lead detected' } });
    expect(
      (
        await call(
          'POST',
          '/api/v1/leads/ingest',
          { email: 'bob.browser@example.edu', first_name: 'Bob', last_name: 'Browser' },
          inquiryKey,
        )
      ).status,
    ).toBe(201);
    // Ann applies: an application is compared with applications only, so it is accepted, and it
    // converts her inquiry once.
    const applied = await call(
      'POST',
      '/api/v1/leads/ingest',
      { email: 'Ann.Inquirer@example.edu', first_name: 'Ann', last_name: 'Inquirer' },
      applicationKey,
    );
    expect(applied).toMatchObject({ status: 201, body: { success: true, message: 'Lead accepted' } });

    // The projector runs behind the pipeline: wait until it has caught up (the counts only grow).
    const deadline = Date.now() + 60_000;
    let overview: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      const response = await call('GET', '/api/analytics/funnel/overview', undefined, token);
      expect(response.status).toBe(200);
      overview = data(response.body);
      if (overview['totalInquiries'] === 2 && overview['matchedApplications'] === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(overview).toMatchObject({
      totalInquiries: 2,
      totalApplications: 1,
      matchedApplications: 1,
      conversionRate: 0.5,
      averageTimeToConvertSeconds: expect.any(Number),
    });
    const byVendor = data((await call('GET', '/api/analytics/funnel/by-vendor', undefined, inquiryKey)).body);
    expect(byVendor['vendorPairs']).toMatchObject([
      {
        inquiryVendorName: 'Inquiry Co',
        applicationVendorName: 'Apply Portal',
        inquiries: 2,
        conversions: 1,
        conversionRate: 0.5,
      },
    ]);
    const dropOffs = data((await call('GET', '/api/analytics/funnel/drop-offs?minAgeHours=0', undefined, token)).body);
    expect(dropOffs).toMatchObject({
      totalDroppedInquiries: 1,
      byVendor: [{ vendorName: 'Inquiry Co', droppedCount: 1, totalInquiries: 2 }],
    });
  });
});
