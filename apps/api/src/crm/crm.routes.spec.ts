/**
 * CRM connection routes over real HTTP on the embedded engines (docs/crm.md):
 * credentials are write-only and encrypted at rest, roles, the connection test against a
 * receiver on loopback, deletion, tenancy, and the manual sync's 202 with its request on
 * crm.sync.requests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CrmConnectionRepository, CrmSyncRepository, LeadRepository } from '@leadstream/dal';
import { startLead, type LeadRecord, type SalesforceCredentials } from '@leadstream/domain';
import { CredentialsCipher, crmCredentialsContext } from '@leadstream/runtime';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer, dataOf, UserApi } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

const SECRET = 'Bearer s3cret-crm-token-7f2a';
const CRM_KEY = randomBytes(32);
/** The test's DNS: names of CRMs and what they resolve to (no name leaves the process). */
const NAMES: Record<string, string> = {
  'example.my.salesforce.com': '93.184.215.14',
  'crm.example.com': '93.184.215.14',
  'metadata.example.test': '169.254.169.254',
};
async function resolve(hostname: string): Promise<string[]> {
  const address = NAMES[hostname];
  if (!address) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  return [address];
}
let server: ApiTestServer;
let receiver: Server;
let receiverUrl = '';
const received: Array<{ headers: Record<string, unknown>; body: string }> = [];
let owner: Awaited<ReturnType<typeof UserApi.owner>>;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const ok = request.headers.authorization === SECRET;
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      response.end(JSON.stringify(ok ? { ok: true } : { error: { message: 'bad token' } }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  server = await startApiTestServer({
    dir: mkdtempSync(join(tmpdir(), 'leadstream-crm-')),
    mailer: new CapturingMailer(),
    topics: ['crm.sync.requests'],
    repositories: [LeadRepository, CrmConnectionRepository, CrmSyncRepository],
    crm: { credentialsKey: CRM_KEY, allowInsecureTargets: true, timeoutMs: 2_000, resolve },
  });
  owner = await UserApi.owner(server.url, 'crm.owner@example.edu', 'CRM College');
});

afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const webhookConnection = (overrides: Record<string, unknown> = {}) => ({
  name: 'Campus CRM',
  type: 'webhook_json',
  settings: { url: receiverUrl, field_mapping: { email: 'email', given_name: 'first_name' } },
  credentials: { auth_value: SECRET },
  ...overrides,
});

function lead(organizationId: string, id: string): LeadRecord {
  const at = new Date().toISOString();
  return {
    _id: id,
    organization_id: organizationId,
    environment: 'live',
    vendor_id: 'vendor-1',
    status: 'active',
    email: `${id}@example.edu`,
    first_name: 'Ann',
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
  };
}

