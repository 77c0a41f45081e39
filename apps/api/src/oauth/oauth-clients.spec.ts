import { createHash } from 'node:crypto';
import { OAUTH_CLIENTS_COLLECTION, OAuthClientRepository } from '@leadstream/dal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let owner: UserApi;

beforeAll(async () => {
  server = await startAccountsServer();
  await OAuthClientRepository.ensureIndexes(server.store);
  owner = await UserApi.owner(server.url, 'owner@oauth-clients.edu', 'Client College');
});

afterAll(async () => {
  await server?.close();
});

const details = (body: Record<string, unknown>): string[] =>
  ((body['error'] as { details?: Array<{ field: string }> }).details ?? []).map((detail) => detail.field);

describe('POST /api/oauth/clients', () => {
  it('registers a confidential client and shows its secret once; only the SHA-256 hash is stored', async () => {
    const created = await owner.call('POST', '/api/oauth/clients', {
      name: 'CRM Connector',
      redirect_uris: ['https://crm.example.com/callback', 'http://127.0.0.1:8080/cb'],
    });
    expect(created.status).toBe(201);
    expect(created.body['data']).toMatchObject({
      name: 'CRM Connector',
      redirect_uris: ['https://crm.example.com/callback', 'http://127.0.0.1:8080/cb'],
      public: false,
    });
    expect(dataOf(created)['id']).toMatch(/^oac_[A-Za-z0-9]{24}$/);
    const secret = String(dataOf(created)['client_secret']);
    expect(secret).toMatch(/^ocs_[A-Za-z0-9]{43}$/);
    const stored = await server.store
      .collection(OAUTH_CLIENTS_COLLECTION)
      .findOne({ _id: String(dataOf(created)['id']) });
    expect(stored?.['secret_hash']).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(secret);

    const listed = await owner.call('GET', '/api/oauth/clients');
    expect(listed.status).toBe(200);
    const data = listed.body['data'] as Array<Record<string, unknown>>;
    expect(data.find((client) => client['id'] === dataOf(created)['id'])).toEqual({
      id: dataOf(created)['id'],
      name: 'CRM Connector',
      redirect_uris: ['https://crm.example.com/callback', 'http://127.0.0.1:8080/cb'],
      public: false,
      created_at: dataOf(created)['created_at'],
    });
    expect(JSON.stringify(listed.body)).not.toContain('secret');
  });

  it('registers a public client without a secret', async () => {
    const created = await owner.call('POST', '/api/oauth/clients', {
      name: 'Mobile App',
      redirect_uris: ['http://localhost:5173/callback'],
      public: true,
    });
    expect(created.status).toBe(201);
    expect(dataOf(created)['public']).toBe(true);
    expect(created.body['data']).not.toHaveProperty('client_secret');
  });

  it.each([
    [{ name: 'A', redirect_uris: ['https://a.example.com/cb'] }, ['name']],
    [{ name: 'No URIs', redirect_uris: [] }, ['redirect_uris']],
    [{ name: 'No URIs' }, ['redirect_uris']],
    [{ name: 'Plain http', redirect_uris: ['http://crm.example.com/cb'] }, ['redirect_uris[0]']],
    [
      { name: 'Fragment', redirect_uris: ['https://ok.example.com/cb', 'https://crm.example.com/cb#x'] },
      ['redirect_uris[1]'],
    ],
    [{ name: 'Relative', redirect_uris: ['/callback'] }, ['redirect_uris[0]']],
    [{ name: 'Custom scheme', redirect_uris: ['javascript:alert(1)'] }, ['redirect_uris[0]']],
    [{ name: 'Credentials', redirect_uris: ['https://user:pw@crm.example.com/cb'] }, ['redirect_uris[0]']],
    [{ name: 'Not boolean', redirect_uris: ['https://crm.example.com/cb'], public: 'yes' }, ['public']],
    [{ name: 'Extra', redirect_uris: ['https://crm.example.com/cb'], scopes: ['leads:read'] }, ['scopes']],
  ])('refuses %j with 400 VALIDATION_ERROR on %j', async (body, fields) => {
    const response = await owner.call('POST', '/api/oauth/clients', body);
    expect(response.status).toBe(400);
    expect((response.body['error'] as { code: string }).code).toBe('VALIDATION_ERROR');
    expect(details(response.body)).toEqual(fields);
  });

  it('is for owners and admins only', async () => {
    const admin = await owner.member('admin@oauth-clients.edu', 'admin');
    const manager = await owner.member('manager@oauth-clients.edu', 'manager');
    expect(
      (
        await admin.call('POST', '/api/oauth/clients', {
          name: 'Admin App',
          redirect_uris: ['https://admin.example.com/cb'],
        })
      ).status,
    ).toBe(201);
    expect((await admin.call('GET', '/api/oauth/clients')).status).toBe(200);
    const refused = await manager.call('POST', '/api/oauth/clients', {
      name: 'Manager App',
      redirect_uris: ['https://m.example.com/cb'],
    });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'INSUFFICIENT_PERMISSIONS' } } });
    expect((await manager.call('GET', '/api/oauth/clients')).status).toBe(403);
  });
});

describe('tenant isolation', () => {
  it("an organization neither sees nor deletes another organization's clients (404)", async () => {
    const other = await UserApi.owner(server.url, 'owner@other-org.edu', 'Other College');
    const mine = await owner.call('POST', '/api/oauth/clients', {
      name: 'Mine',
      redirect_uris: ['https://mine.example.com/cb'],
    });
    const id = String(dataOf(mine)['id']);
    const theirs = await other.call('GET', '/api/oauth/clients');
    expect(theirs.body).toEqual({ data: [] });
    expect(await other.call('DELETE', `/api/oauth/clients/${id}`)).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
    expect((await owner.call('DELETE', `/api/oauth/clients/${id}`)).status).toBe(204);
    expect((await owner.call('DELETE', `/api/oauth/clients/${id}`)).status).toBe(404);
    expect(
      ((await owner.call('GET', '/api/oauth/clients')).body['data'] as Array<{ id: string }>).map(
        (client) => client.id,
      ),
    ).not.toContain(id);
  });
});
