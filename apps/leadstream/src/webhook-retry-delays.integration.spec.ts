/**
 * A webhook retry waiting on its delay topic holds nobody else's deliveries (the default schedule
 * waits 1 min to 24 h), on `leadstream start` with both engine sets. A failing endpoint's delivery
 * waits for its retry (WEBHOOK_RETRY_SCHEDULE=1h, so it is not due during the test); meanwhile a
 * new event still reaches a healthy endpoint. On Kafka a consumer holds a partition's batch until
 * its head record is due, and kafkajs fetches again only once every batch of a fetch is done: with
 * the retry topics in the deliveries' consumer group, that held the new delivery for the whole
 * delay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';
import { eventually, WebhookReceiver } from './test-support/webhook-receiver';

const dataOf = (response: JsonResponse): Record<string, unknown> => response.body['data'] as Record<string, unknown>;

describe.each(engineSetups('webhook-retry-delays'))('webhook retry delays on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const receiver = new WebhookReceiver();
  let server: CliProcess;
  let base = '';
  let token = '';
  let key = '';
  const call = jsonClient(() => base);
  const as = (method: string, path: string, body?: unknown) => call(method, path, body, token);
  const createWebhook = async (path: string): Promise<string> => {
    const created = await as('POST', '/api/webhooks', { url: `${receiver.url}${path}`, events: ['lead.created'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    receiver.secrets.set(path, String(dataOf(created)['secret']));
    return String(dataOf(created)['id']);
  };
  const ingest = async (email: string): Promise<string> => {
    const answer = await call(
      'POST',
      '/api/v1/leads/ingest',
      {
        email,
        first_name: 'Ada',
        last_name: 'Byron',
        source: 'web',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
      },
      key,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return String(answer.body['lead_id']);
  };
  const createdFor = (path: string, leadId: string) =>
    receiver.at(path).filter((request) => (request.data['lead'] as { id?: string } | undefined)?.id === leadId);

  beforeAll(async () => {
    await receiver.start();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        TOPIC_PARTITIONS: '2',
        DECISION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        WEBHOOK_RETRY_SCHEDULE: '1h',
        WEBHOOK_TIMEOUT_MS: '5000',
        ...setup.env,
      }),
    ));
    const registered = await call('POST', '/api/auth/register', {
      email: 'delays@example.edu',
      password: 'Delays-Passw0rd',
      first_name: 'Del',
      last_name: 'Ays',
      organization_name: 'Delay College',
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    token = String(registered.body['token']);
    const vendorId = String(dataOf(await as('POST', '/api/vendors', { name: 'Delay Leads', type: 'inquiry' }))['id']);
    key = String(dataOf(await as('POST', '/api/api-keys', { name: 'live', vendor_id: vendorId }))['key']);
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await receiver.stop();
    await setup.cleanup();
  });

  it('delivers new events while a failed delivery waits an hour for its retry', async () => {
    receiver.failing.add('/down');
    const downId = await createWebhook('/down');
    const first = await ingest('first.lead@example.edu');
    await eventually('the failed first attempt at /down', () =>
      createdFor('/down', first).length === 1 ? true : undefined,
    );
    const waiting = await eventually('the delivery waiting for its retry', async () => {
      const list = (await as('GET', `/api/webhooks/${downId}/deliveries`)).body['data'] as Array<
        Record<string, unknown>
      >;
      return list.find((delivery) => delivery['status'] === 'retrying');
    });
    expect(Date.parse(String(waiting['next_retry_at']))).toBeGreaterThan(Date.now() + 30 * 60_000);

    // The retry is now on webhooks.retry.1h. A new event reaches a healthy endpoint all the same.
    await createWebhook('/up');
    const second = await ingest('second.lead@example.edu');
    const delivered = await eventually('lead.created of the second lead at /up', () => createdFor('/up', second)[0]);
    expect(delivered.problems).toEqual([]);
    // The waiting retry was not made early.
    expect(createdFor('/down', first)).toHaveLength(1);
  }, 120_000);
});
