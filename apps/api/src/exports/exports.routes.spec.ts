/**
 * Lead exports over real HTTP on the embedded engines (docs/decisions.md "Exports"), with the
 * export stage run in-process on the requests the api produced: validation, the whole asynchronous
 * path to a downloaded CSV, the export.completed event, tenancy, expiry (410) on an injected clock,
 * a redelivered request, a failing file store (export.failed) and the export rate limit.
 */
import type { Readable } from 'node:stream';
import { leadSearchFields, startLead, type LeadRecord } from '@leadstream/domain';
import type { ExportFileStore, LogRecord } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { TOPICS } from '@leadstream/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserApi } from '../accounts/accounts.test-support';
import { startExportsServer, type ExportsTestServer } from './exports.test-support';

let server: ExportsTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;
let other: Awaited<ReturnType<typeof UserApi.owner>>;

function storedLead(organizationId: string, id: string, fields: Partial<LeadRecord>): LeadRecord {
  const at = fields.created_at ?? new Date().toISOString();
  const lead: LeadRecord = {
    _id: id,
    organization_id: organizationId,
    environment: 'live',
    vendor_id: 'vendor-1',
    status: 'active',
    email: `${id}@example.edu`,
    first_name: null,
    last_name: null,
    phone: null,
    source: null,
    program: null,
    program_interest: null,
    ip_address: null,
    user_agent: null,
    landing_page: null,
    referrer: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    custom_fields: {},
    enrichment_data: {},
    validation_status: 'passed',
    enrichment_status: 'completed',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: id,
    bk_email: null,
    bk_phone: null,
    bk_name: null,
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 1,
    applied_messages: [],
    outbox: [],
    ...fields,
  };
  // The lowercase copies the validate stage writes, which the list's and the export's search read.
  return { ...lead, ...leadSearchFields(lead) };
}

/** Records of exports.requests not yet handed to the stage. */
let delivered = 0;
async function nextRequests(): Promise<LogRecord[]> {
  const records = await readTopic(server.log, TOPICS.exportRequests);
  const fresh = records.slice(delivered);
  delivered = records.length;
  return fresh;
}

async function requestExport(api: UserApi, body: unknown): Promise<{ id: string; record: LogRecord }> {
  const response = await api.call('POST', '/api/leads/export', body);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const [record] = await nextRequests();
  expect(record?.key).toBe(response.body['export_id']);
  return { id: String(response.body['export_id']), record: record! };
}

