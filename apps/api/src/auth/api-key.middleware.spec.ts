import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Router from '@koa/router';
import { COLLECTIONS, type Dal } from '@leadstream/dal';
import { type ApiKeyPermission, hashApiKey, type TenantContext } from '@leadstream/domain';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer } from '../accounts/accounts.test-support';
import { startApiTestServer } from '../api.test-support';
import { apiKeyAuth, type ApiKeyAuthState } from './api-key.middleware';
import { startAuthTestServer, type AuthTestServer } from './auth.test-support';

let server: AuthTestServer;
let live: TenantContext;
let sandbox: TenantContext;
let vendorId: string;
let disabledVendorId: string;
const keys: Record<string, string> = {};

/** What the middleware logs, one JSON entry per line. */
const logLines: string[] = [];
const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
const logged = (from: number): Array<Record<string, unknown>> =>
  logLines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);

/** A store that cannot take the `last_used_at` write (a primary stepping down, a full disk). */
function storeUnavailable(): Error {
  return Object.assign(new Error('connection reset while writing api_keys'), { code: 'ECONNRESET' });
}

function routes(dal: Dal): Router<ApiKeyAuthState> {
  const router = new Router<ApiKeyAuthState>();
  const echo = (ctx: Router.RouterContext<ApiKeyAuthState>): void => {
    ctx.status = 201;
    ctx.body = { success: true, tenant: ctx.state.tenant, vendor_id: ctx.state.vendorId, key_id: ctx.state.apiKey.id };
  };
  const auth = (permission: ApiKeyPermission) =>
    apiKeyAuth<ApiKeyAuthState>({ apiKeys: dal.apiKeys, vendors: dal.vendors, logger }, permission);
  router.post('/api/v1/leads/ingest', auth('write'), echo);
  router.post('/sandbox/api/v1/leads/ingest', auth('write'), echo);
  router.get('/api/vendor-portal/leads/:id', auth('read'), echo);
  const unrecorded = {
    findByHash: (keyHash: string) => dal.apiKeys.findByHash(keyHash),
    touchLastUsed: () => Promise.reject(storeUnavailable()),
  };
  router.post(
    '/api/leads/inbound',
    apiKeyAuth<ApiKeyAuthState>({ apiKeys: unrecorded, vendors: dal.vendors, logger }, 'write'),
    echo,
  );
  return router;
}

async function issue(
  name: string,
  tenant: TenantContext,
  options: { permissions?: ApiKeyPermission[]; ip?: string[]; vendor?: string } = {},
): Promise<string> {
  const { key } = await server.dal.apiKeys.create(tenant, {
    vendorId: options.vendor ?? vendorId,
    name,
    permissions: options.permissions ?? ['write'],
    ipRestrictions: options.ip ?? [],
  });
  keys[name] = key;
  return key;
}

beforeAll(async () => {
  server = await startAuthTestServer(routes);
  const { dal } = server;
  const org = await dal.organizations.create({ name: 'State University' });
  live = { organizationId: org.id, environment: 'live' };
  sandbox = { organizationId: org.id, environment: 'sandbox' };
  vendorId = (await dal.vendors.create(live, { name: 'Acme', type: 'inquiry' })).id;
  disabledVendorId = (await dal.vendors.create(live, { name: 'Paused', type: 'inquiry', enabled: false })).id;
  await issue('live', live);
  await issue('sandbox', sandbox);
  await issue('readOnly', live, { permissions: ['read'] });
  await issue('disabledVendor', live, { vendor: disabledVendorId });
  await issue('goneVendor', live, { vendor: '00000000-0000-4000-8000-000000000000' });
  await issue('v4Only', live, { ip: ['127.0.0.1'] });
  await issue('v4Cidr', live, { ip: ['127.0.0.0/8'] });
  await issue('elsewhere', live, { ip: ['10.0.0.0/8', '2001:db8::/32'] });
  await issue('v6Only', live, { ip: ['::1'] });
  await issue('v6Cidr', live, { ip: ['::/96', '::1/128'] });
  await dal.apiKeys.revoke(live, (await dal.apiKeys.findByHash(hashApiKey(await issue('revoked', live))))!.id);
  const disabled = await issue('disabled', live);
  await server.store
    .collection(COLLECTIONS.apiKeys)
    .updateOne({ key_hash: hashApiKey(disabled) }, { $set: { enabled: false } });
  const rotatedAway = await issue('expired', live);
  await server.store
    .collection(COLLECTIONS.apiKeys)
    .updateOne({ key_hash: hashApiKey(rotatedAway) }, { $set: { expires_at: new Date(Date.now() - 1000) } });
});

