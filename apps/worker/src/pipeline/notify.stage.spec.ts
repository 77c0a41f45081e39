/**
 * The notify and deliver stages on the embedded engines with a real HTTP receiver on loopback
 * (no HTTP mocks), driven batch by batch through the BatchStageHandler and the atomic writer:
 * subscriptions and environments, one delivery per (webhook, event) however often the event comes,
 * the retry schedule on delay topics (the records are handed on at once: the delay is the log's, and
 * the machine's times come from the stage's clock), re-sends applied once, the automatic disable
 * with its webhook.disabled event, and cancelled attempts of a disabled webhook.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookDeliveryRepository, WebhookRepository, type WebhookDeliveryRecord } from '@leadstream/dal';
import { verifySignature, WEBHOOK_EVENTS, type Webhook } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import {
  bumpConfigVersion,
  ConfigCache,
  CredentialsCipher,
  WEBHOOK_DELIVERIES_TOPIC,
  webhookRetryTopics,
} from '@leadstream/runtime';
import { pino } from 'pino';
import { eventPayloadProblems, parseLeadEvent } from '@leadstream/schemas';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BatchWrite, BatchWriter, ConsumerPosition, OutputRecord } from '../batch/batch-write';
import { openEmbeddedEngines, type EmbeddedEngines } from '../test-support/embedded-engines';
import { CONFIG_VERSION_HEADER } from '../batch/config-source';
import { driveStage } from '../test-support/stage-driver';
import { deliverStage } from './deliver.stage';
import { MAX_EVENTS_PER_BATCH, notifyStage } from './notify.stage';

const SCHEDULE = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000];
/** The key of secrets at rest (CRM_CREDENTIALS_KEY) the deliver stage opens webhook secrets with. */
const cipher = new CredentialsCipher(randomBytes(32));

interface Received {
  path: string;
  body: string;
  signature: string;
}

let dir: string;
let engines: EmbeddedEngines & { close(): Promise<void> };
let receiver: Server;
let base: string;
let received: Received[];
let failing: Set<string>;
let produced: OutputRecord[];
let clock: Date;

/** The atomic writer, remembering every record it produced (the tests hand them to the next stage). */
function capturing(writer: BatchWriter): BatchWriter {
  return {
    atomic: writer.atomic,
    async commit(write: BatchWrite, position: ConsumerPosition) {
      await writer.commit(write, position);
      produced.push(...write.records);
    },
  };
}

let offsets = 0;
function asRecords(outputs: OutputRecord[]): LogRecord[] {
  return outputs.map((output) => ({
    topic: output.topic,
    partition: 0,
    offset: String(offsets++),
    key: output.key,
    value: output.value,
    headers: {},
    timestamp: clock.getTime(),
  }));
}

function event(
  name: string,
  environment: 'live' | 'sandbox',
  id = `evt_${Math.random().toString(16).slice(2)}`,
  organizationId = 'org_1',
): LogRecord {
  return asRecords([
    {
      topic: 'leads.events',
      key: 'lead_1',
      value: JSON.stringify({
        schema_version: 1,
        id,
        event: name,
        timestamp: clock.toISOString(),
        organization_id: organizationId,
        environment,
        data: { lead_id: 'lead_1' },
      }),
    },
  ])[0]!;
}

async function webhook(path: string, overrides: Partial<Webhook> = {}): Promise<Webhook> {
  const hook: Webhook = {
    id: `wh_${path.slice(1)}`,
    organization_id: 'org_1',
    environment: 'live',
    url: `${base}${path}`,
    events: [...WEBHOOK_EVENTS],
    enabled: true,
    description: null,
    secret: `whsec_${path.slice(1)}`,
    created_at: clock.toISOString(),
    updated_at: clock.toISOString(),
    disabled_at: null,
    disabled_reason: null,
    failure_streak_since: null,
    ...overrides,
  };
  await new WebhookRepository(engines.store).create(hook);
  return hook;
}