async function download(api: UserApi, path: string): Promise<Response> {
  return fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${api.token ?? ''}` } });
}

async function exportEvents(): Promise<
  Array<{ id: string; event: string; organization_id: string; data: Record<string, unknown> }>
> {
  return (await readTopic(server.log, TOPICS.events)).map(
    (record) =>
      JSON.parse(record.value) as { id: string; event: string; organization_id: string; data: Record<string, unknown> },
  );
}

beforeAll(async () => {
  server = await startExportsServer();
  owner = await UserApi.owner(server.url, 'export.owner@example.edu', 'Export College');
  other = await UserApi.owner(server.url, 'export.other@example.edu', 'Other College');
  const leads = server.store.collection<LeadRecord>('leads');
  await leads.insertMany([
    storedLead(owner.organizationId, 'lead_a1', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+14155552671',
      program: 'CS',
      created_at: '2026-01-01T10:00:00.000Z',
    }),
    storedLead(owner.organizationId, 'lead_a2', {
      first_name: '=HYPERLINK("http://evil")',
      last_name: 'Doe, "JD"',
      program: 'CS',
      created_at: '2026-01-02T10:00:00.000Z',
    }),
    storedLead(owner.organizationId, 'lead_a3', {
      status: 'rejected',
      first_name: 'Rex',
      program: 'CS',
      created_at: '2026-01-03T10:00:00.000Z',
    }),
    storedLead(owner.organizationId, 'lead_a4', {
      first_name: 'Gone',
      program: 'CS',
      deleted_at: '2026-01-05T00:00:00.000Z',
      created_at: '2026-01-04T10:00:00.000Z',
    }),
    storedLead(owner.organizationId, 'lead_a5', {
      first_name: 'Bea',
      program: 'Nursing',
      created_at: '2026-01-05T10:00:00.000Z',
    }),
    storedLead(other.organizationId, 'lead_b1', {
      first_name: 'Other',
      program: 'CS',
      created_at: '2026-01-01T11:00:00.000Z',
    }),
  ]);
});

afterAll(async () => {
  await server?.close();
});

describe('POST /api/leads/export validation', () => {
  it('refuses an unknown format, unknown fields and bad filters with details', async () => {
    const response = await owner.call('POST', '/api/leads/export', {
      format: 'xlsx',
      fields: ['id', 'password_hash'],
      filters: { status: 'lost', start_date: 'yesterday', colour: 'red' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const fields = (response.body['error'] as { details: Array<{ field: string }> }).details
      .map((detail) => detail.field)
      .sort();
    expect(fields).toEqual(['fields', 'filters.colour', 'filters.start_date', 'filters.status', 'format']);
    expect(await nextRequests()).toEqual([]);
  });

  it('refuses a start_date after the end_date and a body that is not an object', async () => {
    const dates = await owner.call('POST', '/api/leads/export', {
      format: 'csv',
      filters: { start_date: '2026-02-01', end_date: '2026-01-01' },
    });
    expect(dates).toMatchObject({
      status: 400,
      body: { error: { code: 'VALIDATION_ERROR', details: [{ field: 'filters.start_date' }] } },
    });
    const list = await owner.call('POST', '/api/leads/export', ['csv']);
    expect(list).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
    expect(await nextRequests()).toEqual([]);
  });

  it('needs a session token', async () => {
    const response = await owner.call('POST', '/api/leads/export', { format: 'csv' }, '');
    expect(response).toMatchObject({ status: 401, body: { error: { code: 'TOKEN_INVALID' } } });
    expect(await nextRequests()).toEqual([]);
  });
});

describe('an export from request to download', () => {
  let exportId: string;
  let request: LogRecord;

  it('answers processing with an estimate, and 409 on download until the stage has run', async () => {
    const response = await owner.call('POST', '/api/leads/export', {
      format: 'csv',
      filters: { program: 'CS', end_date: '2026-01-03' },
      fields: ['id', 'first_name', 'last_name', 'phone', 'status'],
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'processing', download_url: null });
    expect(response.body['export_id']).toMatch(/^export_[0-9a-f]{32}$/);
    expect(Date.parse(String(response.body['estimated_completion']))).toBeGreaterThan(server.now().getTime());
    expect(response.headers.get('x-ratelimit-limit')).toBe('10');
    exportId = String(response.body['export_id']);
    const requests = await nextRequests();
    expect(requests).toHaveLength(1);
    request = requests[0]!;

    const status = await owner.call('GET', `/api/exports/${exportId}`);
    expect(status.body).toMatchObject({
      export_id: exportId,
      status: 'processing',
      download_url: null,
      expires_at: null,
      row_count: null,
    });
    expect(status.body['estimated_completion']).toEqual(expect.any(String));
    const early = await download(owner, `/exports/${exportId}/download`);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: { code: 'EXPORT_NOT_READY' } });
  });

  it('completes: the CSV has the requested columns and the matching rows of the organization only', async () => {
    await server.deliver(request);
    const status = await owner.call('GET', `/api/exports/${exportId}`);
    expect(status.body).toMatchObject({
      export_id: exportId,
      status: 'completed',
      row_count: 3,
      download_url: `${server.url}/exports/${exportId}/download`,
    });
    expect(status.body).not.toHaveProperty('estimated_completion');
    const expiresAt = Date.parse(String(status.body['expires_at']));
    expect(expiresAt - Date.parse(String(status.body['completed_at']))).toBe(24 * 3_600_000);

    for (const path of [`/exports/${exportId}/download`, `/api/exports/${exportId}/download`]) {
      const response = await download(owner, path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${exportId}.csv"`);
      const lines = (await response.text()).trimEnd().split('\n');
      // Newest first; deleted, rejected-by-date and other-program leads and the other organization are absent.
      expect(lines).toEqual([
        'id,first_name,last_name,phone,status',
        'lead_a3,Rex,,,rejected',
        `lead_a2,"'=HYPERLINK(""http://evil"")","Doe, ""JD""",,active`,
        'lead_a1,Ada,Lovelace,+14155552671,active',
      ]);
    }
  });

  it('emits export.completed with the documented payload, keyed by export id', async () => {
    const events = (await exportEvents()).filter((event) => event.event === 'export.completed');
    expect(events).toHaveLength(1);
    const status = await owner.call('GET', `/api/exports/${exportId}`);
    expect(events[0]).toMatchObject({ organization_id: owner.organizationId });
    expect(events[0]!.data).toEqual({
      export_id: exportId,
      format: 'csv',
      row_count: 3,
      download_url: status.body['download_url'],
      expires_at: status.body['expires_at'],
    });
  });

  it('does nothing when the same request is delivered again', async () => {
    const before = await server.store.collection('exports').findOne({ _id: exportId });
    await server.deliver(request);
    await server.deliver(request);
    const after = await server.store.collection('exports').findOne({ _id: exportId });
    expect(after).toEqual(before);
    expect((await exportEvents()).filter((event) => event.event.startsWith('export.'))).toHaveLength(1);
  });

  it('is 404 for another organization, on status and download', async () => {
    expect((await other.call('GET', `/api/exports/${exportId}`)).status).toBe(404);
    const response = await download(other, `/exports/${exportId}/download`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await owner.call('GET', '/api/exports/export_doesnotexist')).status).toBe(404);
  });

  it('is 410 Gone once 24 hours have passed; the sweep removes the file and marks it expired', async () => {
    server.advance(24 * 3_600_000 - 60_000);
    expect((await download(owner, `/exports/${exportId}/download`)).status).toBe(200);
    server.advance(60_000);
    const gone = await download(owner, `/exports/${exportId}/download`);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toMatchObject({ error: { code: 'EXPORT_EXPIRED' } });
    expect((await owner.call('GET', `/api/exports/${exportId}`)).body).toMatchObject({
      status: 'expired',
      download_url: null,
    });

    expect(await server.files.get(exportId)).not.toBeNull();
    expect(await server.sweep()).toEqual({ expired: 1, restarted: 0 });
    expect(await server.files.get(exportId)).toBeNull();
    expect(await server.store.collection('exports').findOne({ _id: exportId })).toMatchObject({
      status: 'expired',
      file_id: null,
      actor: { state: 'expired' },
    });
    expect(await server.sweep()).toEqual({ expired: 0, restarted: 0 });
    expect((await download(owner, `/api/exports/${exportId}/download`)).status).toBe(410);
  });
});