afterAll(async () => {
  await server?.close();
});

function call(
  key: string | undefined,
  path = '/api/v1/leads/ingest',
  base = server.v4,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: path.includes('vendor-portal') ? 'GET' : 'POST',
    headers: { ...(key === undefined ? {} : { authorization: `Bearer ${key}` }), ...headers },
  });
}

async function expectError(response: Response, status: number, code: string, error: string): Promise<void> {
  expect(response.status).toBe(status);
  expect(await response.json()).toEqual({ success: false, error, code });
}

describe('API key authentication', () => {
  it('admits a valid key and sets the tenant, vendor and key on the context', async () => {
    const response = await call(keys['live']);
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: true, tenant: live, vendor_id: vendorId });
    const stored = await server.dal.apiKeys.findById(live, String(body['key_id']));
    expect(stored?.last_used_at).toBeInstanceOf(Date);
  });

  it('answers a missing header, a non-Bearer header and an unknown or malformed key with 401 API_KEY_INVALID', async () => {
    await expectError(
      await call(undefined),
      401,
      'API_KEY_INVALID',
      'API key required: send Authorization: Bearer <API_KEY>',
    );
    await expectError(
      await call(undefined, undefined, undefined, { authorization: `Basic ${keys['live']}` }),
      401,
      'API_KEY_INVALID',
      'API key required: send Authorization: Bearer <API_KEY>',
    );
    await expectError(await call(`vk_live_${'x'.repeat(32)}`), 401, 'API_KEY_INVALID', 'Invalid API key');
    await expectError(await call('vk_live_short'), 401, 'API_KEY_INVALID', 'Invalid API key');
  });

  it('answers a disabled key and a rotated key past its overlap with 401 API_KEY_INVALID', async () => {
    await expectError(await call(keys['disabled']), 401, 'API_KEY_INVALID', 'API key is disabled');
    await expectError(await call(keys['expired']), 401, 'API_KEY_INVALID', 'API key has expired');
  });

  it('answers a revoked key with 401 API_KEY_REVOKED', async () => {
    await expectError(await call(keys['revoked']), 401, 'API_KEY_REVOKED', 'API key has been revoked');
  });

  it('answers a key without the route permission with 403 INSUFFICIENT_PERMISSIONS', async () => {
    await expectError(
      await call(keys['readOnly']),
      403,
      'INSUFFICIENT_PERMISSIONS',
      "API key lacks the 'write' permission",
    );
    expect((await call(keys['readOnly'], '/api/vendor-portal/leads/lead_1')).status).toBe(201);
    await expectError(
      await call(keys['live'], '/api/vendor-portal/leads/lead_1'),
      403,
      'INSUFFICIENT_PERMISSIONS',
      "API key lacks the 'read' permission",
    );
  });

  it('refuses keys of a disabled vendor with 403 and of a vanished vendor with 401', async () => {
    await expectError(await call(keys['disabledVendor']), 403, 'INSUFFICIENT_PERMISSIONS', 'Vendor is disabled');
    await expectError(await call(keys['goneVendor']), 401, 'API_KEY_INVALID', 'Invalid API key');
  });
});

describe('sandbox and production base URLs', () => {
  it('admits a vk_test_ key under /sandbox, in the sandbox tenant', async () => {
    const response = await call(keys['sandbox'], '/sandbox/api/v1/leads/ingest');
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ tenant: sandbox });
  });

  it('refuses a vk_test_ key outside /sandbox and a vk_live_ key under it, naming the URL to use', async () => {
    await expectError(
      await call(keys['sandbox']),
      401,
      'API_KEY_INVALID',
      'Sandbox keys (vk_test_) work only against the sandbox base URL: use /sandbox/api/v1/leads/ingest',
    );
    await expectError(
      await call(keys['live'], '/sandbox/api/v1/leads/ingest'),
      401,
      'API_KEY_INVALID',
      'Production keys (vk_live_) do not work against the sandbox base URL: use /api/v1/leads/ingest',
    );
  });
});