describe('CRM connections', () => {
  it('creates a connection whose credentials are never answered and are encrypted in the store', async () => {
    const created = await owner.call('POST', '/api/crm/connections', webhookConnection());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connection = dataOf(created);
    expect(connection).toMatchObject({
      name: 'Campus CRM',
      type: 'webhook_json',
      enabled: true,
      settings: {
        url: receiverUrl,
        auth_header: 'Authorization',
        id_field: 'id',
        record_url_template: null,
        field_mapping: { email: 'email', given_name: 'first_name' },
      },
      credentials_set: true,
      credential_fields: ['auth_value'],
      last_sync_at: null,
      stats: { synced: 0, failed: 0 },
    });
    expect(JSON.stringify(created.body)).not.toContain('s3cret');
    const listed = await owner.call('GET', '/api/crm/connections');
    expect(listed.status).toBe(200);
    expect(listed.body['data']).toEqual([connection]);
    expect(JSON.stringify(listed.body)).not.toContain('s3cret');

    const stored = await server.store.collection('crm_connections').findOne({ _id: String(connection['id']) });
    expect(stored?.['credentials_encrypted']).toMatch(/^v1:/);
    expect(JSON.stringify(stored)).not.toContain('s3cret');
  });

  it('answers 400 with every problem of a body, and keeps CRM configuration to owners and admins', async () => {
    const invalid = await owner.call('POST', '/api/crm/connections', {
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'not a url', external_id_field: 'Plain' },
      credentials: {},
    });
    expect(invalid.status).toBe(400);
    const details = (invalid.body['error'] as { details: Array<{ field: string }> }).details.map(
      (detail) => detail.field,
    );
    expect(details).toEqual([
      'settings.instance_url',
      'settings.external_id_field',
      'credentials.client_id',
      'credentials.client_secret',
    ]);

    const admin = await owner.member('crm.admin@example.edu', 'admin');
    expect((await admin.call('GET', '/api/crm/connections')).status).toBe(200);
    const manager = await owner.member('crm.manager@example.edu', 'manager');
    const refused = await manager.call('GET', '/api/crm/connections');
    expect(refused.status).toBe(403);
    expect((refused.body['error'] as { code: string }).code).toBe('INSUFFICIENT_PERMISSIONS');
    expect((await manager.call('POST', '/api/crm/connections', webhookConnection())).status).toBe(403);
  });

  it('tests a connection against the CRM without writing to it, and reports a refusal', async () => {
    const good = dataOf(await owner.call('POST', '/api/crm/connections', webhookConnection({ name: 'Good' })));
    const before = received.length;
    const tested = await owner.call('POST', `/api/crm/connections/${String(good['id'])}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: true, response_status: 200 });
    expect(received.slice(before).map((request) => [request.headers['x-leadstream-test'], request.body])).toEqual([
      ['true', '{"test":true}'],
    ]);

    const bad = dataOf(
      await owner.call(
        'POST',
        '/api/crm/connections',
        webhookConnection({ name: 'Bad', credentials: { auth_value: 'Bearer wrong' } }),
      ),
    );
    const refused = await owner.call('POST', `/api/crm/connections/${String(bad['id'])}/test`);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ success: false, response_status: 401, error: 'HTTP 401: bad token' });
  });

  it('queues a manual sync (202) for a lead of the organization, and 404s for unknown leads and connections', async () => {
    const connection = dataOf(await owner.call('POST', '/api/crm/connections', webhookConnection({ name: 'Manual' })));
    const id = String(connection['id']);
    await server.store.collection<LeadRecord>('leads').insertOne(lead(owner.organizationId, 'lead_manual1'));
    const queued = await owner.call('POST', `/api/crm/${id}/sync/lead_manual1`);
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    expect(dataOf(queued)).toMatchObject({
      id: `crmsync_lead_manual1_${id}`,
      lead_id: 'lead_manual1',
      connection_id: id,
      status: 'pending',
      previous_status: null,
      crm_id: null,
    });
    const requests = (await readTopic(server.log, 'crm.sync.requests')).map((record) => ({
      key: record.key,
      value: JSON.parse(record.value) as Record<string, unknown>,
    }));
    expect(requests).toEqual([
      {
        key: 'lead_manual1',
        value: expect.objectContaining({
          kind: 'manual',
          sync_id: `crmsync_lead_manual1_${id}`,
          organization_id: owner.organizationId,
          environment: 'live',
        }),
      },
    ]);

    const unknownLead = await owner.call('POST', `/api/crm/${id}/sync/lead_nobody`);
    expect(unknownLead.status).toBe(404);
    expect((unknownLead.body['error'] as { code: string }).code).toBe('LEAD_NOT_FOUND');
    const other = await UserApi.owner(server.url, 'crm.other@example.edu', 'Other College');
    expect((await other.call('POST', `/api/crm/${id}/sync/lead_manual1`)).status).toBe(404);
    expect((await other.call('POST', `/api/crm/connections/${id}/test`)).status).toBe(404);
    expect((await other.call('DELETE', `/api/crm/connections/${id}`)).status).toBe(404);
  });

  it('changes a connection in place: name, settings and credentials, same id, credentials still never answered', async () => {
    const created = dataOf(
      await owner.call(
        'POST',
        '/api/crm/connections',
        webhookConnection({ name: 'Editable', credentials: { auth_value: 'Bearer wrong' } }),
      ),
    );
    const id = String(created['id']);
    expect((await owner.call('POST', `/api/crm/connections/${id}/test`)).body).toMatchObject({
      success: false,
      response_status: 401,
    });

    const fixed = await owner.call('PATCH', `/api/crm/connections/${id}`, {
      name: 'Edited',
      credentials: { auth_value: SECRET },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(dataOf(fixed)).toMatchObject({
      id,
      name: 'Edited',
      type: 'webhook_json',
      credential_fields: ['auth_value'],
      settings: created['settings'],
    });
    expect(Date.parse(String(dataOf(fixed)['updated_at']))).toBeGreaterThan(Date.parse(String(created['updated_at'])));
    expect(JSON.stringify(fixed.body)).not.toContain('s3cret');
    expect((await owner.call('POST', `/api/crm/connections/${id}/test`)).body).toMatchObject({
      success: true,
      response_status: 200,
    });

    // New settings keep the stored credentials; enabled alone changes only that.
    const remapped = await owner.call('PATCH', `/api/crm/connections/${id}`, {
      settings: { url: receiverUrl, field_mapping: { mail: 'email' } },
    });
    expect(remapped.status, JSON.stringify(remapped.body)).toBe(200);
    expect(dataOf(remapped)['settings']).toMatchObject({ field_mapping: { mail: 'email' } });
    expect((await owner.call('POST', `/api/crm/connections/${id}/test`)).body).toMatchObject({ success: true });
    const disabled = await owner.call('PATCH', `/api/crm/connections/${id}`, { enabled: false });
    expect(dataOf(disabled)).toMatchObject({
      id,
      name: 'Edited',
      enabled: false,
      settings: { field_mapping: { mail: 'email' } },
    });
    const listed = (
      (await owner.call('GET', '/api/crm/connections')).body['data'] as Array<Record<string, unknown>>
    ).find((entry) => entry['id'] === id);
    expect(listed).toMatchObject({ name: 'Edited', enabled: false });
    expect(Date.parse(String(dataOf(disabled)['updated_at']))).toBeGreaterThan(
      Date.parse(String(dataOf(remapped)['updated_at'])),
    );

    // The write is conditional on the connection as read: a stale read changes nothing.
    const repository = new CrmConnectionRepository(server.store);
    const tenant = { organizationId: owner.organizationId, environment: 'live' as const };
    expect(
      await repository.update(tenant, id, String(created['updated_at']), {
        name: 'Stale',
        updated_at: new Date().toISOString(),
      }),
    ).toBeNull();
    expect((await repository.findById(tenant, id))?.name).toBe('Edited');
  });

  it('refuses a PATCH that changes the type, is empty, or leaves credentials that do not suit the new settings', async () => {
    const created = dataOf(
      await owner.call('POST', '/api/crm/connections', {
        name: 'SF',
        type: 'salesforce',
        settings: { instance_url: 'https://example.my.salesforce.com' },
        credentials: { client_id: 'id', client_secret: 'secret' },
      }),
    );
    const id = String(created['id']);
    const fields = async (body: unknown): Promise<string[]> => {
      const answer = await owner.call('PATCH', `/api/crm/connections/${id}`, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect((answer.body['error'] as { code: string }).code).toBe('VALIDATION_ERROR');
      return (answer.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field);
    };
    expect(await fields({ type: 'hubspot' })).toEqual(['type']);
    expect(await fields({})).toEqual(['(body)']);
    expect(await fields({ name: 'x', colour: 'red' })).toEqual(['colour']);
    expect(
      await fields({ settings: { instance_url: 'https://example.my.salesforce.com', grant_type: 'refresh_token' } }),
    ).toEqual(['credentials.refresh_token']);
    const withToken = await owner.call('PATCH', `/api/crm/connections/${id}`, {
      settings: { instance_url: 'https://example.my.salesforce.com', grant_type: 'refresh_token' },
      credentials: { client_id: 'id', client_secret: 'secret', refresh_token: 'refresh' },
    });
    expect(withToken.status, JSON.stringify(withToken.body)).toBe(200);
    expect(dataOf(withToken)).toMatchObject({
      settings: { grant_type: 'refresh_token' },
      credential_fields: ['client_id', 'client_secret', 'refresh_token'],
    });

    const manager = await owner.member('crm.patcher@example.edu', 'manager');
    expect((await manager.call('PATCH', `/api/crm/connections/${id}`, { name: 'Mine' })).status).toBe(403);
    const other = await UserApi.owner(server.url, 'crm.patch.other@example.edu', 'Patch Other College');
    expect((await other.call('PATCH', `/api/crm/connections/${id}`, { name: 'Mine' })).status).toBe(404);
  });

  it("takes keep_assignment_rules for Salesforce (default false: a routed owner is not replaced by Salesforce's assignment rules)", async () => {
    const salesforce = (settings: Record<string, unknown>) =>
      owner.call('POST', '/api/crm/connections', {
        name: 'SF rules',
        type: 'salesforce',
        settings: { instance_url: 'https://example.my.salesforce.com', ...settings },
        credentials: { client_id: 'id', client_secret: 'secret' },
      });
    const plain = await salesforce({});
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(dataOf(plain)['settings']).toMatchObject({ keep_assignment_rules: false });
    const keeping = await salesforce({ keep_assignment_rules: true });
    expect(keeping.status, JSON.stringify(keeping.body)).toBe(201);
    expect(dataOf(keeping)['settings']).toMatchObject({ keep_assignment_rules: true });
    const id = String(dataOf(plain)['id']);
    const patched = await owner.call('PATCH', `/api/crm/connections/${id}`, {
      settings: { instance_url: 'https://example.my.salesforce.com', keep_assignment_rules: true },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(dataOf(patched)['settings']).toMatchObject({ keep_assignment_rules: true });
    const wrong = await salesforce({ keep_assignment_rules: 'yes' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        details: [
          { field: 'settings.keep_assignment_rules', message: 'settings.keep_assignment_rules must be a boolean' },
        ],
      },
    });
    // Not a setting of the other types.
    const hubspot = await owner.call('POST', '/api/crm/connections', {
      name: 'HS',
      type: 'hubspot',
      settings: { keep_assignment_rules: true },
      credentials: { private_app_token: 't' },
    });
    expect(hubspot.body).toMatchObject({ error: { details: [{ field: 'settings.keep_assignment_rules' }] } });
  });

  it('stores the refresh token a rotating Salesforce answers to a connection test, encrypted, and sends it next time', async () => {
    // A Salesforce org with refresh-token rotation: each refresh answers a new refresh token and retires the one sent.
    const sent: string[] = [];
    let current = 'refresh-0';
    let issued = 0;
    const org = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        const answer = (status: number, body: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(body));
        };
        if (request.url === '/services/oauth2/token') {
          const token = new URLSearchParams(text).get('refresh_token') ?? '';
          sent.push(token);
          if (token !== current)
            return answer(400, { error: 'invalid_grant', error_description: 'expired access/refresh token' });
          current = `refresh-${++issued}`;
          return answer(200, {
            access_token: `access-${issued}`,
            refresh_token: current,
            instance_url: `http://${String(request.headers.host)}`,
          });
        }
        return answer(200, { name: 'Lead', fields: [] });
      });
    });
    await new Promise<void>((done) => org.listen(0, '127.0.0.1', done));
    try {
      const orgUrl = `http://127.0.0.1:${(org.address() as AddressInfo).port}`;
      const created = dataOf(
        await owner.call('POST', '/api/crm/connections', {
          name: 'Rotating SF',
          type: 'salesforce',
          settings: { instance_url: orgUrl, grant_type: 'refresh_token' },
          credentials: { client_id: 'id', client_secret: 'secret', refresh_token: 'refresh-0' },
        }),
      );
      const id = String(created['id']);
      expect((await owner.call('POST', `/api/crm/connections/${id}/test`)).body).toMatchObject({
        success: true,
        response_status: 200,
      });
      const stored = await server.store.collection('crm_connections').findOne({ _id: id });
      const credentials = new CredentialsCipher(CRM_KEY).decryptJson<SalesforceCredentials>(
        stored?.['credentials_encrypted'] as string,
        crmCredentialsContext(owner.organizationId, id),
      );
      expect(credentials).toEqual({ client_id: 'id', client_secret: 'secret', refresh_token: 'refresh-1' });
      expect(JSON.stringify(stored)).not.toContain('refresh-1');
      expect(stored?.['updated_at']).toBe(created['updated_at']);
      expect((await owner.call('POST', `/api/crm/connections/${id}/test`)).body).toMatchObject({ success: true });
      expect(sent).toEqual(['refresh-0', 'refresh-1']);
    } finally {
      org.closeAllConnections();
      await new Promise((done) => org.close(done));
    }
  });

  it('takes new credentials for a connection whose stored ones cannot be decrypted (the key changed)', async () => {
    const created = dataOf(await owner.call('POST', '/api/crm/connections', webhookConnection({ name: 'Old key' })));
    const id = String(created['id']);
    await server.store
      .collection('crm_connections')
      .updateOne({ _id: id }, { $set: { credentials_encrypted: 'v1:AAAA:BBBB:CCCC' } });
    // Disabling it (or renaming it) needs no credentials.
    const disabled = await owner.call('PATCH', `/api/crm/connections/${id}`, { enabled: false });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(dataOf(disabled)).toMatchObject({ id, enabled: false });
    const resettled = await owner.call('PATCH', `/api/crm/connections/${id}`, { settings: { url: receiverUrl } });
    expect(resettled.status).toBe(400);
    expect((resettled.body['error'] as { details: Array<{ field: string; message: string }> }).details).toEqual([
      { field: 'credentials', message: expect.stringContaining('CRM_CREDENTIALS_KEY') },
    ]);
    const rekeyed = await owner.call('PATCH', `/api/crm/connections/${id}`, {
      enabled: true,
      credentials: { auth_value: SECRET },
    });
    expect(rekeyed.status, JSON.stringify(rekeyed.body)).toBe(200);
    expect((await owner.call('POST', `/api/crm/connections/${id}/test`)).body).toMatchObject({
      success: true,
      response_status: 200,
    });
  });

  it('deletes a connection', async () => {
    const connection = dataOf(
      await owner.call('POST', '/api/crm/connections', webhookConnection({ name: 'Short-lived' })),
    );
    const id = String(connection['id']);
    expect((await owner.call('DELETE', `/api/crm/connections/${id}`)).status).toBe(204);
    expect((await owner.call('DELETE', `/api/crm/connections/${id}`)).status).toBe(404);
    const names = (
      ((await owner.call('GET', '/api/crm/connections')).body['data'] ?? []) as Array<{ name: string }>
    ).map((entry) => entry.name);
    expect(names).not.toContain('Short-lived');
  });
});

