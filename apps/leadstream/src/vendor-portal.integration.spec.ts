/**
 * Vendor reporting (docs/decisions.md "Vendor portal") end to end: `leadstream start` on the
 * embedded engines, leads ingested over HTTP through the real pipeline, then the portal's counts,
 * breakdown and CSV export checked for the calling key's vendor and environment only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDal, VendorReportRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-portal-'));
let server: CliProcess | undefined;
let url = '';
const keys = { aLive: '', aSandbox: '', aWriteOnly: '', bLive: '' };
let vendorA = '';
let organizationId = '';
const today = new Date().toISOString().slice(0, 10);
const run = Date.now().toString(36);

/** A lead stored on a fixed past day, straight into the store (the pipeline stamps "now"). */
function pastLead(
  id: string,
  vendorId: string,
  createdAt: string,
  status: string,
  reason: string | null,
): Record<string, unknown> {
  return {
    _id: id,
    organization_id: organizationId,
    environment: 'live',
    vendor_id: vendorId,
    status,
    email: `${id}@example.edu`,
    rejection_reason: reason,
    submitted_at: createdAt,
    created_at: createdAt,
    deleted_at: null,
  };
}

beforeAll(async () => {
  const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  try {
    await ensureAllIndexes(store);
    const dal = createDal(store);
    const organization = await dal.organizations.create({ name: 'Portal University', plan: 'education' });
    organizationId = organization.id;
    const live = { organizationId, environment: 'live' as const };
    const sandbox = { organizationId, environment: 'sandbox' as const };
    const a = await dal.vendors.create(live, { name: 'Inquiry Co', type: 'inquiry', group: null, contact_email: null });
    const b = await dal.vendors.create(live, { name: 'Other Co', type: 'inquiry', group: null, contact_email: null });
    vendorA = a.id;
    const issue = async (tenant: TenantContext, vendorId: string, permissions: Array<'read' | 'write'>) =>
      (await dal.apiKeys.create(tenant, { vendorId, name: 'test', permissions, ipRestrictions: [], rateLimit: 10_000 }))
        .key;
    keys.aLive = await issue(live, a.id, ['read', 'write']);
    keys.aSandbox = await issue(sandbox, a.id, ['read', 'write']);
    keys.aWriteOnly = await issue(live, a.id, ['write']);
    keys.bLive = await issue(live, b.id, ['read', 'write']);
    const leads = store.collection('leads');
    await leads.insertMany([
      pastLead('lead_past1', a.id, '2024-02-10T08:00:00.000Z', 'active', null),
      pastLead('lead_past2', a.id, '2024-02-11T23:59:59.999Z', 'rejected', 'missing_required'),
      pastLead('lead_past3', a.id, '2024-02-29T12:00:00.000Z', 'converted', null),
      pastLead('lead_past4', a.id, '2024-03-01T00:00:00.000Z', 'active', null),
      pastLead('lead_past5', b.id, '2024-02-10T09:00:00.000Z', 'active', null),
    ] as never[]);
    // Counting is answered from the tenant/vendor/created_at index, never a scan.
    expect(
      await new VendorReportRepository(store).explainCount(live, a.id, {
        from: '2024-02-01T00:00:00.000Z',
        to: '2024-03-01T00:00:00.000Z',
      }),
    ).toContain('tenant_vendor_created_at');
  } finally {
    await store.close();
  }

  ({ server, url } = await CliProcess.startService(serviceEnv({ DATA_DIR: dataDir })));
}, 180_000);

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function ingest(
  key: string,
  body: unknown,
  sandbox = false,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}${sandbox ? '/sandbox' : ''}/api/v1/leads/ingest`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function get(path: string, key: string): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${key}` } });
}

