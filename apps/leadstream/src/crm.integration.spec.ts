/**
 * CRM sync end to end on `leadstream start` (docs/crm.md): a CRM fake on loopback receives each
 * routed lead exactly once, on both engine sets. Leads ingested through HTTP go
 * through the pipeline; the route stage sends each to every enabled connection (no routing rule);
 * crm-sync posts them to a JSON receiver on loopback that fails its first call (503) and upserts
 * by external_id. Each live lead reaches the receiver as one record, the lead shows synced with
 * the receiver's id, lead.crm_synced is in its activity, and the sandbox lead is never sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';

const setups = engineSetups('crm-sync');
const AUTH = 'Bearer crm-integration-secret';

interface Receiver {
  url: string;
  /** Records by external_id, with how many writes each had. */
  records: Map<string, { id: string; email: unknown; writes: number }>;
  posts: string[];
  close(): Promise<void>;
}

/** A generic JSON CRM: refuses its first sync with 503, then upserts by external_id. */
async function startReceiver(): Promise<Receiver> {
  const records = new Map<string, { id: string; email: unknown; writes: number }>();
  const posts: string[] = [];
  let failFirst = true;
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== AUTH) return answer(401, { error: { message: 'bad token' } });
      if (request.headers['x-leadstream-test'] === 'true') return answer(200, { ok: true });
      const body = JSON.parse(text) as { external_id: string; lead: { email: unknown } };
      posts.push(body.external_id);
      if (failFirst) {
        failFirst = false;
        return answer(503, { error: { message: 'warming up' } });
      }
      const existing = records.get(body.external_id);
      if (existing) existing.writes++;
      else records.set(body.external_id, { id: `rec_${records.size + 1}`, email: body.lead.email, writes: 1 });
      return answer(existing ? 200 : 201, { id: records.get(body.external_id)!.id });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm`,
    records,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(setups)('CRM sync on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let receiver: Receiver;
  let base = '';
  const call = jsonClient(() => base);
  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        TOPIC_PARTITIONS: '2',
        DECISION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        CRM_RETRY_SCHEDULE: '1s,2s',
        ...setup.env,
      }),
    ));
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await receiver?.close();
    await setup.cleanup();
  });

  it('sends each routed live lead to the CRM exactly once, and no sandbox lead', async () => {
    const token = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'crm.owner@example.edu',
          password: 'Crm-Passw0rd',
          first_name: 'Cr',
          last_name: 'Mowner',
          organization_name: 'CRM College',
        })
      ).body['token'],
    );
    const connection = await call(
      'POST',
      '/api/crm/connections',
      { name: 'Campus CRM', type: 'webhook_json', settings: { url: receiver.url }, credentials: { auth_value: AUTH } },
      token,
    );
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    expect(
      (await call('POST', `/api/crm/connections/${String(data(connection.body)['id'])}/test`, undefined, token)).body,
    ).toMatchObject({ success: true });
    const vendor = String(
      data((await call('POST', '/api/vendors', { name: 'CRM Leads', type: 'inquiry' }, token)).body)['id'],
    );
    const key = String(
      data((await call('POST', '/api/api-keys', { name: 'live', vendor_id: vendor }, token)).body)['key'],
    );
    const sandboxKey = String(
      data(
        (await call('POST', '/api/api-keys', { name: 'sandbox', vendor_id: vendor, environment: 'sandbox' }, token))
          .body,
      )['key'],
    );

    const leadIds: string[] = [];
    for (const name of ['ada', 'grace', 'edsger']) {
      const ingested = await call(
        'POST',
        '/api/v1/leads/ingest',
        { email: `${name}@example.edu`, first_name: name, last_name: 'Pioneer' },
        key,
      );
      expect(ingested.status, JSON.stringify(ingested.body)).toBe(201);
      leadIds.push(String(ingested.body['lead_id']));
    }
    const sandbox = await call(
      'POST',
      '/sandbox/api/v1/leads/ingest',
      { email: 'sandy@example.edu', first_name: 'Sandy', last_name: 'Box' },
      sandboxKey,
    );
    expect(sandbox.status).toBe(201);

    // The first lead's first call is refused (503) and retried through crm.retry.1s.
    const deadline = Date.now() + 60_000;
    let leads: Array<Record<string, unknown>> = [];
    while (Date.now() < deadline) {
      leads = await Promise.all(
        leadIds.map(async (id) => data((await call('GET', `/api/leads/${id}`, undefined, token)).body)),
      );
      if (leads.every((lead) => lead['crm_sync_status'] === 'synced')) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(leads.map((lead) => [lead['crm_sync_status'], lead['crm_id']])).toEqual(
      leadIds.map((id) => ['synced', receiver.records.get(id)?.id]),
    );
    expect([...receiver.records.keys()].sort()).toEqual([...leadIds].sort());
    expect([...receiver.records.values()].map((record) => record.writes)).toEqual([1, 1, 1]);
    // Four calls for three leads: the refused first one and its retry are the same lead.
    expect(receiver.posts).toHaveLength(4);
    expect(receiver.posts).not.toContain(String(sandbox.body['lead_id']));

    let activity: Array<{ event: string }> = [];
    for (let i = 0; i < 100 && !activity.some((entry) => entry.event === 'lead.crm_synced'); i++) {
      activity = ((await call('GET', `/api/leads/${leadIds[0]!}/activity`, undefined, token)).body['data'] ??
        []) as Array<{ event: string }>;
      if (!activity.some((entry) => entry.event === 'lead.crm_synced'))
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(activity.map((entry) => entry.event)).toContain('lead.crm_synced');
    const [listed] = (await call('GET', '/api/crm/connections', undefined, token)).body['data'] as Array<
      Record<string, unknown>
    >;
    expect(listed).toMatchObject({ stats: { synced: 3, failed: 0 }, credentials_set: true });
  });
});