describe('CRM connection targets, checked when saved (insecure targets not allowed)', () => {
  let secure: ApiTestServer;
  let admin: Awaited<ReturnType<typeof UserApi.owner>>;

  beforeAll(async () => {
    secure = await startApiTestServer({
      dir: mkdtempSync(join(tmpdir(), 'leadstream-crm-secure-')),
      mailer: new CapturingMailer(),
      topics: ['crm.sync.requests'],
      repositories: [LeadRepository, CrmConnectionRepository, CrmSyncRepository],
      crm: { credentialsKey: randomBytes(32), allowInsecureTargets: false, timeoutMs: 2_000, resolve },
    });
    admin = await UserApi.owner(secure.url, 'crm.secure@example.edu', 'Secure College');
  });

  afterAll(async () => {
    await secure?.close();
  });

  const fields = (response: { body: Record<string, unknown> }) =>
    ((response.body['error'] as { details?: Array<{ field: string }> } | undefined)?.details ?? []).map(
      (detail) => detail.field,
    );
  const hook = (url: string) => ({ name: 'Hook', type: 'webhook_json', settings: { url }, credentials: {} });

  it('refuses a URL that does not reach a public address, with 400 on the setting that names it', async () => {
    for (const url of [
      'https://169.254.169.254/x',
      'https://2130706433/h',
      'https://127.0.0.1/h',
      'https://[::1]/h',
      'https://[::127.0.0.1]/h',
      'https://metadata.example.test/h',
      'https://nowhere.example.test/h',
      'http://crm.example.com/h',
    ]) {
      const response = await admin.call('POST', '/api/crm/connections', hook(url));
      expect(response.status, url).toBe(400);
      expect(response.body, url).toMatchObject({
        error: { code: 'VALIDATION_ERROR', message: 'Invalid CRM connection' },
      });
      expect(fields(response), url).toEqual(['settings.url']);
    }
    const salesforce = (settings: Record<string, unknown>) =>
      admin.call('POST', '/api/crm/connections', {
        name: 'SF',
        type: 'salesforce',
        settings,
        credentials: { client_id: 'id', client_secret: 'secret' },
      });
    expect(
      fields(
        await salesforce({
          instance_url: 'https://example.my.salesforce.com',
          token_url: 'https://169.254.169.254/token',
        }),
      ),
    ).toEqual(['settings.token_url']);
    // The token URL defaults to one on the instance's host.
    expect(fields(await salesforce({ instance_url: 'https://127.0.0.1' }))).toEqual([
      'settings.instance_url',
      'settings.token_url',
    ]);
    const hubspot = await admin.call('POST', '/api/crm/connections', {
      name: 'HS',
      type: 'hubspot',
      settings: { base_url: 'https://[64:ff9b::a9fe:a9fe]' },
      credentials: { private_app_token: 't' },
    });
    expect(fields(hubspot)).toEqual(['settings.base_url']);
    expect((await admin.call('GET', '/api/crm/connections')).body['data']).toEqual([]);
  });

  it('takes a public URL, and refuses a PATCH to a non-public one', async () => {
    const created = await admin.call('POST', '/api/crm/connections', hook('https://crm.example.com/leads'));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = String(dataOf(created)['id']);
    const patched = await admin.call('PATCH', `/api/crm/connections/${id}`, {
      settings: { url: 'https://169.254.169.254/latest' },
    });
    expect(patched.status).toBe(400);
    expect(fields(patched)).toEqual(['settings.url']);
    expect((await admin.call('PATCH', `/api/crm/connections/${id}`, { enabled: false })).status).toBe(200);
    const salesforce = await admin.call('POST', '/api/crm/connections', {
      name: 'SF',
      type: 'salesforce',
      settings: { instance_url: 'https://example.my.salesforce.com' },
      credentials: { client_id: 'id', client_secret: 'secret' },
    });
    expect(salesforce.status, JSON.stringify(salesforce.body)).toBe(201);
  });

  it('refuses an auth_header leadstream sets itself (Host)', async () => {
    const response = await admin.call('POST', '/api/crm/connections', {
      name: 'Hook',
      type: 'webhook_json',
      settings: { url: 'https://crm.example.com/leads', auth_header: 'Host' },
      credentials: { auth_value: 'evil.example' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'settings.auth_header' }] },
    });
  });
});