const read = (body: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    body
      .setEncoding('utf8')
      .on('data', (chunk: string) => (text += chunk))
      .on('end', () => resolve(text));
  });

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notify-stage-'));
  engines = await openEmbeddedEngines(dir);
  await engines.log.ensureTopics(
    [{ topic: WEBHOOK_DELIVERIES_TOPIC, partitions: 1 }, ...webhookRetryTopics(1, SCHEDULE)].flatMap((spec) => [
      spec,
      { topic: `${spec.topic}.dlq`, partitions: 1 },
    ]),
  );
  await WebhookRepository.ensureIndexes(engines.store);
  await WebhookDeliveryRepository.ensureIndexes(engines.store);
  received = [];
  failing = new Set();
  produced = [];
  clock = new Date('2026-03-01T10:00:00.000Z');
  receiver = createServer((request, response) => {
    void read(request).then((body) => {
      received.push({ path: request.url ?? '', body, signature: String(request.headers['x-service-signature']) });
      response.writeHead(failing.has(request.url ?? '') ? 500 : 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await engines.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = () => clock;
const notify = () =>
  driveStage(notifyStage({ webhooks: new WebhookRepository(engines.store), now }), capturing(engines.writer));
const deliver = (autoDisableAfter = 0, schedule = SCHEDULE) =>
  driveStage(
    deliverStage({
      webhooks: new WebhookRepository(engines.store),
      deliveries: new WebhookDeliveryRepository(engines.store),
      retryScheduleMs: schedule,
      autoDisableAfter,
      allowInsecureTargets: true,
      timeoutMs: 5_000,
      now,
      cipher,
    }),
    capturing(engines.writer),
  );
/** Takes the records produced so far to one topic. */
function take(topicPrefix: string): LogRecord[] {
  const taken = produced.filter((record) => record.topic.startsWith(topicPrefix));
  produced = produced.filter((record) => !record.topic.startsWith(topicPrefix));
  return asRecords(taken);
}
const deliveries = async (): Promise<WebhookDeliveryRecord[]> =>
  (
    await new WebhookDeliveryRepository(engines.store).list(
      { organizationId: 'org_1', environment: 'live' },
      'wh_ok',
      1,
      100,
    )
  ).items;

describe('notify stage', () => {
  it("makes one delivery per subscribed webhook of the event's environment", async () => {
    await webhook('/ok', { events: ['lead.created', 'vendor.enabled'] });
    await webhook('/sandbox', { environment: 'sandbox' });
    await webhook('/off', { enabled: false });
    await webhook('/other', { organization_id: 'org_2' });
    await notify().handle([
      event('lead.created', 'live', 'evt_live'),
      event('lead.created', 'sandbox', 'evt_sandbox'),
      event('lead.updated', 'live', 'evt_unsubscribed'),
      event('webhook.disabled', 'live', 'evt_internal'),
    ]);
    const messages = take(WEBHOOK_DELIVERIES_TOPIC).map(
      (record) => JSON.parse(record.value) as Record<string, unknown>,
    );
    expect(messages.map((message) => [message['webhook_id'], message['kind']])).toEqual([
      ['wh_ok', 'initial'],
      ['wh_sandbox', 'initial'],
    ]);
    const sandbox = await new WebhookDeliveryRepository(engines.store).list(
      { organizationId: 'org_1', environment: 'sandbox' },
      'wh_sandbox',
      1,
      10,
    );
    expect(sandbox.items.map((delivery) => delivery.event_id)).toEqual(['evt_sandbox']);
    expect((await deliveries()).map((delivery) => [delivery.event_id, delivery.status])).toEqual([
      ['evt_live', 'pending'],
    ]);
  });

  it('makes a delivery of each subscribed event of a record that holds several (one lead, one batch)', async () => {
    await webhook('/ok', { events: ['lead.created', 'lead.accepted'] });
    const packed = event('lead.created', 'live', 'evt_created');
    const values = [packed.value, event('lead.validated', 'live', 'evt_validated').value];
    values.push(event('lead.accepted', 'live', 'evt_accepted').value);
    await notify().handle([{ ...packed, value: `[${values.join(',')}]` }]);
    expect(take(WEBHOOK_DELIVERIES_TOPIC)).toHaveLength(2);
    expect((await deliveries()).map((delivery) => delivery.event_id).sort()).toEqual(['evt_accepted', 'evt_created']);
  });

  it('ends a batch at MAX_EVENTS_PER_BATCH events, so records of several events never make a larger commit', async () => {
    await webhook('/ok');
    // 60 records of 4 events each: 240 events, more than one batch may turn into deliveries.
    const records = Array.from({ length: 60 }, (_, i) => {
      const first = event('lead.created', 'live', `evt_${i}_0`);
      const values = [first.value, ...[1, 2, 3].map((k) => event('lead.updated', 'live', `evt_${i}_${k}`).value)];
      return { ...first, offset: String(offsets++), value: `[${values.join(',')}]` };
    });
    const stage = notifyStage({ webhooks: new WebhookRepository(engines.store), now });
    const { write, handled } = await stage.process(records);
    expect(handled).toBe(MAX_EVENTS_PER_BATCH / 4);
    expect(write.records.filter((record) => record.topic === WEBHOOK_DELIVERIES_TOPIC)).toHaveLength(
      MAX_EVENTS_PER_BATCH,
    );
    // Driven to the end, every event of every record gets its delivery.
    await notify().handle(records);
    const all = await engines.store.collection('webhook_deliveries').find({ webhook_id: 'wh_ok' });
    expect(all).toHaveLength(240);
  });

  it('dead-letters a record of several events when one of them is not an event, and delivers none of it', async () => {
    await webhook('/ok');
    const record = event('lead.created', 'live', 'evt_good');
    await notify().handle([{ ...record, value: `[${record.value},{"id":"evt_bad"}]` }]);
    expect(take(WEBHOOK_DELIVERIES_TOPIC)).toEqual([]);
    expect(await deliveries()).toEqual([]);
    expect(take('leads.events.dlq').map((dead) => dead.value)).toEqual([`[${record.value},{"id":"evt_bad"}]`]);
  });

  it('dead-letters a record that is an empty array of events, and goes on with the next record', async () => {
    await webhook('/ok');
    const record = event('lead.created', 'live', 'evt_after');
    await notify().handle([{ ...record, value: '[]' }, record]);
    expect(take('leads.events.dlq').map((dead) => dead.value)).toEqual(['[]']);
    expect((await deliveries()).map((delivery) => delivery.event_id)).toEqual(['evt_after']);
  });

  it('makes one delivery and one POST of an event consumed twice (in one batch and in two)', async () => {
    await webhook('/ok');
    const record = event('lead.created', 'live', 'evt_twice');
    await notify().handle([record, { ...record, offset: String(offsets++) }]);
    await notify().handle([{ ...record, offset: String(offsets++) }]);
    expect(await deliveries()).toHaveLength(1);
    const messages = take(WEBHOOK_DELIVERIES_TOPIC);
    expect(messages).toHaveLength(2);
    // Both messages of the delivery, one batch and then again: one POST.
    await deliver().handle(messages);
    await deliver().handle(messages.map((message) => ({ ...message, offset: String(offsets++) })));
    expect(received.map((request) => (JSON.parse(request.body) as { id: string }).id)).toEqual(['evt_twice']);
    expect((await deliveries()).map((delivery) => [delivery.status, delivery.actor.context.attempts])).toEqual([
      ['delivered', 1],
    ]);
  });
});

describe('notify stage with the configuration cache', () => {
  it("keeps a tenant's webhooks while its events are stamped with a known version, and reads them again for a newer one, an unstamped event or a webhook.disabled", async () => {
    const cache = new ConfigCache({ log: engines.log, store: engines.store, logger: pino({ level: 'silent' }) });
    await cache.start();
    try {
      const repository = new WebhookRepository(engines.store);
      let reads = 0;
      const webhooks = {
        listEnabled: (tenant: Parameters<WebhookRepository['listEnabled']>[0]) => {
          reads++;
          return repository.listEnabled(tenant);
        },
      };
      const cached = () => driveStage(notifyStage({ webhooks, config: cache, now }), capturing(engines.writer));
      const stamped = (id: string, version: number | undefined): LogRecord => {
        const record = event('lead.created', 'live', id);
        return version === undefined ? record : { ...record, headers: { [CONFIG_VERSION_HEADER]: String(version) } };
      };
      const deliveredTo = () =>
        take(WEBHOOK_DELIVERIES_TOPIC)
          .map((record) => (JSON.parse(record.value) as { webhook_id: string }).webhook_id)
          .sort();
      await webhook('/ok');

      await cached().handle([stamped('evt_1', 0), stamped('evt_2', 0)]);
      expect([reads, deliveredTo()]).toEqual([1, ['wh_ok', 'wh_ok']]);
      // A webhook written without a version: the kept list is served while the stamp is known.
      await webhook('/late');
      await cached().handle([stamped('evt_3', 0)]);
      expect([reads, deliveredTo()]).toEqual([1, ['wh_ok']]);
      // Another process announced a change (the store's version is 1): an event stamped 1 reads again.
      expect(await bumpConfigVersion(engines.store, 'org_1', 'webhooks')).toBe(1);
      await cached().handle([stamped('evt_4', 1)]);
      expect([reads, deliveredTo()]).toEqual([2, ['wh_late', 'wh_ok']]);
      await cached().handle([stamped('evt_5', 1)]);
      expect(reads).toBe(2);
      // An unstamped event (the api's) is decided on the webhooks as stored, every batch.
      await cached().handle([stamped('evt_6', 1), stamped('evt_7', undefined)]);
      await cached().handle([stamped('evt_8', undefined)]);
      expect(reads).toBe(4);
      deliveredTo();
      // The deliver stage disabled wh_late: its webhook.disabled event drops the kept list.
      await repository.update(
        { organizationId: 'org_1', environment: 'live' },
        'wh_late',
        { enabled: false },
        clock.toISOString(),
      );
      await cached().handle([event('webhook.disabled', 'live', 'evt_disabled'), stamped('evt_9', 1)]);
      expect([reads, deliveredTo()]).toEqual([5, ['wh_ok']]);
    } finally {
      await cache.stop();
    }
  });
});

describe('deliver stage', () => {
  it('signs each attempt afresh, retries on the schedule through the delay topics, then fails', async () => {
    const hook = await webhook('/ok');
    failing.add('/ok');
    await notify().handle([event('lead.created', 'live', 'evt_retry')]);
    const stage = deliver();
    let next = take(WEBHOOK_DELIVERIES_TOPIC);
    const topics: string[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      await stage.handle(next);
      clock = new Date(clock.getTime() + 1_000 + (SCHEDULE[attempt] ?? 0));
      next = take('webhooks.retry.');
      topics.push(...next.map((record) => record.topic));
    }
    expect(next).toEqual([]);
    expect(topics).toEqual([
      'webhooks.retry.1m',
      'webhooks.retry.5m',
      'webhooks.retry.30m',
      'webhooks.retry.2h',
      'webhooks.retry.24h',
    ]);
    expect(received).toHaveLength(6);
    expect(new Set(received.map((request) => (JSON.parse(request.body) as { id: string }).id))).toEqual(
      new Set(['evt_retry']),
    );
    // Each attempt signed at its own time, each valid then.
    const stamps = received.map((request) => Number(/^t=(\d+),/.exec(request.signature)?.[1]));
    expect(new Set(stamps).size).toBe(6);
    expect(
      received.every((request, index) => verifySignature(request.signature, request.body, hook.secret, stamps[index]!)),
    ).toBe(true);
    const [delivery] = await deliveries();
    expect(delivery?.status).toBe('failed');
    expect(delivery?.actor.context).toMatchObject({
      attempts: 6,
      retries: 5,
      responseStatus: 500,
      error: 'HTTP 500',
      failureKind: 'exhausted',
      nextRetryAt: null,
    });
    expect(delivery?.attempt_log.map((attempt) => attempt.response_status)).toEqual([500, 500, 500, 500, 500, 500]);
  });

  it('signs with a secret stored encrypted, and with one stored in plaintext before secrets were encrypted', async () => {
    // As the API stores a new webhook's secret: AES-256-GCM bound to the organization and webhook.
    const sealed = await webhook('/sealed', {
      secret: cipher.encrypt('whsec_sealed', 'webhook-secret:org_1:wh_sealed'),
    });
    const legacy = await webhook('/legacy', { secret: 'whsec_legacy' });
    expect(JSON.stringify(await engines.store.collection('webhooks').findOne({ _id: sealed.id }))).not.toContain(
      'whsec_',
    );
    await notify().handle([event('lead.created', 'live', 'evt_signed')]);
    await deliver().handle(take(WEBHOOK_DELIVERIES_TOPIC));
    const byPath = new Map(received.map((request) => [request.path, request]));
    expect([...byPath.keys()].sort()).toEqual(['/legacy', '/sealed']);
    for (const [path, secret] of [
      ['/sealed', 'whsec_sealed'],
      ['/legacy', legacy.secret],
    ] as const) {
      const request = byPath.get(path)!;
      const stamp = Number(/^t=(\d+),/.exec(request.signature)?.[1]);
      expect(verifySignature(request.signature, request.body, secret, stamp), path).toBe(true);
    }
  });

  it('fails an attempt whose secret cannot be read (another key) without sending it', async () => {
    await webhook('/unreadable', {
      secret: new CredentialsCipher(randomBytes(32)).encrypt('whsec_other', 'webhook-secret:org_1:wh_unreadable'),
    });
    await notify().handle([event('lead.created', 'live', 'evt_unreadable')]);
    await deliver(0, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    expect(received).toEqual([]);
    const { items } = await new WebhookDeliveryRepository(engines.store).list(
      { organizationId: 'org_1', environment: 'live' },
      'wh_unreadable',
      1,
      10,
    );
    expect(
      items.map((delivery) => [delivery.status, delivery.actor.context.attempts, delivery.actor.context.error]),
    ).toEqual([['failed', 1, expect.stringContaining('CRM_CREDENTIALS_KEY')]]);
  });

  it('applies a re-send once, and a redelivered retry not at all', async () => {
    await webhook('/ok');
    failing.add('/ok');
    await notify().handle([event('lead.created', 'live', 'evt_resend')]);
    await deliver(0, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    const [failed] = await deliveries();
    expect(failed?.status).toBe('failed');
    failing.clear();
    const resend = asRecords([
      {
        topic: WEBHOOK_DELIVERIES_TOPIC,
        key: 'wh_ok',
        value: JSON.stringify({
          schema_version: 1,
          delivery_id: failed!._id,
          webhook_id: 'wh_ok',
          organization_id: 'org_1',
          environment: 'live',
          kind: 'resend',
          resend_id: 'rsd_1',
        }),
      },
    ]);
    await deliver().handle(resend);
    await deliver().handle(resend.map((record) => ({ ...record, offset: String(offsets++) })));
    const stale = asRecords([
      {
        topic: 'webhooks.retry.1m',
        key: 'wh_ok',
        value: JSON.stringify({
          schema_version: 1,
          delivery_id: failed!._id,
          webhook_id: 'wh_ok',
          organization_id: 'org_1',
          environment: 'live',
          kind: 'retry',
          retry: 1,
        }),
      },
    ]);
    await deliver().handle(stale);
    expect(received).toHaveLength(2);
    const [delivered] = await deliveries();
    expect(delivered?.status).toBe('delivered');
    expect(delivered?.actor.context.attempts).toBe(2);
    expect(delivered?.resend_ids).toEqual(['rsd_1']);
  });

  it('disables a webhook after N deliveries in a row failed, with a webhook.disabled event, and cancels what was waiting', async () => {
    await webhook('/ok');
    failing.add('/ok');
    await notify().handle([event('lead.created', 'live', 'evt_a'), event('lead.updated', 'live', 'evt_b')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    const disabled = await new WebhookRepository(engines.store).find(
      { organizationId: 'org_1', environment: 'live' },
      'wh_ok',
    );
    expect(disabled).toMatchObject({ enabled: false });
    expect(disabled?.disabled_reason).toContain('2 deliveries in a row failed');
    const events = take('leads.events').map((record) => parseLeadEvent(JSON.parse(record.value)));
    expect(events.map((message) => message.event)).toEqual(['webhook.disabled']);
    expect(events.flatMap((message) => eventPayloadProblems(message))).toEqual([]);
    expect(events[0]?.data).toMatchObject({ webhook_id: 'wh_ok', consecutive_failures: 2 });

    // A delivery waiting while the webhook is disabled fails without a POST.
    await webhook('/late', { events: ['lead.created'] });
    await notify().handle([event('lead.created', 'live', 'evt_late')]);
    await new WebhookRepository(engines.store).update(
      { organizationId: 'org_1', environment: 'live' },
      'wh_late',
      { enabled: false },
      clock.toISOString(),
    );
    const before = received.length;
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    expect(received.length).toBe(before);
    const late = await new WebhookDeliveryRepository(engines.store).list(
      { organizationId: 'org_1', environment: 'live' },
      'wh_late',
      1,
      10,
    );
    expect(
      late.items.map((delivery) => [delivery.status, delivery.failure_kind, delivery.actor.context.attempts]),
    ).toEqual([['failed', 'cancelled', 0]]);
  });

  it('loses no retry and no webhook.disabled event to a crash between the store write and the produce', async () => {
    // The outbox writer's order where the store and the log are different systems: documents first,
    // then the produce. This writer dies between the two: the store holds the batch, nothing is
    // produced and the consumer position stays, so the same messages come again.
    let lost: OutputRecord[] = [];
    const diesAfter = (collections: number): BatchWriter => ({
      atomic: false,
      async commit(write: BatchWrite) {
        for (const { collection, operations } of write.documents.slice(0, collections))
          await engines.store.collection(collection).bulkWrite(operations);
        lost = write.records;
      },
    });
    const dying = (autoDisableAfter: number, schedule: number[], collections = Number.POSITIVE_INFINITY) =>
      driveStage(
        deliverStage({
          webhooks: new WebhookRepository(engines.store),
          deliveries: new WebhookDeliveryRepository(engines.store),
          retryScheduleMs: schedule,
          autoDisableAfter,
          allowInsecureTargets: true,
          timeoutMs: 5_000,
          now,
          cipher,
        }),
        diesAfter(collections),
      );
    await webhook('/ok', { events: ['lead.created'] });
    await webhook('/gone', { events: ['lead.updated'] });
    failing.add('/ok');
    failing.add('/gone');
    await notify().handle([event('lead.created', 'live', 'evt_crash'), event('lead.updated', 'live', 'evt_last')]);
    const initial = take(WEBHOOK_DELIVERIES_TOPIC);
    const toOk = initial.filter((record) => record.key === 'wh_ok');
    const toGone = initial.filter((record) => record.key === 'wh_gone');

    // A failed first attempt, stored as waiting for retry 1; its retry message died with the process.
    await dying(0, SCHEDULE).handle(toOk);
    expect(lost.map((record) => record.topic)).toEqual(['webhooks.retry.1m']);
    expect(
      (await deliveries()).map((delivery) => [
        delivery.event_id,
        delivery.status,
        delivery.actor.state,
        delivery.actor.context.retries,
      ]),
    ).toEqual([['evt_crash', 'retrying', 'retry_scheduled', 1]]);
    // Redelivered: no second POST, and retry 1 goes out.
    await deliver(0, SCHEDULE).handle(toOk.map((record) => ({ ...record, offset: String(offsets++) })));
    expect(received.filter((request) => request.path === '/ok')).toHaveLength(1);
    const retries = take('webhooks.retry.');
    expect(retries.map((record) => [record.topic, (JSON.parse(record.value) as { retry: number }).retry])).toEqual([
      ['webhooks.retry.1m', 1],
    ]);
    // The retry applies once (a second copy of it changes nothing): the attempt is made.
    failing.delete('/ok');
    await deliver(0, SCHEDULE).handle([
      ...retries,
      ...retries.map((record) => ({ ...record, offset: String(offsets++) })),
    ]);
    expect(received.filter((request) => request.path === '/ok')).toHaveLength(2);
    expect((await deliveries()).map((delivery) => delivery.status)).toEqual(['delivered']);

    // A final failure that disables the webhook, stored; its webhook.disabled event died with the process.
    await dying(1, []).handle(toGone);
    expect(lost.map((record) => record.topic)).toEqual(['leads.events']);
    const stored = await new WebhookRepository(engines.store).find(
      { organizationId: 'org_1', environment: 'live' },
      'wh_gone',
    );
    expect(stored?.enabled).toBe(false);
    // Redelivered (twice): the same event each time, by id, and no second POST.
    await deliver(1, []).handle(toGone.map((record) => ({ ...record, offset: String(offsets++) })));
    await deliver(1, []).handle(toGone.map((record) => ({ ...record, offset: String(offsets++) })));
    expect(received.filter((request) => request.path === '/gone')).toHaveLength(1);
    const events = take('leads.events').map((record) => parseLeadEvent(JSON.parse(record.value)));
    expect(events.map((message) => [message.event, message.data['webhook_id']])).toEqual([
      ['webhook.disabled', 'wh_gone'],
      ['webhook.disabled', 'wh_gone'],
    ]);
    expect(new Set(events.map((message) => message.id)).size).toBe(1);
    expect(events.flatMap((message) => eventPayloadProblems(message))).toEqual([]);

    // Enabled again by hand: the old event is forgotten, and a late redelivery produces nothing.
    const enabled = await new WebhookRepository(engines.store).update(
      { organizationId: 'org_1', environment: 'live' },
      'wh_gone',
      { enabled: true },
      clock.toISOString(),
    );
    expect(enabled?.enabled).toBe(true);
    expect(enabled).not.toHaveProperty('disabled_event');
    await deliver(1, []).handle(toGone.map((record) => ({ ...record, offset: String(offsets++) })));
    expect(take('leads.events')).toEqual([]);
  });

  /**
   * The deliver stage over a writer that stores the batch's deliveries and dies before the
   * webhook's write (the outbox writer's next bulk write) and before any produce.
   */
  const diesBetweenStoreWrites = (autoDisableAfter: number) => {
    const crashed = { lost: [] as OutputRecord[] };
    const writer: BatchWriter = {
      atomic: false,
      async commit(write: BatchWrite) {
        const [first] = write.documents;
        expect(first?.collection).toBe(WebhookDeliveryRepository.COLLECTION);
        await engines.store.collection(first!.collection).bulkWrite(first!.operations);
        crashed.lost = write.records;
      },
    };
    const stage = deliverStage({
      webhooks: new WebhookRepository(engines.store),
      deliveries: new WebhookDeliveryRepository(engines.store),
      retryScheduleMs: [],
      autoDisableAfter,
      allowInsecureTargets: true,
      timeoutMs: 5_000,
      now,
      cipher,
    });
    return { ...driveStage(stage, writer), crashed };
  };
  const okWebhook = () =>
    new WebhookRepository(engines.store).find({ organizationId: 'org_1', environment: 'live' }, 'wh_ok');

  it("disables the webhook after a crash between the deliveries' write and the webhook's (two bulk writes on Kafka + MongoDB)", async () => {
    await webhook('/ok');
    failing.add('/ok');
    await notify().handle([event('lead.created', 'live', 'evt_first'), event('lead.updated', 'live', 'evt_second')]);
    const messages = take(WEBHOOK_DELIVERIES_TOPIC);
    const dying = diesBetweenStoreWrites(2);
    await dying.handle(messages);
    // The deliveries are stored as failed; the webhook's disable and its event were lost.
    expect((await deliveries()).map((delivery) => delivery.status)).toEqual(['failed', 'failed']);
    expect(dying.crashed.lost.map((record) => record.topic)).toEqual(['leads.events']);
    expect((await okWebhook())?.enabled).toBe(true);

    await deliver(2, []).handle(messages.map((record) => ({ ...record, offset: String(offsets++) })));
    expect(received).toHaveLength(2);
    expect((await okWebhook())?.enabled).toBe(false);
    const events = take('leads.events').map((record) => parseLeadEvent(JSON.parse(record.value)));
    expect(events.map((message) => [message.event, message.data['consecutive_failures']])).toEqual([
      ['webhook.disabled', 2],
    ]);
  });

  it('restarts the failure count from a success whose webhook write a crash lost', async () => {
    await webhook('/ok');
    failing.add('/ok');
    await notify().handle([event('lead.created', 'live', 'evt_fails')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    // A success, stored on its delivery; its move of the webhook's failure count was lost.
    failing.clear();
    clock = new Date(clock.getTime() + 1_000);
    await notify().handle([event('lead.created', 'live', 'evt_succeeds')]);
    const success = take(WEBHOOK_DELIVERIES_TOPIC);
    await diesBetweenStoreWrites(2).handle(success);
    expect((await okWebhook())?.failure_streak_since).toBeNull();
    await deliver(2, []).handle(success.map((record) => ({ ...record, offset: String(offsets++) })));
    expect((await okWebhook())?.failure_streak_since).toBe(clock.toISOString());
    // One failure after the success is not two in a row.
    failing.add('/ok');
    clock = new Date(clock.getTime() + 1_000);
    await notify().handle([event('lead.created', 'live', 'evt_fails_again')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    expect((await okWebhook())?.enabled).toBe(true);
    expect(received).toHaveLength(3);
  });

  it('counts stored failures toward the disable only since the last success', async () => {
    await webhook('/ok');
    failing.add('/ok');
    await notify().handle([event('lead.created', 'live', 'evt_1')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    failing.clear();
    clock = new Date(clock.getTime() + 1_000);
    await notify().handle([event('lead.created', 'live', 'evt_2')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    failing.add('/ok');
    clock = new Date(clock.getTime() + 1_000);
    await notify().handle([event('lead.created', 'live', 'evt_3')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    expect(
      (await new WebhookRepository(engines.store).find({ organizationId: 'org_1', environment: 'live' }, 'wh_ok'))
        ?.enabled,
    ).toBe(true);
    clock = new Date(clock.getTime() + 1_000);
    await notify().handle([event('lead.created', 'live', 'evt_4')]);
    await deliver(2, []).handle(take(WEBHOOK_DELIVERIES_TOPIC));
    expect(
      (await new WebhookRepository(engines.store).find({ organizationId: 'org_1', environment: 'live' }, 'wh_ok'))
        ?.enabled,
    ).toBe(false);
  });
});