describe('IP restrictions', () => {
  const restricted = (response: Response) =>
    expectError(response, 403, 'IP_RESTRICTED', 'Request from an address outside the IP restrictions of this API key');

  it('admits IPv4 clients by address and by CIDR range, refuses others', async () => {
    expect((await call(keys['v4Only'])).status).toBe(201);
    expect((await call(keys['v4Cidr'])).status).toBe(201);
    await restricted(await call(keys['elsewhere']));
  });

  it('ignores X-Forwarded-For while app.proxy is off', async () => {
    await restricted(await call(keys['elsewhere'], undefined, undefined, { 'x-forwarded-for': '10.1.2.3' }));
  });

  it('admits IPv6 clients by address and by range, and keeps the families apart', async (context) => {
    if (!server.v6) context.skip();
    expect((await call(keys['v6Only'], undefined, server.v6)).status).toBe(201);
    expect((await call(keys['v6Cidr'], undefined, server.v6)).status).toBe(201);
    await restricted(await call(keys['v4Cidr'], undefined, server.v6));
    await restricted(await call(keys['v6Only'], undefined, server.v4));
    await restricted(await call(keys['elsewhere'], undefined, server.v6));
  });
});

describe('recording key use (last_used_at)', () => {
  it('logs a failed last_used_at write as a warning with its code, and still answers the request', async () => {
    const from = logLines.length;
    const response = await call(keys['live'], '/api/leads/inbound');
    expect(response.status).toBe(201);
    const body = (await response.json()) as { key_id: string };
    expect(body).toEqual({ success: true, tenant: live, vendor_id: vendorId, key_id: expect.any(String) });
    expect(logged(from)).toEqual([
      expect.objectContaining({
        level: 40,
        code: 'api_key_last_used_write_failed',
        api_key_id: body.key_id,
        organization_id: live.organizationId,
        err: expect.objectContaining({ message: 'connection reset while writing api_keys', code: 'ECONNRESET' }),
      }),
    ]);
  });

  it('logs nothing when the write succeeds', async () => {
    const from = logLines.length;
    expect((await call(keys['v4Only'])).status).toBe(201);
    expect(logged(from)).toEqual([]);
  });

  it('is logged by the vendor API as the api app wires it (ingestion and vendor portal)', async () => {
    const lines: string[] = [];
    const app = await startApiTestServer({
      dir: mkdtempSync(join(tmpdir(), 'api-key-touch-')),
      mailer: new CapturingMailer(),
      logger: pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }),
    });
    try {
      const organization = await app.dal.organizations.create({ name: 'Touchless College' });
      const tenant: TenantContext = { organizationId: organization.id, environment: 'live' };
      const vendor = await app.dal.vendors.create(tenant, { name: 'Acme', type: 'inquiry' });
      const issue = async (name: string) => {
        const issued = await app.dal.apiKeys.create(tenant, {
          vendorId: vendor.id,
          name,
          permissions: ['read'],
          ipRestrictions: [],
        });
        return { key: issued.key, id: (await app.dal.apiKeys.findByHash(hashApiKey(issued.key)))?.id };
      };
      const ingestion = await issue('ingestion');
      const portal = await issue('portal');
      app.dal.apiKeys.touchLastUsed = () => Promise.reject(storeUnavailable());
      const status = await fetch(`${app.url}/api/leads/lead_unknown/status`, {
        headers: { authorization: `Bearer ${ingestion.key}` },
      });
      expect(status.status).toBe(404);
      expect(await status.json()).toEqual({ success: false, error: 'Lead not found', code: 'LEAD_NOT_FOUND' });
      const stats = await fetch(`${app.url}/api/vendor-portal/daily-stats?date=2026-11-24`, {
        headers: { authorization: `Bearer ${portal.key}` },
      });
      expect(stats.status).toBe(200);
      expect(await stats.json()).toEqual({
        date: '2026-11-24',
        submitted: 0,
        accepted: 0,
        rejected: 0,
        pending: 0,
        acceptance_rate: 0,
      });
      const warnings = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((entry) => entry['code'] === 'api_key_last_used_write_failed');
      const failure = {
        level: 40,
        organization_id: organization.id,
        err: expect.objectContaining({ code: 'ECONNRESET' }),
      };
      expect(warnings).toEqual([
        expect.objectContaining({ ...failure, api_key_id: ingestion.id }),
        expect.objectContaining({ ...failure, api_key_id: portal.id }),
      ]);
    } finally {
      await app.close();
    }
  });
});
