/**
 * The connectors' calls (CrmClient over the outbound-HTTP module) against the CRM fake on
 * loopback: connection tests of each type, a refused OAuth client, the token kept between syncs,
 * and the failures that are no HTTP answer (a timeout, a closed port, a target refused before
 * any connection).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseCrmConnectionInput, type CrmConnection } from '@leadstream/domain';
import { CrmClient } from '@leadstream/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_HUBSPOT_TOKEN, FAKE_SALESFORCE, FAKE_WEBHOOK_AUTH, startFakeCrm, type FakeCrm } from './crm-fakes.test-support';

let fake: FakeCrm;
let silent: Server;
let silentUrl = '';
const client = new CrmClient({ timeoutMs: 300, allowInsecureTargets: true });
const lead = { _id: 'lead_client1', email: 'ada@example.edu', first_name: 'Ada', last_name: 'Lovelace' };
const target = { owner: null, queue: null };

beforeAll(async () => {
  fake = await startFakeCrm();
  // Accepts the request and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fake.close();
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

function connection(body: Record<string, unknown>): CrmConnection {
  const parsed = parseCrmConnectionInput(body);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.details));
  return { ...parsed.input, id: `crm_${String(body['name'])}`, updated_at: '2026-01-01T00:00:00.000Z' } as CrmConnection;
}
const sf = (secret = FAKE_SALESFORCE.clientSecret) => connection({ name: `sf${secret.length}`, type: 'salesforce', settings: { instance_url: fake.url }, credentials: { client_id: FAKE_SALESFORCE.clientId, client_secret: secret } });
const hs = (token = FAKE_HUBSPOT_TOKEN) => connection({ name: `hs${token.length}`, type: 'hubspot', settings: { base_url: fake.url }, credentials: { private_app_token: token } });
const hook = (url = `${fake.url}/hook`) => connection({ name: 'hook', type: 'webhook_json', settings: { url }, credentials: { auth_value: FAKE_WEBHOOK_AUTH } });

describe('CrmClient against a CRM on loopback', () => {
  it('tests each type of connection without writing, and reports refused credentials', async () => {
    for (const good of [sf(), hs(), hook()]) expect(await client.test(good), good.type).toMatchObject({ success: true, responseStatus: 200 });
    expect(fake.records.salesforce.size + fake.records.hubspot.size + fake.records.webhook.size).toBe(0);
    expect(await client.test(sf('wrong-secret'))).toMatchObject({ success: false, responseStatus: 400, error: 'token request failed: HTTP 400: invalid client credentials' });
    expect(await client.test(hs('pat-wrong'))).toMatchObject({ success: false, responseStatus: 401, error: 'HTTP 401: Authentication credentials not found.' });
  });

  it('keeps the Salesforce token between syncs, and a refused client is a permanent failure', async () => {
    const connection: CrmConnection = { ...sf(), id: 'crm_sf_sync' };
    const before = fake.tokensIssued;
    const first = await client.sync(connection, lead, target, null);
    const second = await client.sync(connection, lead, target, null);
    expect(first.outcome).toMatchObject({ kind: 'synced', created: true });
    expect(second.outcome).toMatchObject({ kind: 'synced', created: false });
    expect(fake.tokensIssued - before).toBe(1);
    expect(fake.records.salesforce.get('lead_client1')?.writes).toBe(2);
    expect((await client.sync(sf('bad-secret!'), lead, target, null)).outcome).toEqual({ kind: 'permanent', error: 'token request failed: HTTP 400: invalid client credentials', status: 400 });
  });

  it('treats a timeout and a closed port as retryable, a refused target as permanent, and HubSpot 401 as permanent', async () => {
    expect((await client.sync(hook(`${silentUrl}/hook`), lead, target, null)).outcome).toEqual({ kind: 'retryable', error: 'no answer within 300 ms', status: null, retryAfterMs: null });
    const closed = await client.sync(hook('http://127.0.0.1:1/hook'), lead, target, null);
    expect(closed.outcome).toMatchObject({ kind: 'retryable', status: null });
    const strict = new CrmClient({ timeoutMs: 300 });
    expect((await strict.sync(hook(), lead, target, null)).outcome).toEqual({ kind: 'permanent', error: 'the target must use https', status: null });
    expect((await client.sync(hs('pat-revoked'), lead, target, null)).outcome).toEqual({ kind: 'permanent', error: 'HTTP 401: Authentication credentials not found. (credentials refused)', status: 401 });
  });
});
