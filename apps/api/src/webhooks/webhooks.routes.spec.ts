/**
 * The webhook routes over real HTTP on the production app with its defaults (no insecure targets):
 * URLs must be https and public, bodies are exact, and organization A never sees, changes,
 * tests or counts organization B's webhooks (404 on every route with an id). Every answer is
 * checked against the OpenAPI document. Deliveries end to end: apps/leadstream/src/webhooks.integration.spec.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let a: UserApi;
let b: UserApi;
let bWebhook = '';
/** A public address literal: no DNS needed, and nothing is sent to it by these tests. */
const PUBLIC_URL = 'https://93.184.216.34/hooks/leadstream';

beforeAll(async () => {
  server = await startAccountsServer();
  a = await UserApi.owner(server.url, 'owner@hooks-a.edu', 'Hooks A');
  b = await UserApi.owner(server.url, 'owner@hooks-b.edu', 'Hooks B');
  bWebhook = String(dataOf(await b.call('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['lead.created'] }))['id']);
});

afterAll(async () => {
  await server?.close();
});

describe('webhook bodies', () => {
  it('creates with the exact body of spec 4.9 and lists with secret, stats and the sandbox mark', async () => {
    const created = await a.call('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['lead.created', 'lead.accepted'], description: 'CRM bridge', sandbox: true });
    expect(created.status).toBe(201);
    const data = dataOf(created);
    expect(Object.keys(data).sort()).toEqual(['created_at', 'enabled', 'events', 'id', 'secret', 'url']);
    expect(data).toMatchObject({ url: PUBLIC_URL, events: ['lead.created', 'lead.accepted'], enabled: true });
    const listed = (await a.call('GET', '/api/webhooks')).body['data'] as Array<Record<string, unknown>>;
    expect(listed).toEqual([
      {
        id: data['id'],
        url: PUBLIC_URL,
        events: ['lead.created', 'lead.accepted'],
        enabled: true,
        description: 'CRM bridge',
        sandbox: true,
        secret: data['secret'],
        created_at: data['created_at'],
        updated_at: data['created_at'],
        last_triggered_at: null,
        disabled_at: null,
        disabled_reason: null,
        stats: { total_deliveries: 0, successful_deliveries: 0, failed_deliveries: 0, last_30_days: 0 },
      },
    ]);
    const deliveries = await a.call('GET', `/api/webhooks/${String(data['id'])}/deliveries`);
    expect(deliveries.body).toEqual({ data: [], meta: { page: 1, limit: 20, total: 0 } });
    const patched = await a.call('PATCH', `/api/webhooks/${String(data['id'])}`, { enabled: false, events: ['vendor.disabled'] });
    expect(patched.status).toBe(200);
    expect(Object.keys(dataOf(patched)).sort()).toEqual(['enabled', 'events', 'id', 'updated_at', 'url']);
    expect(dataOf(patched)).toMatchObject({ enabled: false, events: ['vendor.disabled'] });
    expect((await a.call('DELETE', `/api/webhooks/${String(data['id'])}`)).status).toBe(204);
    expect((await a.call('GET', '/api/webhooks')).body['data']).toEqual([]);
  });

  it.each([
    ['http://93.184.216.34/in', 'url must use https'],
    ['https://127.0.0.1/in', 'non-public address'],
    ['https://10.1.2.3/in', 'non-public address'],
    ['https://[::1]/in', 'non-public address'],
    ['not a url', 'url must be an absolute URL'],
  ])('refuses the target %s', async (url, message) => {
    const answer = await a.call('POST', '/api/webhooks', { url, events: ['lead.created'] });
    expect(answer.status).toBe(400);
    const error = answer.body['error'] as { code: string; details: Array<{ field: string; message: string }> };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details).toHaveLength(1);
    expect(error.details[0]?.field).toBe('url');
    expect(error.details[0]?.message).toContain(message);
  });

  it('refuses unknown fields, events outside spec 6.1 and lead.accepted, and empty or create-only patches', async () => {
    const created = await a.call('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['export.completed'] });
    const id = String(dataOf(created)['id']);
    const cases: Array<[string, string, unknown, string[]]> = [
      ['POST', '/api/webhooks', { url: PUBLIC_URL, events: ['webhook.disabled'] }, ['events[0]']],
      ['POST', '/api/webhooks', { url: PUBLIC_URL, events: 'lead.created', secret: 'whsec_mine' }, ['secret', 'events']],
      ['PATCH', `/api/webhooks/${id}`, {}, ['(body)']],
      ['PATCH', `/api/webhooks/${id}`, { description: 'create only', sandbox: true }, ['description', 'sandbox']],
      ['PATCH', `/api/webhooks/${id}`, { enabled: 'no' }, ['enabled']],
    ];
    for (const [method, path, body, fields] of cases) {
      const answer = await a.call(method, path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect((answer.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field)).toEqual(fields);
    }
    expect((await a.call('GET', `/api/webhooks/${id}/deliveries?page=0`)).status).toBe(400);
    expect((await a.call('GET', `/api/webhooks/${id}/deliveries?limit=abc`)).status).toBe(400);
  });
});

describe('tenancy', () => {
  it("answers 404 to org A for each route with org B's webhook id, and leaves it as it was", async () => {
    const cases: Array<[string, string, unknown?]> = [
      ['PATCH', `/api/webhooks/${bWebhook}`, { enabled: false }],
      ['DELETE', `/api/webhooks/${bWebhook}`],
      ['POST', `/api/webhooks/${bWebhook}/test`],
      ['GET', `/api/webhooks/${bWebhook}/deliveries`],
      ['POST', `/api/webhooks/${bWebhook}/deliveries/dlv_any/retry`],
    ];
    for (const [method, path, body] of cases) expect((await a.call(method, path, body)).status, `${method} ${path}`).toBe(404);
    const aList = (await a.call('GET', '/api/webhooks')).body['data'] as Array<Record<string, unknown>>;
    expect(aList.map((webhook) => webhook['id'])).not.toContain(bWebhook);
    const bList = (await b.call('GET', '/api/webhooks')).body['data'] as Array<Record<string, unknown>>;
    expect(bList.map((webhook) => [webhook['id'], webhook['enabled']])).toEqual([[bWebhook, true]]);
  });
});