describe('exports with default fields, search and dates', () => {
  it('exports the list columns by default and applies search', async () => {
    const { id, record } = await requestExport(owner, { format: 'csv', filters: { search: 'lovel' } });
    await server.deliver(record);
    const csv = await (await download(owner, `/exports/${id}/download`)).text();
    const [header, ...rows] = csv.trimEnd().split('\n');
    expect(header).toBe(
      'id,email,first_name,last_name,phone,status,source,vendor_id,vendor_name,program,program_interest,ip_address,user_agent,utm_source,utm_medium,utm_campaign,custom_fields,enrichment_data,created_at,updated_at',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/^lead_a1,lead_a1@example.edu,Ada,Lovelace,/);
  });

  it('matches search as the list does: phone digits whatever the formatting', async () => {
    const { id, record } = await requestExport(owner, {
      format: 'csv',
      filters: { search: '(415) 555' },
      fields: ['id', 'phone'],
    });
    await server.deliver(record);
    const csv = await (await download(owner, `/exports/${id}/download`)).text();
    expect(csv).toBe('id,phone\nlead_a1,+14155552671\n');
    const list = await owner.call('GET', `/api/leads?search=${encodeURIComponent('(415) 555')}`);
    expect((list.body['data'] as Array<{ id: string }>).map((lead) => lead.id)).toEqual(['lead_a1']);
  });

  it('completes with a header only when nothing matches', async () => {
    const { id, record } = await requestExport(owner, {
      format: 'csv',
      filters: { status: 'converted' },
      fields: ['id', 'email'],
    });
    await server.deliver(record);
    expect((await owner.call('GET', `/api/exports/${id}`)).body).toMatchObject({ status: 'completed', row_count: 0 });
    expect(await (await download(owner, `/exports/${id}/download`)).text()).toBe('id,email\n');
  });
});

