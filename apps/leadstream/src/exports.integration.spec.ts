/**
 * Lead exports, black box: the real `leadstream start` process on the embedded engines and on
 * Kafka + FerretDB (GridFS for the files). A user registers, makes a vendor and an API key,
 * ingests leads with it, asks for an export, polls it to completion and downloads the CSV; the
 * export.completed event is on leads.events afterwards. Expiry, redelivery and failure are
 * covered in-process in apps/api/src/exports/exports.routes.spec.ts.
 */
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { parseLeadEvents } from '@leadstream/schemas';

const setups = engineSetups('exports');

describe.each(setups)('lead exports on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base: string;
  let owner: string;
  let exportId: string;
  const leadIds: string[] = [];

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    token = owner,
  ): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };

  const register = async (email: string, organization: string): Promise<string> => {
    const response = await call(
      'POST',
      '/api/auth/register',
      { email, password: 'Passw0rd!', first_name: 'Ann', last_name: 'Lee', organization_name: organization },
      '',
    );
    expect(response.status).toBe(201);
    return String(response.body['token']);
  };

  beforeAll(async () => {
    server = CliProcess.start(
      ['start'],
      serviceEnv({ TOPIC_PARTITIONS: '3', DECISION_TIMEOUT_MS: '10000', ...setup.env }),
    );
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    base = String(listening['url']);
    owner = await register('registrar@export.edu', 'Export State University');
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('ingests leads through an API key of the organization', async () => {
    const vendor = await call('POST', '/api/vendors', { name: 'Open House Forms', type: 'inquiry' });
    expect(vendor.status).toBe(201);
    const key = await call('POST', '/api/api-keys', {
      name: 'forms',
      vendor_id: (vendor.body['data'] as { id: string }).id,
      permissions: ['read', 'write'],
    });
    expect(key.status).toBe(201);
    for (const [first, last] of [
      ['Grace', 'Hopper'],
      ['Alan', 'Turing'],
      ['Katherine', 'Johnson'],
    ] as const) {
      const response = await fetch(`${base}/api/v1/leads/ingest`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${(key.body['data'] as { key: string }).key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          email: `${first.toLowerCase()}.${last.toLowerCase()}@example.edu`,
          first_name: first,
          last_name: last,
          program_interest: 'Mathematics',
          form_started_at: new Date(Date.now() - 30_000).toISOString(),
        }),
      });
      expect(response.status).toBe(201);
      leadIds.push(String(((await response.json()) as Record<string, unknown>)['lead_id']));
    }
    // The answer comes with the decision; enrichment (which makes the lead active) may still run,
    // for up to 30 s on Kafka while a consumer group forms (CI once needed more than 10 s).
    for (const id of leadIds) {
      let lead: Record<string, unknown> = {};
      for (let i = 0; i < 600 && lead['enrichment_status'] !== 'completed'; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
        const status = await fetch(`${base}/api/leads/${id}/status`, {
          headers: { authorization: `Bearer ${(key.body['data'] as { key: string }).key}` },
        });
        lead = (await status.json()) as Record<string, unknown>;
      }
      expect(lead).toMatchObject({ status: 'accepted', enrichment_status: 'completed' });
    }
  }, 120_000);

  it('exports them: POST answers processing, GET reaches completed, the download is the CSV', async () => {
    const requested = await call('POST', '/api/leads/export', {
      format: 'csv',
      filters: { status: 'active' },
      fields: ['id', 'email', 'first_name', 'last_name', 'program_interest', 'status'],
    });
    expect(requested.status).toBe(200);
    expect(requested.body).toMatchObject({
      status: 'processing',
      download_url: null,
      estimated_completion: expect.any(String),
    });
    exportId = String(requested.body['export_id']);

    let status = requested;
    for (let i = 0; i < 300 && status.body['status'] === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await call('GET', `/api/exports/${exportId}`);
    }
    expect(status.body).toMatchObject({
      export_id: exportId,
      status: 'completed',
      row_count: 3,
      download_url: `${base}/exports/${exportId}/download`,
    });
    expect(Date.parse(String(status.body['expires_at'])) - Date.now()).toBeGreaterThan(23 * 3_600_000);

    const response = await fetch(String(status.body['download_url']), {
      headers: { authorization: `Bearer ${owner}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = (await response.text()).trimEnd().split('\n');
    expect(header).toBe('id,email,first_name,last_name,program_interest,status');
    expect(rows.sort()).toEqual(
      [
        `${leadIds[0]},grace.hopper@example.edu,Grace,Hopper,Mathematics,active`,
        `${leadIds[1]},alan.turing@example.edu,Alan,Turing,Mathematics,active`,
        `${leadIds[2]},katherine.johnson@example.edu,Katherine,Johnson,Mathematics,active`,
      ].sort(),
    );
    // Without a session token there is no file.
    expect((await fetch(`${base}/exports/${exportId}/download`)).status).toBe(401);
  });

  it('keeps the export from another organization (404) and refuses bad requests (400)', async () => {
    const stranger = await register('dean@other.edu', 'Other College');
    expect((await call('GET', `/api/exports/${exportId}`, undefined, stranger)).status).toBe(404);
    expect((await call('GET', `/exports/${exportId}/download`, undefined, stranger)).status).toBe(404);
    expect((await call('POST', '/api/leads/export', { format: 'pdf' })).status).toBe(400);
  });

  it('left one export.completed event with the documented payload on leads.events', async () => {
    server.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    const log = await setup.openLog();
    try {
      const events = (await readTopic(log, 'leads.events'))
        .flatMap((record) => parseLeadEvents(record.value).map((message) => ({ key: record.key, message })))
        .filter((entry) => entry.message.event.startsWith('export.'));
      expect(events).toHaveLength(1);
      expect(events[0]!.key).toBe(exportId);
      expect(events[0]!.message.data).toMatchObject({
        export_id: exportId,
        format: 'csv',
        row_count: 3,
        download_url: `${base}/exports/${exportId}/download`,
        expires_at: expect.any(String),
      });
    } finally {
      await log.close();
    }
  });
});
