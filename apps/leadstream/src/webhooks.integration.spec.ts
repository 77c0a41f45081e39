/**
 * Webhooks end to end (docs/webhooks.md) on `leadstream start`, on both engine
 * sets, with a receiver written against that page alone: a node:http server on loopback that
 * verifies every delivery's X-Service-Signature with Stripe's verifier (the same scheme) and checks
 * every event it receives against its payload schema. Covered: the routes and their validation and
 * roles; lead events delivered signed; sandbox events only to sandbox webhooks; a failing endpoint
 * retried on WEBHOOK_RETRY_SCHEDULE (shrunk to seconds) then failed, with the attempts recorded
 * and one event id; deliveries list and stats; the test endpoint's success and failure; a re-send
 * by hand; the automatic disable; and a SIGKILL of the process while the receiver holds a POST,
 * after which the delivery is completed once, with the same event id.
 */
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';
import { SPEC_EVENTS as ALL_EVENTS, eventually, WebhookReceiver as Receiver } from './test-support/webhook-receiver';
import { parseLeadEvents } from '@leadstream/schemas';

const dataOf = (response: JsonResponse): Record<string, unknown> => response.body['data'] as Record<string, unknown>;
const listOf = (response: JsonResponse): Array<Record<string, unknown>> =>
  response.body['data'] as Array<Record<string, unknown>>;