describe('vendor names beside vendor ids', () => {
  it('adds vendor_name after vendor_id, as the vendor is named now, guarded like every cell', async () => {
    const names = await UserApi.owner(server.url, 'export.names@example.edu', 'Names College');
    const vendor = async (name: string): Promise<string> =>
      String(((await names.call('POST', '/api/vendors', { name, type: 'inquiry' })).body['data'] as { id: string }).id);
    const fairs = await vendor('College Fairs, "East"');
    const formula = await vendor('=1+2 Leads');
    await server.store.collection<LeadRecord>('leads').insertMany([
      storedLead(names.organizationId, 'lead_n1', { vendor_id: fairs, created_at: '2026-02-01T10:00:00.000Z' }),
      storedLead(names.organizationId, 'lead_n2', { vendor_id: formula, created_at: '2026-02-02T10:00:00.000Z' }),
      // Its vendor was deleted since: the id stays, the name is empty.
      storedLead(names.organizationId, 'lead_n3', { vendor_id: 'vendor-gone', created_at: '2026-02-03T10:00:00.000Z' }),
    ]);
    const { id, record } = await requestExport(names, { format: 'csv', fields: ['id', 'vendor_id', 'status'] });
    await server.deliver(record);
    expect(
      (await names.call('PUT', `/api/vendors/${fairs}`, { name: 'College Fairs, "East & West"', type: 'inquiry' }))
        .status,
    ).toBe(200);
    const csv = await (await download(names, `/api/exports/${id}/download`)).text();
    expect(csv.trimEnd().split('\n')).toEqual([
      'id,vendor_id,vendor_name,status',
      'lead_n3,vendor-gone,,active',
      `lead_n2,${formula},'=1+2 Leads,active`,
      `lead_n1,${fairs},"College Fairs, ""East & West""",active`,
    ]);
    // Without vendor_id, no vendor_name either: the columns are the ones asked for.
    const plain = await requestExport(names, { format: 'csv', fields: ['id', 'status'] });
    await server.deliver(plain.record);
    expect(await (await download(names, `/exports/${plain.id}/download`)).text()).toBe(
      'id,status\nlead_n3,active\nlead_n2,active\nlead_n1,active\n',
    );
  });
});

