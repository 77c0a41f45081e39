/**
 * Tenancy (docs/permissions.md): a user of organization A gets 404, never 403, for any resource
 * id of organization B on every route with an id, and B's resources stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from './accounts.test-support';

let server: AccountsTestServer;
let a: UserApi;
let b: UserApi;
const ids = { user: '', vendor: '', apiKey: '' };

beforeAll(async () => {
  server = await startAccountsServer();
  a = await UserApi.owner(server.url, 'owner@a.edu', 'College A');
  b = await UserApi.owner(server.url, 'owner@b.edu', 'College B');
  ids.user = (await b.member('staff@b.edu', 'manager')).userId;
  ids.vendor = String(dataOf(await b.call('POST', '/api/vendors', { name: 'B Leads', type: 'inquiry' }))['id']);
  ids.apiKey = String(
    dataOf(await b.call('POST', '/api/api-keys', { name: 'B key', vendor_id: ids.vendor, permissions: ['write'] }))[
      'id'
    ],
  );
});

afterAll(async () => {
  await server?.close();
});

describe('org A cannot reach org B by id', () => {
  const cases: Array<[string, string, () => string, unknown?]> = [
    ['GET', '/api/users/:id', () => ids.user],
    ['PATCH', '/api/users/:id', () => ids.user, { role: 'viewer' }],
    ['DELETE', '/api/users/:id', () => ids.user],
    ['GET', '/api/vendors/:id', () => ids.vendor],
    ['PUT', '/api/vendors/:id', () => ids.vendor, { name: 'Stolen', type: 'application' }],
    ['POST', '/api/vendors/:id/disable', () => ids.vendor],
    ['POST', '/api/vendors/:id/enable', () => ids.vendor],
    ['DELETE', '/api/vendors/:id', () => ids.vendor],
    ['PATCH', '/api/api-keys/:id', () => ids.apiKey, { enabled: false }],
    ['POST', '/api/api-keys/:id/rotate', () => ids.apiKey],
    ['DELETE', '/api/api-keys/:id', () => ids.apiKey],
  ];

  it.each(cases)('%s %s answers 404 NOT_FOUND', async (method, path, id, body) => {
    const response = await a.call(method, path.replace(':id', id()), body);
    expect(response.status).toBe(404);
    expect((response.body['error'] as { code: string }).code).toBe('NOT_FOUND');
  });

  it('left B untouched, and lists show only the own organization', async () => {
    expect((await b.call('GET', `/api/users/${ids.user}`)).body['data']).toMatchObject({ role: 'manager' });
    expect((await b.call('GET', `/api/vendors/${ids.vendor}`)).body['data']).toMatchObject({
      name: 'B Leads',
      enabled: true,
    });
    const keys = (await b.call('GET', '/api/api-keys')).body['data'] as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ id: ids.apiKey, enabled: true, expires_at: null });
    expect(((await a.call('GET', '/api/users')).body['data'] as unknown[]).length).toBe(1);
    expect((await a.call('GET', '/api/vendors')).body).toEqual({ data: [] });
    expect((await a.call('GET', '/api/api-keys')).body).toEqual({ data: [] });
  });

  it('refuses to make a key for a vendor of another organization', async () => {
    const response = await a.call('POST', '/api/api-keys', { name: 'k', vendor_id: ids.vendor });
    expect(response).toMatchObject({
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_ERROR',
          details: [{ field: 'vendor_id', message: 'vendor_id is not a vendor of this organization' }],
        },
      },
    });
  });
});