describe.each(engineSetups('webhooks'))('webhooks on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const receiver = new Receiver();
  let server: CliProcess;
  let base = '';
  let token = '';
  let vendorId = '';
  let liveKey = '';
  let sandboxKey = '';
  const call = jsonClient(() => base);
  const env = (): Record<string, string> =>
    serviceEnv({
      TOPIC_PARTITIONS: '2',
      DECISION_TIMEOUT_MS: '10000',
      WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s',
      WEBHOOK_AUTO_DISABLE_AFTER: '2',
      WEBHOOK_TIMEOUT_MS: '5000',
      ...setup.env,
    });
  const as = (method: string, path: string, body?: unknown) => call(method, path, body, token);
  const createWebhook = async (
    path: string,
    events: string[],
    extra: Record<string, unknown> = {},
  ): Promise<string> => {
    const created = await as('POST', '/api/webhooks', { url: `${receiver.url}${path}`, events, ...extra });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    receiver.secrets.set(path, String(dataOf(created)['secret']));
    return String(dataOf(created)['id']);
  };
  const deliveriesOf = async (webhookId: string, query = ''): Promise<Array<Record<string, unknown>>> =>
    listOf(await as('GET', `/api/webhooks/${webhookId}/deliveries${query}`));
  const webhookOf = async (webhookId: string): Promise<Record<string, unknown> | undefined> =>
    listOf(await as('GET', '/api/webhooks')).find((webhook) => webhook['id'] === webhookId);
  const ingest = (key: string, email: string, prefix = '') =>
    call(
      'POST',
      `${prefix}/api/v1/leads/ingest`,
      {
        email,
        first_name: 'Ada',
        last_name: 'Byron',
        source: 'web',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
      },
      key,
    );

  beforeAll(async () => {
    await receiver.start();
    ({ server, url: base } = await CliProcess.startService(env()));
    const registered = await call('POST', '/api/auth/register', {
      email: 'hooks@example.edu',
      password: 'Hooks-Passw0rd',
      first_name: 'Web',
      last_name: 'Hooks',
      organization_name: 'Hook College',
    });
    token = String(registered.body['token']);
    vendorId = String(dataOf(await as('POST', '/api/vendors', { name: 'Hook Leads', type: 'inquiry' }))['id']);
    liveKey = String(dataOf(await as('POST', '/api/api-keys', { name: 'live', vendor_id: vendorId }))['key']);
    sandboxKey = String(
      dataOf(await as('POST', '/api/api-keys', { name: 'sandbox', vendor_id: vendorId, environment: 'sandbox' }))[
        'key'
      ],
    );
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await receiver.stop();
    await setup.cleanup();
  });

  it('validates webhook bodies and guards the routes by role', async () => {
    const invalid = await as('POST', '/api/webhooks', {
      url: 'ftp://hooks.example.com/in',
      events: ['lead.created', 'webhook.disabled', 'lead.nothing'],
      secret: 'mine',
    });
    expect(invalid.status).toBe(400);
    const error = invalid.body['error'] as { code: string; details: Array<{ field: string }> };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.map((detail) => detail.field)).toEqual(['secret', 'url', 'events[1]', 'events[2]']);
    expect((await as('POST', '/api/webhooks', { url: `${receiver.url}/ok`, events: [] })).status).toBe(400);
    expect((await as('PATCH', '/api/webhooks/wh_missing', { enabled: false })).status).toBe(404);

    const manager = await as('POST', '/api/users', {
      email: 'manager@example.edu',
      password: 'Manager-Passw0rd',
      first_name: 'Man',
      last_name: 'Ager',
      role: 'manager',
    });
    expect(manager.status).toBe(201);
    const managerToken = String(
      (await call('POST', '/api/auth/login', { email: 'manager@example.edu', password: 'Manager-Passw0rd' })).body[
        'token'
      ],
    );
    expect((await call('GET', '/api/webhooks', undefined, managerToken)).status).toBe(200);
    expect(
      (await call('POST', '/api/webhooks', { url: `${receiver.url}/ok`, events: ['lead.created'] }, managerToken))
        .status,
    ).toBe(403);
    await as('POST', '/api/users', {
      email: 'viewer@example.edu',
      password: 'Viewer-Passw0rd',
      first_name: 'Vi',
      last_name: 'Ewer',
      role: 'viewer',
    });
    const viewerToken = String(
      (await call('POST', '/api/auth/login', { email: 'viewer@example.edu', password: 'Viewer-Passw0rd' })).body[
        'token'
      ],
    );
    expect((await call('GET', '/api/webhooks', undefined, viewerToken)).status).toBe(403);
  });

  it('delivers lead events signed, live events to live webhooks and sandbox events to sandbox ones', async () => {
    const created = await as('POST', '/api/webhooks', {
      url: `${receiver.url}/ok`,
      events: ALL_EVENTS,
      description: 'everything',
    });
    expect(created.status).toBe(201);
    expect(Object.keys(dataOf(created)).sort()).toEqual(['created_at', 'enabled', 'events', 'id', 'secret', 'url']);
    expect(String(dataOf(created)['secret'])).toMatch(/^whsec_/);
    receiver.secrets.set('/ok', String(dataOf(created)['secret']));
    const okId = String(dataOf(created)['id']);
    await createWebhook('/sandbox', ['lead.created'], { sandbox: true });
    // A rule that changes the lead, so lead.enriched is emitted too.
    const rule = await as('POST', '/api/enrichment/rules', {
      name: 'Tier web leads',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'source', operator: 'equals', value: 'web' }] },
      actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: 'A' }],
    });
    expect(rule.status).toBe(201);

    const lead = await ingest(liveKey, 'ada.byron@example.edu');
    expect(lead.status).toBe(201);
    const leadId = String(lead.body['lead_id']);
    expect((await as('PATCH', `/api/leads/${leadId}`, { status: 'contacted' })).status).toBe(200);
    const sandboxLead = await ingest(sandboxKey, 'sandbox.lead@example.edu', '/sandbox');
    expect(sandboxLead.status).toBe(201);

    const wanted = ['lead.created', 'lead.validated', 'lead.enriched', 'lead.accepted', 'lead.updated'];
    await eventually(`the live lead events at /ok (${wanted.join(', ')})`, () =>
      wanted.every((name) => receiver.at('/ok').some((request) => request.event === name)) ? true : undefined,
    );
    const sandboxCreated = await eventually('lead.created at /sandbox', () =>
      receiver.at('/sandbox').find((request) => request.event === 'lead.created'),
    );
    expect((sandboxCreated.data['lead'] as { id: string }).id).toBe(String(sandboxLead.body['lead_id']));
    // No sandbox event reached the live webhook, no live event the sandbox one.
    expect(
      receiver
        .at('/ok')
        .filter(
          (request) =>
            (request.data['lead'] as { id?: string } | undefined)?.id === String(sandboxLead.body['lead_id']),
        ),
    ).toEqual([]);
    expect(receiver.at('/sandbox').map((request) => request.event)).toEqual(['lead.created']);
    expect(receiver.received.flatMap((request) => request.problems)).toEqual([]);

    const deliveries = await eventually('delivered deliveries', async () => {
      const list = await deliveriesOf(okId);
      return list.length >= wanted.length && list.every((delivery) => delivery['status'] === 'delivered')
        ? list
        : undefined;
    });
    expect(
      deliveries.every(
        (delivery) =>
          delivery['attempts'] === 1 &&
          delivery['response_status'] === 200 &&
          delivery['next_retry_at'] === null &&
          delivery['error'] === null,
      ),
    ).toBe(true);
    expect(new Set(deliveries.map((delivery) => delivery['event_id']))).toEqual(
      new Set(receiver.at('/ok').map((request) => request.id)),
    );
    const webhook = await webhookOf(okId);
    expect(webhook?.['stats']).toEqual({
      total_deliveries: deliveries.length,
      successful_deliveries: deliveries.length,
      failed_deliveries: 0,
      last_30_days: deliveries.length,
    });
    expect(typeof webhook?.['last_triggered_at']).toBe('string');
    // The list shows the secret masked; only the create answer holds it in full.
    expect(webhook).toMatchObject({
      secret: `whsec_…${String(receiver.secrets.get('/ok')).slice(-4)}`,
      sandbox: false,
      description: 'everything',
      enabled: true,
    });
    const page = await as('GET', `/api/webhooks/${okId}/deliveries?page=2&limit=2`);
    expect(page.body['meta']).toEqual({ page: 2, limit: 2, total: deliveries.length });
    expect(listOf(page)).toHaveLength(Math.min(2, deliveries.length - 2));
    expect((await as('GET', `/api/webhooks/${okId}/deliveries?limit=101`)).status).toBe(400);
  });

  it('applies a webhook made or disabled through the API to the next lead (the pipeline keeps them between batches)', async () => {
    const createdAt = (path: string, leadId: string) =>
      receiver
        .at(path)
        .find(
          (request) =>
            request.event === 'lead.created' && (request.data['lead'] as { id?: string } | undefined)?.id === leadId,
        );
    const leadOf = async (email: string): Promise<string> => {
      const answer = await ingest(liveKey, email);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return String(answer.body['lead_id']);
    };
    // A lead before the new webhook: the pipeline has read the tenant's webhooks without it.
    const before = await leadOf('fresh.before@example.edu');
    await eventually('lead.created of the lead before at /ok', () => createdAt('/ok', before));
    const freshId = await createWebhook('/fresh', ['lead.created']);
    const after = await leadOf('fresh.after@example.edu');
    await eventually('lead.created of the lead after at /fresh', () => createdAt('/fresh', after));
    expect(createdAt('/fresh', before)).toBeUndefined();

    expect((await as('PATCH', `/api/webhooks/${freshId}`, { enabled: false })).status).toBe(200);
    const disabled = await leadOf('fresh.disabled@example.edu');
    // /ok's delivery of it was made in the same commit as any delivery to /fresh would have been.
    const event = await eventually('lead.created of the lead after disabling at /ok', () => createdAt('/ok', disabled));
    expect((await deliveriesOf(freshId)).map((delivery) => delivery['event_id'])).not.toContain(event.id);
    expect(createdAt('/fresh', disabled)).toBeUndefined();
  });

  it('makes one delivery, one POST, of an event consumed twice', async () => {
    const original = receiver.at('/ok').find((request) => request.event === 'lead.created');
    expect(original?.problems).toEqual([]);
    const leadId = String((original!.data['lead'] as { id: string }).id);
    if (!setup.readWhileRunning) {
      server.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
    const log = await setup.openLog();
    try {
      const record = (await readTopic(log, 'leads.events')).find((candidate) =>
        parseLeadEvents(candidate.value).some((event) => event.id === original!.id),
      );
      expect(record?.key).toBe(leadId);
      await log.produce('leads.events', [{ key: record!.key, value: record!.value }]);
    } finally {
      await log.close();
    }
    if (!setup.readWhileRunning) ({ server, url: base } = await CliProcess.startService(env()));
    // An event of the same lead after the repeat (same partitions in both stages, so it comes after it).
    expect((await as('PATCH', `/api/leads/${leadId}`, { status: 'qualified' })).status).toBe(200);
    await eventually('the later lead.updated', () =>
      receiver
        .at('/ok')
        .find(
          (request) =>
            request.event === 'lead.updated' &&
            (request.data['changes'] as Record<string, { new?: unknown }> | undefined)?.['status']?.new === 'qualified',
        ),
    );
    expect(receiver.at('/ok').filter((request) => request.id === original!.id)).toHaveLength(1);
    const okId = String(
      listOf(await as('GET', '/api/webhooks')).find((webhook) => String(webhook['url']).endsWith('/ok'))!['id'],
    );
    expect(
      (await deliveriesOf(okId, '?limit=100')).filter((delivery) => delivery['event_id'] === original!.id),
    ).toHaveLength(1);
  });

  it('answers the test endpoint with the outcome, success or failure', async () => {
    const okId = listOf(await as('GET', '/api/webhooks')).find((webhook) => String(webhook['url']).endsWith('/ok'))![
      'id'
    ] as string;
    const tested = await as('POST', `/api/webhooks/${okId}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: true, delivered: true, response_status: 200 });
    expect(String(tested.body['test_event_id'])).toMatch(/^evt_test_/);
    const seen = receiver.at('/ok').find((request) => request.id === tested.body['test_event_id']);
    expect(seen?.problems).toEqual([]);

    const downId = await createWebhook('/down', ['export.failed']);
    receiver.failing.add('/down');
    const failed = await as('POST', `/api/webhooks/${downId}/test`);
    expect(failed.status).toBe(200);
    expect(Object.keys(failed.body).sort()).toEqual([
      'delivered',
      'error',
      'response_status',
      'response_time_ms',
      'success',
    ]);
    expect(failed.body).toMatchObject({
      success: false,
      delivered: false,
      response_status: null,
      error: 'The endpoint answered HTTP 500',
    });
    expect(await as('PATCH', `/api/webhooks/${downId}`, { url: 'http://127.0.0.1:1/closed' })).toMatchObject({
      status: 200,
    });
    const refused = await as('POST', `/api/webhooks/${downId}/test`);
    expect(refused.body).toMatchObject({ success: false, delivered: false, response_status: null });
    expect(typeof refused.body['error']).toBe('string');
    expect((await as('DELETE', `/api/webhooks/${downId}`)).status).toBe(204);
    expect((await as('POST', `/api/webhooks/${downId}/test`)).status).toBe(404);
  });

  it('retries a failing endpoint on the schedule, fails it, disables the webhook after two such deliveries, and re-sends by hand', async () => {
    const failId = await createWebhook('/fail', ['vendor.disabled', 'vendor.enabled']);
    receiver.failing.add('/fail');
    expect((await as('POST', `/api/vendors/${vendorId}/disable`)).status).toBe(200);
    expect((await as('POST', `/api/vendors/${vendorId}/enable`)).status).toBe(200);

    const failed = await eventually(
      'two failed deliveries',
      async () => {
        const list = await deliveriesOf(failId);
        return list.length === 2 && list.every((delivery) => delivery['status'] === 'failed') ? list : undefined;
      },
      90_000,
    );
    for (const delivery of failed) {
      expect(delivery).toMatchObject({
        attempts: 6,
        response_status: 500,
        error: 'HTTP 500',
        next_retry_at: null,
        delivered_at: null,
      });
      // One event id across the six attempts, each signed afresh (and verified by the receiver).
      const attempts = receiver.at('/fail').filter((request) => request.id === delivery['event_id']);
      expect(attempts).toHaveLength(6);
      expect(new Set(attempts.map((request) => request.signature)).size).toBe(6);
    }
    expect(receiver.at('/fail').flatMap((request) => request.problems)).toEqual([]);

    const disabled = await eventually('the automatic disable', async () => {
      const webhook = await webhookOf(failId);
      return webhook?.['enabled'] === false ? webhook : undefined;
    });
    expect(String(disabled['disabled_reason'])).toContain('2 deliveries in a row failed');
    expect(typeof disabled['disabled_at']).toBe('string');
    expect(disabled['stats']).toMatchObject({ total_deliveries: 2, successful_deliveries: 0, failed_deliveries: 2 });

    // Enabled again: the note goes; a re-send by hand of a failed delivery now gets through.
    const enabled = await as('PATCH', `/api/webhooks/${failId}`, { enabled: true });
    expect(Object.keys(dataOf(enabled)).sort()).toEqual(['enabled', 'events', 'id', 'updated_at', 'url']);
    expect((await webhookOf(failId))?.['disabled_reason']).toBeNull();
    receiver.failing.delete('/fail');
    const target = failed[0]!;
    const resend = await as('POST', `/api/webhooks/${failId}/deliveries/${String(target['id'])}/retry`);
    expect(resend.status).toBe(202);
    const resent = await eventually('the re-sent delivery', async () =>
      (await deliveriesOf(failId)).find(
        (delivery) => delivery['id'] === target['id'] && delivery['status'] === 'delivered',
      ),
    );
    expect(resent).toMatchObject({ attempts: 7, response_status: 200, error: null, event_id: target['event_id'] });
    expect(receiver.at('/fail').filter((request) => request.id === target['event_id'])).toHaveLength(7);
    expect((await as('POST', `/api/webhooks/${failId}/deliveries/dlv_missing/retry`)).status).toBe(404);
  }, 120_000);

  it('completes a delivery once, with the same event id, after a SIGKILL between the POST and the commit', async () => {
    const holdId = await createWebhook('/hold', ['lead.deleted']);
    receiver.holding.add('/hold');
    const lead = await ingest(liveKey, 'crash.lead@example.edu');
    expect(lead.status).toBe(201);
    expect((await as('DELETE', `/api/leads/${String(lead.body['lead_id'])}`)).status).toBe(204);
    // The receiver has the POST and holds its answer: the deliver stage is between the POST and its commit.
    const first = await eventually('the held POST', () => receiver.at('/hold')[0]);
    expect((await deliveriesOf(holdId)).map((delivery) => delivery['status'])).toEqual(['pending']);
    server.kill('SIGKILL');
    await server.exited;
    receiver.release();

    ({ server, url: base } = await CliProcess.startService(env()));
    const delivered = await eventually(
      'the delivery after the restart',
      async () => {
        const list = await deliveriesOf(holdId);
        return list.length === 1 && list[0]!['status'] === 'delivered' ? list[0] : undefined;
      },
      90_000,
    );
    const requests = receiver.at('/hold');
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(requests.map((request) => request.id))).toEqual(new Set([first.id]));
    expect(delivered).toMatchObject({ event_id: first.id, attempts: 1, response_status: 200 });
    expect(requests.flatMap((request) => request.problems)).toEqual([]);
  }, 180_000);
});