describe('a failing export', () => {
  it('is marked failed with export.failed when the file store fails, and cannot be downloaded', async () => {
    const { id, record } = await requestExport(owner, { format: 'csv' });
    const failing: ExportFileStore = {
      ...server.files,
      engine: 'filesystem',
      put: async (_id: string, content: Readable) => {
        content.resume();
        throw new Error('disk full');
      },
      get: (fileId) => server.files.get(fileId),
      delete: (fileId) => server.files.delete(fileId),
      close: async () => undefined,
    };
    await server.deliver(record, { files: failing });
    const status = await owner.call('GET', `/api/exports/${id}`);
    expect(status.body).toMatchObject({
      export_id: id,
      status: 'failed',
      download_url: null,
      row_count: null,
      error: expect.stringContaining('failed'),
    });
    const failed = (await exportEvents()).filter((event) => event.event === 'export.failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.data).toEqual({ export_id: id, error: status.body['error'] });
    const response = await download(owner, `/exports/${id}/download`);
    expect(response.status).toBe(409);

    // A redelivery of a failed export does nothing either.
    await server.deliver(record);
    expect((await owner.call('GET', `/api/exports/${id}`)).body['status']).toBe('failed');
    expect((await exportEvents()).filter((event) => event.event === 'export.failed')).toHaveLength(1);
  });
});

describe('an export whose generation is interrupted', () => {
  /** A file store whose writes wait for `release`; counts the writes it was asked for. */
  function gatedFiles(): { files: ExportFileStore; release: () => void; puts: () => number } {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let puts = 0;
    return {
      files: {
        engine: 'filesystem',
        put: async (id: string, content: Readable) => {
          puts++;
          await gate;
          return server.files.put(id, content);
        },
        get: (id) => server.files.get(id),
        delete: (id) => server.files.delete(id),
        close: async () => undefined,
      },
      release: () => open(),
      puts: () => puts,
    };
  }

  it('does not start a second generation when the request comes again while the first runs', async () => {
    const { id, record } = await requestExport(owner, { format: 'csv', fields: ['id'] });
    const first = gatedFiles();
    const running = server.worker({ files: first.files });
    await running.handle(record);
    expect(first.puts()).toBe(1);
    const second = gatedFiles();
    await server.deliver(record, { files: second.files });
    expect(second.puts()).toBe(0);
    expect((await owner.call('GET', `/api/exports/${id}`)).body['status']).toBe('processing');
    first.release();
    await running.idle();
    expect((await owner.call('GET', `/api/exports/${id}`)).body).toMatchObject({ status: 'completed', row_count: 4 });
    expect(
      (await exportEvents()).filter((event) => event.event === 'export.completed' && event.data['export_id'] === id),
    ).toHaveLength(1);
  });

  it('is restarted by the sweep after its process stopped mid-file, and completes once', async () => {
    const { id, record } = await requestExport(owner, { format: 'csv', fields: ['id', 'email'] });
    const stalled = gatedFiles();
    const stopping = server.worker({ files: stalled.files });
    await stopping.handle(record);
    const stopped = stopping.stop();
    stalled.release();
    await stopped;
    const left = await server.store.collection('exports').findOne({ _id: id });
    expect(left).toMatchObject({ status: 'processing', lease_until: new Date(0) });
    expect(await server.files.get(id)).toBeNull();

    expect(await server.sweep()).toEqual({ expired: 0, restarted: 1 });
    expect((await owner.call('GET', `/api/exports/${id}`)).body).toMatchObject({ status: 'completed', row_count: 4 });
    expect(await server.store.collection('exports').findOne({ _id: id })).toMatchObject({
      actor: { context: { attempts: 2 } },
    });
    expect((await download(owner, `/exports/${id}/download`)).status).toBe(200);
    expect(
      (await exportEvents()).filter((event) => event.event.startsWith('export.') && event.data['export_id'] === id),
    ).toHaveLength(1);
  });
});

describe('the export rate limit', () => {
  it('allows 10 export requests a minute per user, then answers 429 with Retry-After', async () => {
    const member = await owner.member('export.viewer@example.edu', 'viewer');
    for (let i = 0; i < 10; i++)
      expect((await member.call('POST', '/api/leads/export', { format: 'csv' })).status).toBe(200);
    const limited = await member.call('POST', '/api/leads/export', { format: 'csv' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'RATE_LIMIT_EXCEEDED' } });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another user has their own counter.
    expect((await owner.call('POST', '/api/leads/export', { format: 'csv' })).status).toBe(200);
    await nextRequests();
  });
});
