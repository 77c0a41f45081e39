import { hashApiKey, checkKeyUsable } from '@leadstream/domain';
import type { Consumer } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { TOPICS } from '@leadstream/runtime';
import { parseLeadEvent, type LeadEventMessage } from '@leadstream/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from './accounts.test-support';

let server: AccountsTestServer;
let owner: UserApi & { organizationId: string };
let consumer: Consumer;
const events: LeadEventMessage[] = [];

beforeAll(async () => {
  server = await startAccountsServer();
  owner = await UserApi.owner(server.url, 'owner@vendors.edu', 'Vendor College');
  consumer = server.log.consumer({ groupId: 'vendor-events-test', topics: [TOPICS.events], fromBeginning: true });
  await consumer.start(async (batch) => {
    for (const record of batch.records) events.push(parseLeadEvent(JSON.parse(record.value)));
  });
});

afterAll(async () => {
  await consumer?.stop();
  await server?.close();
});

async function eventually<T>(read: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ingest = (key: string): Promise<Response> =>
  fetch(`${server.url}/api/v1/leads/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: '{}',
  });

describe('vendors', () => {
  it('creates, reads, replaces, lists and deletes a vendor', async () => {
    const created = await owner.call('POST', '/api/vendors', {
      name: 'Acme Leads',
      type: 'inquiry',
      group: 'paid',
      contact_email: 'ops@acme.com',
      cost_per_lead: 12.5,
    });
    expect(created.status).toBe(201);
    expect(created.body['data']).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Acme Leads',
      type: 'inquiry',
      enabled: true,
      group: 'paid',
      contact_email: 'ops@acme.com',
      cost_per_lead: 12.5,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = String(dataOf(created)['id']);
    expect((await owner.call('GET', `/api/vendors/${id}`)).body).toEqual(created.body);
    const replaced = await owner.call('PUT', `/api/vendors/${id}`, { name: 'Acme Apply', type: 'application' });
    expect(replaced.body['data']).toMatchObject({
      name: 'Acme Apply',
      type: 'application',
      group: null,
      contact_email: null,
      cost_per_lead: null,
    });
    expect((await owner.call('GET', '/api/vendors')).body['data']).toHaveLength(1);
    expect((await owner.call('DELETE', `/api/vendors/${id}`)).status).toBe(204);
    expect((await owner.call('GET', `/api/vendors/${id}`)).status).toBe(404);
  });

  it('answers invalid bodies with 400 VALIDATION_ERROR and details', async () => {
    const response = await owner.call('POST', '/api/vendors', {
      name: '',
      type: 'partner',
      contact_email: 'nope',
      color: 'red',
      cost_per_lead: -1,
    });
    expect(response.status).toBe(400);
    expect(
      (response.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field).sort(),
    ).toEqual(['color', 'contact_email', 'cost_per_lead', 'name', 'type']);
  });

  it('disable and enable emit vendor.disabled and vendor.enabled once per change; a disabled vendor’s keys get 403', async () => {
    const vendor = await owner.call('POST', '/api/vendors', { name: 'Switchable', type: 'inquiry' });
    const id = String(dataOf(vendor)['id']);
    const key = String(dataOf(await owner.call('POST', '/api/api-keys', { name: 'k', vendor_id: id }))['key']);

    expect((await owner.call('POST', `/api/vendors/${id}/disable`)).body['data']).toMatchObject({ enabled: false });
    expect((await owner.call('POST', `/api/vendors/${id}/disable`)).body['data']).toMatchObject({ enabled: false });
    const refused = await ingest(key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      success: false,
      error: 'Vendor is disabled',
      code: 'INSUFFICIENT_PERMISSIONS',
    });
    expect((await owner.call('POST', `/api/vendors/${id}/enable`)).body['data']).toMatchObject({ enabled: true });

    // Each change is produced before its request is answered: the topic, read to its end now, holds
    // every event these requests made (no waiting window for a duplicate that might still come).
    const forVendor = (await readTopic(server.log, TOPICS.events))
      .map((record) => parseLeadEvent(JSON.parse(record.value)))
      .filter((event) => (event.data['vendor'] as { id?: string } | undefined)?.id === id);
    expect(forVendor.map((event) => event.event)).toEqual(['vendor.disabled', 'vendor.enabled']);
    // A consumer of the topic (as notify and the projector are) gets them too.
    await eventually(() =>
      events.filter((event) => (event.data['vendor'] as { id?: string } | undefined)?.id === id).length >= 2
        ? true
        : undefined,
    );
    expect(forVendor[0]).toEqual({
      schema_version: 1,
      id: expect.stringMatching(/^evt_/),
      event: 'vendor.disabled',
      timestamp: expect.any(String),
      organization_id: owner.organizationId,
      environment: 'live',
      data: { vendor: { id, name: 'Switchable', type: 'inquiry', enabled: false } },
    });
  });
});

describe('names at the edge', () => {
  // U+202E (right-to-left override) in a name reverses every row and sentence that shows it.
  const controls = '\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';

  it('strips bidirectional-text controls from vendor, organization and user names, keeping the letters', async () => {
    const vendor = await owner.call('POST', '/api/vendors', {
      name: '\u202eAcme\u202c Leads',
      type: 'inquiry',
      group: 'paid',
    });
    expect(vendor.status).toBe(201);
    expect(dataOf(vendor)['name']).toBe('Acme Leads');
    const id = String(dataOf(vendor)['id']);
    expect(
      dataOf(await owner.call('PUT', `/api/vendors/${id}`, { name: `Acme${controls} Apply`, type: 'application' }))[
        'name'
      ],
    ).toBe('Acme Apply');
    expect((await owner.call('POST', '/api/vendors', { name: controls, type: 'inquiry' })).body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'name', message: 'name is required' }] },
    });
    expect((await owner.call('DELETE', `/api/vendors/${id}`)).status).toBe(204);

    const organization = await owner.call('PATCH', '/api/organization', { name: '\u2067Vendor College\u2069' });
    expect(dataOf(organization)['name']).toBe('Vendor College');

    const user = await owner.call('POST', '/api/users', {
      email: 'bidi@vendors.edu',
      password: 'Passw0rd!',
      first_name: '\u202eNia',
      last_name: 'Cole\u200f',
      role: 'viewer',
    });
    expect(user.status).toBe(201);
    expect(dataOf(user)).toMatchObject({ first_name: 'Nia', last_name: 'Cole' });
    const patched = await owner.call('PATCH', `/api/users/${String(dataOf(user)['id'])}`, { first_name: 'N\u202dia' });
    expect(dataOf(patched)).toMatchObject({ first_name: 'Nia' });

    const registered = await new UserApi(server.url).call('POST', '/api/auth/register', {
      email: 'bidi.owner@vendors.edu',
      password: 'Passw0rd!',
      first_name: '\u202eOla',
      last_name: 'Ray',
      organization_name: 'Bidi\u202e College',
    });
    expect(registered.status).toBe(201);
    expect(registered.body['user']).toMatchObject({ first_name: 'Ola', last_name: 'Ray' });
    const theirs = await new UserApi(server.url).call(
      'GET',
      '/api/organization',
      undefined,
      String(registered.body['token']),
    );
    expect(dataOf(theirs)['name']).toBe('Bidi College');
  });
});

describe('API keys', () => {
  let vendorId: string;

  beforeAll(async () => {
    vendorId = String(dataOf(await owner.call('POST', '/api/vendors', { name: 'Keyed', type: 'application' }))['id']);
  });

  it('shows the full key once at creation and never the hash', async () => {
    const created = await owner.call('POST', '/api/api-keys', {
      name: 'Website',
      vendor_id: vendorId,
      permissions: ['read', 'write'],
      ip_restrictions: ['10.0.0.0/8'],
      rate_limit: 120,
    });
    expect(created.status).toBe(201);
    expect(created.body['data']).toMatchObject({
      name: 'Website',
      vendor_id: vendorId,
      environment: 'live',
      permissions: ['read', 'write'],
      ip_restrictions: ['10.0.0.0/8'],
      rate_limit: 120,
      enabled: true,
      last_used_at: null,
    });
    const key = String(dataOf(created)['key']);
    expect(key).toMatch(/^vk_live_[0-9A-Za-z]{32}$/);
    expect(dataOf(created)['key_preview']).toBe(`vk_live_${key.slice(8, 12)}…${key.slice(-4)}`);

    const sandbox = await owner.call('POST', '/api/api-keys', {
      name: 'Test',
      vendor_id: vendorId,
      environment: 'sandbox',
    });
    expect(String(dataOf(sandbox)['key'])).toMatch(/^vk_test_/);
    // The default the CLI has too: a key that can submit and read back the status_url of a 202.
    expect(dataOf(sandbox)['permissions']).toEqual(['read', 'write']);

    const list = await owner.call('GET', '/api/api-keys');
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(key);
    expect(text).not.toContain(hashApiKey(key));
    expect(text).not.toContain('key_hash');
    const listed = (list.body['data'] as Array<Record<string, unknown>>).find(
      (entry) => entry['id'] === dataOf(created)['id'],
    );
    expect(Object.keys(listed ?? {}).sort()).toEqual([
      'created_at',
      'enabled',
      'environment',
      'expires_at',
      'id',
      'ip_restrictions',
      'key_preview',
      'last_used_at',
      'name',
      'permissions',
      'rate_limit',
      'revoked_at',
      'vendor_id',
    ]);
    expect(listed?.['revoked_at']).toBeNull();
  });

  it('answers invalid key requests with 400 VALIDATION_ERROR', async () => {
    const response = await owner.call('POST', '/api/api-keys', {
      name: 'x',
      vendor_id: vendorId,
      permissions: ['admin'],
      ip_restrictions: ['not-an-ip'],
      environment: 'prod',
    });
    expect(response.status).toBe(400);
    expect(
      (response.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field).sort(),
    ).toEqual(['environment', 'ip_restrictions', 'permissions']);
  });

  it('changes a key, rotates it with a 24-hour overlap and revokes it', async () => {
    const created = await owner.call('POST', '/api/api-keys', { name: 'Rotating', vendor_id: vendorId });
    const id = String(dataOf(created)['id']);
    const oldKey = String(dataOf(created)['key']);

    const patched = await owner.call('PATCH', `/api/api-keys/${id}`, {
      name: 'Renamed',
      enabled: false,
      permissions: ['read'],
      ip_restrictions: ['127.0.0.1'],
    });
    expect(patched.body['data']).toMatchObject({
      name: 'Renamed',
      enabled: false,
      permissions: ['read'],
      ip_restrictions: ['127.0.0.1'],
    });
    expect(await (await ingest(oldKey)).json()).toMatchObject({ code: 'API_KEY_INVALID' });
    await owner.call('PATCH', `/api/api-keys/${id}`, { enabled: true, permissions: ['write'], ip_restrictions: [] });

    const rotated = await owner.call('POST', `/api/api-keys/${id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(Object.keys(rotated.body).sort()).toEqual(['message', 'new_key']);
    const newKey = String(rotated.body['new_key']);
    const now = new Date();
    const old = await server.dal.apiKeys.findByHash(hashApiKey(oldKey));
    const fresh = await server.dal.apiKeys.findByHash(hashApiKey(newKey));
    if (!old || !fresh)
      throw new Error(
        `a key is missing after the rotation: old ${old ? 'found' : 'missing'}, new ${fresh ? 'found' : 'missing'}`,
      );
    expect(old.id).toBe(id);
    expect(fresh.id).not.toBe(id);
    // Both keys work during the overlap; after it, only the new one.
    expect(checkKeyUsable(old, now)).toBeNull();
    expect(checkKeyUsable(fresh, now)).toBeNull();
    const afterOverlap = new Date(now.getTime() + 24 * 3600 * 1000 + 1000);
    expect(checkKeyUsable(old, afterOverlap)).toMatchObject({ code: 'API_KEY_INVALID' });
    expect(checkKeyUsable(fresh, afterOverlap)).toBeNull();

    expect((await owner.call('DELETE', `/api/api-keys/${id}`)).status).toBe(204);
    const revoked = await ingest(oldKey);
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toMatchObject({ success: false, code: 'API_KEY_REVOKED' });
    expect((await owner.call('DELETE', `/api/api-keys/${id}`)).status).toBe(404);
    // A revoked key stays listed, with when it was revoked, so the list tells what happened to it;
    // it cannot be changed or rotated any more.
    const listed = (await owner.call('GET', '/api/api-keys')).body['data'] as Array<Record<string, unknown>>;
    const entry = listed.find((key) => key.id === id);
    expect(entry).toMatchObject({ id, name: 'Renamed' });
    expect(Date.now() - Date.parse(String(entry?.['revoked_at']))).toBeLessThan(60_000);
    expect((await owner.call('PATCH', `/api/api-keys/${id}`, { enabled: false })).status).toBe(404);
    expect((await owner.call('POST', `/api/api-keys/${id}/rotate`)).status).toBe(404);
  });
});