async function json(path: string, key: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await get(path, key);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Accepted leads are answered before enrichment finishes: wait until nothing is in flight. */
async function settled(path: string, key: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { status, body } = await json(path, key);
    expect(status, JSON.stringify(body)).toBe(200);
    if (body['pending'] === 0) return body;
    // Still pending at the deadline is a failure, not an answer to check counts against.
    if (Date.now() > deadline) throw new Error(`${path} still has leads in flight after 20 s: ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const email = (name: string): string => `${name}.${run}@example.edu`;

describe('vendor portal over leads ingested through the pipeline', () => {
  const submitted: string[] = [];

  beforeAll(async () => {
    const liveA: Array<[unknown, number]> = [
      [{ email: email('ada'), first_name: 'Ada' }, 201],
      [{ email: email('grace'), first_name: 'Grace' }, 201],
      [{ email: email('alan'), first_name: 'Alan' }, 201],
      [{ email: `linus.${run}@gmial.com`, first_name: 'Linus' }, 201],
      [{ email: '=SUM(A1:A9)', first_name: 'Formula' }, 400],
      [{ email: '   ', first_name: 'Blank' }, 400],
      [{ email: `temp.${run}@mailinator.com` }, 422],
      [{ email: email('robot'), website: 'https://spam.example' }, 422],
      [{ email: email('ada'), first_name: 'Ada' }, 409],
    ];
    for (const [body, expected] of liveA) {
      const answer = await ingest(keys.aLive, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(expected);
      submitted.push((body as { email: string }).email);
    }
    // Refused by the API's schema check: never becomes a lead, and counts all the same as a
    // submission and a rejection (a missing field, a wrong type).
    expect((await ingest(keys.aLive, { first_name: 'No email' })).status).toBe(400);
    expect((await ingest(keys.aLive, { email: email('typed'), phone: 12 })).status).toBe(400);
    expect((await ingest(keys.bLive, { email: email('other1') })).status).toBe(201);
    expect((await ingest(keys.bLive, { email: email('other2') })).status).toBe(201);
    expect((await ingest(keys.aSandbox, { email: email('sandbox1') }, true)).status).toBe(201);
    expect((await ingest(keys.aSandbox, { email: email('sandbox2') }, true)).status).toBe(201);
    expect((await ingest(keys.aSandbox, { email: `junk.${run}@mailinator.com` }, true)).status).toBe(422);
  }, 60_000);

  it('daily-stats counts only the key vendor live leads of the day', async () => {
    const body = await settled(`/api/vendor-portal/daily-stats?date=${today}`, keys.aLive);
    expect(body).toEqual({ date: today, submitted: 11, accepted: 4, rejected: 7, pending: 0, acceptance_rate: 0.3636 });
    const implicit = await settled('/api/vendor-portal/daily-stats', keys.aLive);
    expect(implicit['date']).toBe(today);
    expect(await settled('/api/vendor-portal/daily-stats', keys.bLive)).toMatchObject({
      submitted: 2,
      accepted: 2,
      rejected: 0,
      acceptance_rate: 1,
    });
  });

  it('keeps sandbox and live apart', async () => {
    expect(await settled('/sandbox/api/vendor-portal/daily-stats', keys.aSandbox)).toMatchObject({
      submitted: 3,
      accepted: 2,
      rejected: 1,
      acceptance_rate: 0.6667,
    });
    // A sandbox key is refused on the production URL and the other way round (vk_test_ keys work
    // only under /sandbox).
    expect((await json('/api/vendor-portal/daily-stats', keys.aSandbox)).status).toBe(401);
    expect((await json('/sandbox/api/vendor-portal/daily-stats', keys.aLive)).status).toBe(401);
  });

  it('summary breaks rejections down by reason', async () => {
    const [year, month] = today.split('-').map(Number);
    const body = await settled(`/api/vendor-portal/summary/${year}/${month}`, keys.aLive);
    expect(body).toMatchObject({ year, month, submitted: 11, accepted: 4, rejected: 7, acceptance_rate: 0.3636 });
    expect(body['rejection_breakdown']).toEqual({ invalid_email: 1, duplicate: 1, missing_field: 2, other: 3 });
  });

  it('summary and daily-stats bound the month and the day in UTC', async () => {
    expect((await json('/api/vendor-portal/summary/2024/2', keys.aLive)).body).toEqual({
      year: 2024,
      month: 2,
      submitted: 3,
      accepted: 2,
      rejected: 1,
      pending: 0,
      acceptance_rate: 0.6667,
      rejection_breakdown: { invalid_email: 0, duplicate: 0, missing_field: 1, other: 0 },
    });
    expect((await json('/api/vendor-portal/summary/2024/03', keys.aLive)).body).toMatchObject({
      submitted: 1,
      accepted: 1,
    });
    expect((await json('/api/vendor-portal/daily-stats?date=2024-02-11', keys.aLive)).body).toMatchObject({
      submitted: 1,
      rejected: 1,
      acceptance_rate: 0,
    });
    expect((await json('/api/vendor-portal/daily-stats?date=2024-02-10', keys.bLive)).body).toMatchObject({
      submitted: 1,
      accepted: 1,
    });
    expect((await json('/api/vendor-portal/daily-stats?date=2023-01-01', keys.aLive)).body).toEqual({
      date: '2023-01-01',
      submitted: 0,
      accepted: 0,
      rejected: 0,
      pending: 0,
      acceptance_rate: 0,
    });
  });

  it('answers 400 in the ingestion convention for a bad year, month or date', async () => {
    for (const path of [
      '/api/vendor-portal/summary/2024/13',
      '/api/vendor-portal/summary/2024/0',
      '/api/vendor-portal/summary/24/1',
      '/api/vendor-portal/summary/abcd/1',
    ]) {
      const { status, body } = await json(path, keys.aLive);
      expect(status, path).toBe(400);
      expect(body).toMatchObject({ success: false, error: 'Validation failed', code: 'VALIDATION_ERROR' });
    }
    for (const date of ['2024-02-30', '20240210', 'yesterday']) {
      const { status, body } = await json(`/api/vendor-portal/daily-stats?date=${date}`, keys.aLive);
      expect(status, date).toBe(400);
      expect(body['details']).toEqual([{ field: 'date', message: 'date must be a date as YYYY-MM-DD' }]);
    }
  });

  it('needs the read permission', async () => {
    const { status, body } = await json('/api/vendor-portal/daily-stats', keys.aWriteOnly);
    expect(status).toBe(403);
    expect(body).toMatchObject({ success: false, code: 'INSUFFICIENT_PERMISSIONS' });
    expect((await json('/api/vendor-portal/daily-stats', 'vk_live_nope')).status).toBe(401);
  });

  it('exports the vendor leads of a date range as CSV', async () => {
    const response = await get(
      `/api/vendor-portal/export?start_date=${today}&end_date=${today}&format=csv`,
      keys.aLive,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="leads-${today}-to-${today}.csv"`);
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('id,email,status,submitted_at,rejection_reason');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows).toHaveLength(9);
    for (const row of rows) {
      expect(row[0]).toMatch(/^lead_/);
      expect(row[3]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    }
    const byEmail = (value: string) => rows.filter((row) => row[1] === value);
    expect(byEmail(email('ada')).map((row) => [row[2], row[4]])).toEqual([
      ['active', ''],
      ['duplicate', 'duplicate'],
    ]);
    // Submitted text that a spreadsheet would run as a formula is neutralised.
    expect(byEmail("'=SUM(A1:A9)").map((row) => [row[2], row[4]])).toEqual([['rejected', 'invalid_email']]);
    expect(byEmail(`temp.${run}@mailinator.com`).map((row) => row[4])).toEqual(['disposable_email']);
    expect(byEmail(email('robot')).map((row) => row[4])).toEqual(['bot_detected']);
    expect(rows.some((row) => row[1]?.includes('other') || row[1]?.includes('sandbox'))).toBe(false);
  });

  it('exports whole UTC days, both ends included, and only the key vendor', async () => {
    const text = await (
      await get('/api/vendor-portal/export?start_date=2024-02-10&end_date=2024-02-29', keys.aLive)
    ).text();
    expect(
      text
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0]),
    ).toEqual(['lead_past1', 'lead_past2', 'lead_past3']);
    const sandbox = await (
      await get(`/sandbox/api/vendor-portal/export?start_date=${today}&end_date=${today}`, keys.aSandbox)
    ).text();
    expect(sandbox.trimEnd().split('\n')).toHaveLength(4);
    const empty = await get(
      '/api/vendor-portal/export?start_date=2020-01-01&end_date=2020-01-31&format=csv',
      keys.aLive,
    );
    expect(empty.status).toBe(200);
    expect(await empty.text()).toBe('id,email,status,submitted_at,rejection_reason\n');
  });

  it('refuses bad export parameters with 400', async () => {
    const cases: Array<[string, string]> = [
      ['?start_date=2024-02-10&end_date=2024-02-11&format=xlsx', 'format'],
      ['?start_date=2024-02-12&end_date=2024-02-11', 'start_date'],
      ['?end_date=2024-02-11', 'start_date'],
      ['?start_date=2024-02-10', 'end_date'],
      ['?start_date=2024-02-10&end_date=2024-13-01', 'end_date'],
    ];
    for (const [query, field] of cases) {
      const { status, body } = await json(`/api/vendor-portal/export${query}`, keys.aLive);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      expect(
        (body['details'] as Array<{ field: string }>).map((detail) => detail.field),
        query,
      ).toContain(field);
    }
  });

  it('keeps a vendor id in the request from reaching another vendor', async () => {
    // The vendor comes from the key alone; a query parameter naming another vendor is ignored.
    const { body } = await json(`/api/vendor-portal/daily-stats?date=2024-02-10&vendor_id=${vendorA}`, keys.bLive);
    expect(body).toMatchObject({ submitted: 1 });
    expect(submitted).toHaveLength(9);
  });
});
