/**
 * The webhook routes over real HTTP on the production app with its defaults (no insecure targets):
 * URLs must be https and public, bodies are exact, and organization A never sees, changes,
 * tests or counts organization B's webhooks (404 on every route with an id). Every answer is
 * checked against the OpenAPI document. Deliveries end to end: apps/leadstream/src/webhooks.integration.spec.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookRepository } from '@leadstream/dal';
import { verifySignature } from '@leadstream/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapturingMailer,
  dataOf,
  startAccountsServer,
  UserApi,
  type AccountsTestServer,
} from '../accounts/accounts.test-support';
import { startApiTestServer } from '../api.test-support';

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
  it('creates with the exact documented body and lists with the masked secret, stats and the sandbox mark', async () => {
    const created = await a.call('POST', '/api/webhooks', {
      url: PUBLIC_URL,
      events: ['lead.created', 'lead.accepted'],
      description: 'CRM bridge',
      sandbox: true,
    });
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
        secret: `whsec_…${String(data['secret']).slice(-4)}`,
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
    const patched = await a.call('PATCH', `/api/webhooks/${String(data['id'])}`, {
      enabled: false,
      events: ['vendor.disabled'],
    });
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

  it('refuses unknown fields, events that are not subscribable, and empty or create-only patches', async () => {
    const created = await a.call('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['export.completed'] });
    const id = String(dataOf(created)['id']);
    const cases: Array<[string, string, unknown, string[]]> = [
      ['POST', '/api/webhooks', { url: PUBLIC_URL, events: ['webhook.disabled'] }, ['events[0]']],
      [
        'POST',
        '/api/webhooks',
        { url: PUBLIC_URL, events: 'lead.created', secret: 'whsec_mine' },
        ['secret', 'events'],
      ],
      ['PATCH', `/api/webhooks/${id}`, {}, ['(body)']],
      ['PATCH', `/api/webhooks/${id}`, { description: 'create only', sandbox: true }, ['description', 'sandbox']],
      ['PATCH', `/api/webhooks/${id}`, { enabled: 'no' }, ['enabled']],
    ];
    for (const [method, path, body, fields] of cases) {
      const answer = await a.call(method, path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        (answer.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field),
      ).toEqual(fields);
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
    for (const [method, path, body] of cases)
      expect((await a.call(method, path, body)).status, `${method} ${path}`).toBe(404);
    const aList = (await a.call('GET', '/api/webhooks')).body['data'] as Array<Record<string, unknown>>;
    expect(aList.map((webhook) => webhook['id'])).not.toContain(bWebhook);
    const bList = (await b.call('GET', '/api/webhooks')).body['data'] as Array<Record<string, unknown>>;
    expect(bList.map((webhook) => [webhook['id'], webhook['enabled']])).toEqual([[bWebhook, true]]);
  });
});

describe('the signing secret', () => {
  it('is shown in full only in the create answer: owners and managers list a masked form', async () => {
    const created = await a.call('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['lead.created'] });
    expect(created.status).toBe(201);
    const id = String(dataOf(created)['id']);
    const secret = String(dataOf(created)['secret']);
    expect(id).toMatch(/^webhook_[0-9a-f]{32}$/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const manager = await a.member('manager@hooks-a.edu', 'manager');
    for (const [who, reader] of [
      ['owner', a],
      ['manager', manager],
    ] as const) {
      const listed = await reader.call('GET', '/api/webhooks');
      expect(listed.status, who).toBe(200);
      expect(JSON.stringify(listed.body), who).not.toContain(secret.slice('whsec_'.length, -4));
      const mine = (listed.body['data'] as Array<Record<string, unknown>>).find((webhook) => webhook['id'] === id);
      expect(mine?.['secret'], who).toBe(`whsec_…${secret.slice(-4)}`);
    }
    // A manager reads webhooks but cannot create one, so never holds a secret.
    const refused = await manager.call('POST', '/api/webhooks', { url: PUBLIC_URL, events: ['lead.created'] });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('whsec_');
    const patched = await a.call('PATCH', `/api/webhooks/${id}`, { enabled: false });
    expect(JSON.stringify(patched.body)).not.toContain('whsec_');
    expect((await a.call('DELETE', `/api/webhooks/${id}`)).status).toBe(204);
  });

  it('is stored encrypted, and the test endpoint signs with it; a secret stored in plaintext before still works', async () => {
    const received: Array<{ body: string; signature: string }> = [];
    const receiver = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ body, signature: String(request.headers['x-service-signature']) });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`;
    const local = await startApiTestServer({
      dir: mkdtempSync(join(tmpdir(), 'leadstream-webhook-secrets-')),
      mailer: new CapturingMailer(),
      crm: { credentialsKey: randomBytes(32) },
      webhooks: { allowInsecureTargets: true, timeoutMs: 5_000 },
    });
    try {
      const owner = await UserApi.owner(local.url, 'owner@hooks-secrets.edu', 'Hooks Secrets');
      const created = await owner.call('POST', '/api/webhooks', { url: target, events: ['lead.created'] });
      const id = String(dataOf(created)['id']);
      const secret = String(dataOf(created)['secret']);
      const stored = await local.store.collection('webhooks').findOne({ _id: id });
      expect(stored).toMatchObject({ _id: id, secret: expect.stringMatching(/^v1:/) });
      expect(JSON.stringify(stored)).not.toContain('whsec_');
      expect(JSON.stringify(stored)).not.toContain(secret.slice('whsec_'.length));
      expect(stored?.['secret']).toMatch(/^v1:/);

      // A webhook saved before secrets were encrypted holds its secret as it was made.
      const legacySecret = `whsec_${randomBytes(32).toString('base64url')}`;
      const at = new Date().toISOString();
      await new WebhookRepository(local.store).create({
        id: 'wh_legacy',
        organization_id: owner.organizationId,
        environment: 'live',
        url: target,
        events: ['lead.created'],
        enabled: true,
        description: null,
        secret: legacySecret,
        created_at: at,
        updated_at: at,
        disabled_at: null,
        disabled_reason: null,
        failure_streak_since: at,
      });

      for (const [webhookId, expected] of [
        [id, secret],
        ['wh_legacy', legacySecret],
      ] as const) {
        const tested = await owner.call('POST', `/api/webhooks/${webhookId}/test`);
        expect(tested.body, webhookId).toMatchObject({ success: true, delivered: true, response_status: 200 });
        const request = received.at(-1)!;
        expect(
          verifySignature(request.signature, request.body, expected, Math.floor(Date.now() / 1000)),
          webhookId,
        ).toBe(true);
      }
      const listed = (await owner.call('GET', '/api/webhooks')).body['data'] as Array<Record<string, unknown>>;
      expect(listed.map((webhook) => [webhook['id'], webhook['secret']])).toEqual([
        [id, `whsec_…${secret.slice(-4)}`],
        ['wh_legacy', `whsec_…${legacySecret.slice(-4)}`],
      ]);
    } finally {
      await local.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