describe('organization', () => {
  it('reads and patches the name and validation settings, refusing bad settings with details', async () => {
    const current = await owner.call('GET', '/api/organization');
    expect(current.body['data']).toMatchObject({
      name: 'Vendor College',
      plan: 'education',
      settings: { validation: { allow_disposable_emails: false, mx_check: true } },
    });
    const patched = await owner.call('PATCH', '/api/organization', {
      name: 'Vendor University',
      settings: {
        validation: {
          allow_disposable_emails: true,
          default_phone_country: 'gb',
          required_fields: ['phone'],
          bot_detection: { flag_below_ms: 5000 },
        },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body['data']).toMatchObject({
      name: 'Vendor University',
      settings: {
        validation: {
          allow_disposable_emails: true,
          mx_check: true,
          default_phone_country: 'GB',
          required_fields: ['phone'],
          bot_detection: { flag_below_ms: 5000, reject_below_ms: 1000, honeypot: true },
        },
      },
    });
    const bad = await owner.call('PATCH', '/api/organization', {
      settings: {
        validation: {
          mx_check: 'yes',
          default_phone_country: 'Germany',
          bot_detection: { reject_below_ms: 9000, high_risk_ips: ['x'] },
          extra: 1,
        },
      },
    });
    expect(bad.status).toBe(400);
    expect(
      (bad.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field).sort(),
    ).toEqual([
      'settings.validation.bot_detection.flag_below_ms',
      'settings.validation.bot_detection.high_risk_ips',
      'settings.validation.default_phone_country',
      'settings.validation.extra',
      'settings.validation.mx_check',
    ]);
    expect((await owner.call('GET', '/api/organization')).body['data']).toMatchObject({ name: 'Vendor University' });
  });

  it('DELETE (owner only) removes the users, revokes the keys and frees the emails', async () => {
    const doomed = await UserApi.owner(server.url, 'owner@doomed.edu', 'Doomed College');
    const admin = await doomed.member('admin@doomed.edu', 'admin');
    const vendor = String(dataOf(await doomed.call('POST', '/api/vendors', { name: 'V', type: 'inquiry' }))['id']);
    const key = String(dataOf(await doomed.call('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }))['key']);
    expect((await admin.call('DELETE', '/api/organization')).status).toBe(403);
    expect((await doomed.call('DELETE', '/api/organization')).status).toBe(204);
    expect((await doomed.call('GET', '/api/organization')).body).toMatchObject({ error: { code: 'TOKEN_INVALID' } });
    expect(await (await ingest(key)).json()).toMatchObject({ code: 'API_KEY_REVOKED' });
    expect(
      (await doomed.call('POST', '/api/auth/login', { email: 'owner@doomed.edu', password: 'Passw0rd!' }, undefined))
        .status,
    ).toBe(401);
    expect(
      (
        await new UserApi(server.url).call('POST', '/api/auth/register', {
          email: 'owner@doomed.edu',
          password: 'Passw0rd!',
          first_name: 'Re',
          last_name: 'Born',
          organization_name: 'Phoenix',
        })
      ).status,
    ).toBe(201);
  });
});
