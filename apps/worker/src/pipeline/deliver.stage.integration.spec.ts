/**
 * The deliver stage where two of its consumers, or two runs of one batch, meet, on both engine
 * pairs (the embedded store and log in one transaction; Kafka + FerretDB through the outbox
 * writer), with a real HTTP receiver on loopback:
 *
 * - a re-send (group `deliver`, webhooks.deliveries) and the due retry it races (group
 *   `deliver.retry.<delay>`) both read the delivery waiting for its retry and both POST; the write
 *   that commits second matches nothing, and its batch is decided again on the stored state: the
 *   delivery settles (delivered, or waiting for a retry that applies) with both attempts logged;
 * - a batch run again (a failed commit, or the records tried one at a time around one that fails
 *   every time) makes no second POST for an attempt;
 * - the automatic disable emits webhook.disabled only when it changed the webhook.
 *
 * The race is interleaved deterministically: the re-send's batch decides (and POSTs) first, then
 * the retry's, then the two commit one after the other in the order a case names. (Concurrent
 * compare-and-set writes are not atomic on FerretDB, docs/store.md; sequential ones are.)
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookDeliveryRepository, WebhookRepository, type WebhookDeliveryRecord } from '@leadstream/dal';
import { WEBHOOK_EVENTS, type Webhook, type WebhookDeliveryMessage } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import {
  CredentialsCipher,
  isTransientError,
  Metrics,
  WEBHOOK_DELIVERIES_TOPIC,
  webhookRetryTopic,
  webhookRetryTopics,
} from '@leadstream/runtime';
import Database from 'better-sqlite3';
import { MongoNetworkError } from 'mongodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BatchStage } from '../batch/batch-stage';
import {
  type BatchWrite,
  type BatchWriter,
  type ConsumerPosition,
  documentIds,
  type OutputRecord,
} from '../batch/batch-write';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import { driveStage } from '../test-support/stage-driver';
import { deliverStage } from './deliver.stage';
import { notifyStage } from './notify.stage';
import { TOPICS } from './outputs';

const SCHEDULE = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000];
const cipher = new CredentialsCipher(randomBytes(32));
const tenant = { organizationId: 'org_1', environment: 'live' as const };

/** The POSTs the receiver got, each with its delivery id header and the status it answered. */
let received: Array<{ path: string; delivery: string; status: number }>;
/** Statuses to answer, in order of arrival; 200 once none is left. */
let answers: number[];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const status = answers.shift() ?? 200;
      received.push({ path: request.url ?? '', delivery: String(request.headers['x-service-delivery']), status });
      response.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const opened: EnginePair[] = [];
beforeEach(() => {
  received = [];
  answers = [];
});
afterEach(async () => {
  for (const pair of opened.splice(0)) await pair.close();
});

/** leadstream_webhooks_disabled_total. */
async function disabledCount(metrics: Metrics): Promise<number> {
  return (await metrics.registry.getSingleMetric('leadstream_webhooks_disabled_total')?.get())?.values[0]?.value ?? 0;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe.each(enginePairs('deliver'))('deliver stage on %s', (_name, open) => {
  let pair: EnginePair;
  let produced: OutputRecord[];
  let offsets: number;
  const clock = new Date('2026-03-01T10:00:00.000Z');
  const now = () => clock;

  beforeEach(async () => {
    pair = await open();
    opened.push(pair);
    const topics = [{ topic: WEBHOOK_DELIVERIES_TOPIC, partitions: 1 }, ...webhookRetryTopics(1, SCHEDULE)];
    await pair.log.ensureTopics(topics.flatMap((spec) => [spec, { topic: `${spec.topic}.dlq`, partitions: 1 }]));
    await WebhookRepository.ensureIndexes(pair.store);
    await WebhookDeliveryRepository.ensureIndexes(pair.store);
    produced = [];
    offsets = 0;
  });

  /** The writer, remembering what each committed batch produced (the tests hand it on). */
  const capturing = (writer: BatchWriter): BatchWriter => ({
    atomic: writer.atomic,
    async commit(write: BatchWrite, position: ConsumerPosition) {
      await writer.commit(write, position);
      produced.push(...write.records);
    },
  });
  function take(topicPrefix: string): LogRecord[] {
    const taken = produced.filter((record) => record.topic.startsWith(topicPrefix));
    produced = produced.filter((record) => !record.topic.startsWith(topicPrefix));
    return taken.map((output) => ({
      topic: output.topic,
      partition: 0,
      offset: String(offsets++),
      key: output.key,
      value: output.value,
      headers: {},
      timestamp: clock.getTime(),
    }));
  }
  const message = (
    fields: Partial<WebhookDeliveryMessage> & Pick<WebhookDeliveryMessage, 'delivery_id' | 'kind'>,
    topic: string,
  ): LogRecord => ({
    topic,
    partition: 0,
    offset: String(offsets++),
    key: 'wh_hook',
    value: JSON.stringify({
      schema_version: 1,
      webhook_id: 'wh_hook',
      organization_id: 'org_1',
      environment: 'live',
      ...fields,
    }),
    headers: {},
    timestamp: clock.getTime(),
  });

  async function webhook(overrides: Partial<Webhook> = {}): Promise<Webhook> {
    const hook: Webhook = {
      id: 'wh_hook',
      organization_id: 'org_1',
      environment: 'live',
      url: `${base}/hook`,
      events: [...WEBHOOK_EVENTS],
      enabled: true,
      description: null,
      secret: 'whsec_hook',
      created_at: clock.toISOString(),
      updated_at: clock.toISOString(),
      disabled_at: null,
      disabled_reason: null,
      failure_streak_since: null,
      ...overrides,
    };
    await new WebhookRepository(pair.store).create(hook);
    return hook;
  }
  /** Deliveries of these events, by the notify stage: their initial messages. */
  async function deliveriesOf(...eventIds: string[]): Promise<LogRecord[]> {
    const events = eventIds.map((id) => ({
      topic: TOPICS.events,
      partition: 0,
      offset: String(offsets++),
      key: 'lead_1',
      value: JSON.stringify({
        schema_version: 1,
        id,
        event: 'lead.created',
        timestamp: clock.toISOString(),
        organization_id: 'org_1',
        environment: 'live',
        data: { lead_id: 'lead_1' },
      }),
      headers: {},
      timestamp: 0,
    }));
    await driveStage(notifyStage({ webhooks: new WebhookRepository(pair.store), now }), capturing(pair.writer)).handle(
      events,
    );
    return take(WEBHOOK_DELIVERIES_TOPIC);
  }
  const stageWith = (autoDisableAfter = 0, schedule = SCHEDULE) =>
    deliverStage({
      webhooks: new WebhookRepository(pair.store),
      deliveries: new WebhookDeliveryRepository(pair.store),
      retryScheduleMs: schedule,
      autoDisableAfter,
      allowInsecureTargets: true,
      timeoutMs: 5_000,
      now,
      cipher,
    });
  const stored = async (): Promise<WebhookDeliveryRecord[]> =>
    (await new WebhookDeliveryRepository(pair.store).list(tenant, 'wh_hook', 1, 100)).items;

  describe('a re-send racing the due retry of one delivery', () => {
    it.each([
      { case: 'both fail, the re-send commits first', resend: 500, retry: 500, first: 'resend' },
      { case: 'both fail, the retry commits first', resend: 500, retry: 500, first: 'retry' },
      { case: 'the re-send succeeds and commits first', resend: 200, retry: 500, first: 'resend' },
      { case: 'the re-send succeeds, the retry commits first', resend: 200, retry: 500, first: 'retry' },
      { case: 'the retry succeeds, the re-send commits first', resend: 500, retry: 200, first: 'resend' },
      { case: 'the retry succeeds and commits first', resend: 500, retry: 200, first: 'retry' },
    ] as const)(
      'settles with both attempts logged: $case',
      async ({ resend: resendStatus, retry: retryStatus, first }) => {
        await webhook();
        const [initial] = await deliveriesOf('evt_race');
        // The first attempt fails: the delivery waits for retry 1.
        answers = [500];
        await driveStage(stageWith(), capturing(pair.writer)).handle([initial!]);
        const [waiting] = await stored();
        expect([waiting?.status, waiting?.actor.context.retries]).toEqual(['retrying', 1]);
        const [retryOne] = take('webhooks.retry.');
        expect(retryOne?.topic).toBe(webhookRetryTopic(SCHEDULE[0]!));
        const resend = message(
          { delivery_id: waiting!._id, kind: 'resend', resend_id: 'rsd_race' },
          WEBHOOK_DELIVERIES_TOPIC,
        );

        // One stage, as the runner shares it between its groups; the re-send's batch decides first,
        // then the retry's, both on the stored state; then they commit in the case's order.
        const shared = stageWith();
        const resendDecided = deferred();
        const retryDecided = deferred();
        const firstCommitted = deferred();
        let resendRuns = 0;
        let retryRuns = 0;
        const resendGroup: BatchStage = {
          name: 'deliver',
          topic: WEBHOOK_DELIVERIES_TOPIC,
          async process(records) {
            if (resendRuns++ > 0) return shared.process(records);
            const result = await shared.process(records);
            resendDecided.resolve();
            await retryDecided.promise;
            return result;
          },
        };
        const retryGroup: BatchStage = {
          name: 'deliver.retry.1m',
          topic: retryOne!.topic,
          async process(records) {
            if (retryRuns++ > 0) return shared.process(records);
            await resendDecided.promise;
            const result = await shared.process(records);
            retryDecided.resolve();
            return result;
          },
        };
        const ordered = (mine: 'resend' | 'retry'): BatchWriter => {
          let commits = 0;
          return capturing({
            atomic: pair.writer.atomic,
            async commit(write, position) {
              if (commits++ > 0) return pair.writer.commit(write, position);
              if (mine !== first) await firstCommitted.promise;
              try {
                await pair.writer.commit(write, position);
              } finally {
                if (mine === first) firstCommitted.resolve();
              }
            },
          });
        };
        answers = [resendStatus, retryStatus];
        await Promise.all([
          driveStage(resendGroup, ordered('resend')).handle([resend]),
          driveStage(retryGroup, ordered('retry')).handle([retryOne!]),
        ]);

        // Three POSTs (the first attempt, the re-send, the retry), and all three in the log.
        expect(received.map((request) => request.status)).toEqual([500, resendStatus, retryStatus]);
        expect(new Set(received.map((request) => request.delivery))).toEqual(new Set([waiting!._id]));
        const [raced] = await stored();
        expect(raced?.actor.context.attempts).toBe(3);
        expect(raced?.attempt_log.map((attempt) => [attempt.manual, attempt.response_status]).sort()).toEqual(
          [
            [false, 500],
            [true, resendStatus],
            [false, retryStatus],
          ].sort(),
        );
        expect(raced?.resend_ids).toEqual(['rsd_race']);
        const retries = take('webhooks.retry.');
        if (resendStatus === 500 && retryStatus === 500) {
          // Both failed: waiting for retry 2, whose one message applies.
          expect([raced?.status, raced?.actor.state, raced?.actor.context.retries]).toEqual([
            'retrying',
            'retry_scheduled',
            2,
          ]);
          expect(
            retries.map((record) => [record.topic, (JSON.parse(record.value) as WebhookDeliveryMessage).retry]),
          ).toEqual([[webhookRetryTopic(SCHEDULE[1]!), 2]]);
          await driveStage(stageWith(), capturing(pair.writer)).handle(retries);
          expect(received).toHaveLength(4);
          const [settled] = await stored();
          expect([settled?.status, settled?.actor.context.attempts, settled?.attempt_log.length]).toEqual([
            'delivered',
            4,
            4,
          ]);
        } else {
          // One answered 2xx: delivered, and a retry message left from the race sends nothing.
          expect([raced?.status, raced?.actor.state, raced?.finished_at]).toEqual([
            'delivered',
            'delivered',
            clock.toISOString(),
          ]);
          await driveStage(stageWith(), capturing(pair.writer)).handle(retries);
          expect(received).toHaveLength(3);
          expect((await stored()).map((delivery) => [delivery.status, delivery.actor.context.attempts])).toEqual([
            ['delivered', 3],
          ]);
        }
      },
    );
  });

  describe('a batch run again', () => {
    const transient = (): Error =>
      pair.log.engine === 'embedded'
        ? new Database.SqliteError('database is locked', 'SQLITE_BUSY')
        : new MongoNetworkError('connection 4 to 127.0.0.1:27018 closed');
    const deliveryIdsOf = (write: BatchWrite): string[] =>
      write.documents
        .filter((entry) => entry.collection === WebhookDeliveryRepository.COLLECTION)
        .flatMap((entry) => documentIds(entry.operations));

    it.each([
      'the first commit fails (transient)',
      'the commit of one record fails every time (the others pass one at a time)',
    ])('POSTs each attempt once: %s', async (failure) => {
      await webhook();
      const initials = await deliveriesOf('evt_1', 'evt_2', 'evt_3');
      const ids = initials.map((record) => (JSON.parse(record.value) as WebhookDeliveryMessage).delivery_id);
      const poison = ids[1]!;
      let commits = 0;
      const failing: BatchWriter = {
        atomic: pair.writer.atomic,
        async commit(write, position) {
          if (failure.startsWith('the first') && commits++ === 0) throw transient();
          if (failure.startsWith('the commit of one') && deliveryIdsOf(write).includes(poison))
            throw new Error('this record cannot be stored');
          return pair.writer.commit(write, position);
        },
      };
      await driveStage(stageWith(), capturing(failing), { isTransient: isTransientError }).handle(initials);
      const posts = new Map<string, number>();
      for (const request of received) posts.set(request.delivery, (posts.get(request.delivery) ?? 0) + 1);
      expect(Object.fromEntries(posts)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
      const byId = new Map((await stored()).map((delivery) => [delivery._id, delivery]));
      if (failure.startsWith('the first')) {
        expect(
          ids.map((id) => [
            byId.get(id)?.status,
            byId.get(id)?.actor.context.attempts,
            byId.get(id)?.attempt_log.length,
          ]),
        ).toEqual(ids.map(() => ['delivered', 1, 1]));
      } else {
        expect(ids.map((id) => byId.get(id)?.status)).toEqual(['delivered', 'pending', 'delivered']);
        expect(take(`${WEBHOOK_DELIVERIES_TOPIC}.dlq`).map((record) => record.value)).toEqual([initials[1]!.value]);
      }
    });
  });

  describe('the automatic disable', () => {
    it.each([
      {
        case: 'disabled by hand',
        meddle: (hooks: WebhookRepository) =>
          hooks.update(tenant, 'wh_hook', { enabled: false }, '2026-03-01T10:00:01.000Z'),
      },
      { case: 'deleted', meddle: (hooks: WebhookRepository) => hooks.delete(tenant, 'wh_hook') },
    ])(
      "emits no webhook.disabled when the webhook was $case between the batch's read and its write",
      async ({ case: what, meddle }) => {
        await webhook();
        const initials = await deliveriesOf('evt_down');
        answers = [500];
        let meddled = false;
        const writer: BatchWriter = {
          atomic: pair.writer.atomic,
          async commit(write, position) {
            if (!meddled) {
              meddled = true;
              await meddle(new WebhookRepository(pair.store));
            }
            return pair.writer.commit(write, position);
          },
        };
        const metrics = new Metrics({ defaultMetrics: false });
        await driveStage(stageWith(1, []), capturing(writer), { metrics }).handle(initials);
        expect(take(TOPICS.events)).toEqual([]);
        expect(await disabledCount(metrics)).toBe(0);
        expect(received).toHaveLength(1);
        const hook = await new WebhookRepository(pair.store).find(tenant, 'wh_hook');
        if (what === 'deleted') expect(hook).toBeNull();
        else expect([hook?.enabled, hook?.disabled_reason, hook?.disabled_event]).toEqual([false, null, undefined]);
        expect(
          (await stored()).map((delivery) => [delivery.status, delivery.failure_kind, delivery.actor.context.attempts]),
        ).toEqual([['failed', 'exhausted', 1]]);
      },
    );

    it('disables a webhook changed meanwhile as it is now, with one event naming its new URL', async () => {
      await webhook();
      const initials = await deliveriesOf('evt_down');
      answers = [500];
      let meddled = false;
      const writer: BatchWriter = {
        atomic: pair.writer.atomic,
        async commit(write, position) {
          if (!meddled) {
            meddled = true;
            await new WebhookRepository(pair.store).update(
              tenant,
              'wh_hook',
              { url: `${base}/moved` },
              '2026-03-01T10:00:01.000Z',
            );
          }
          return pair.writer.commit(write, position);
        },
      };
      const metrics = new Metrics({ defaultMetrics: false });
      await driveStage(stageWith(1, []), capturing(writer), { metrics }).handle(initials);
      // Decided twice (the first commit met the change), disabled and counted once.
      expect(await disabledCount(metrics)).toBe(1);
      const events = take(TOPICS.events).map(
        (record) => JSON.parse(record.value) as { event: string; data: { url: string; webhook_id: string } },
      );
      expect(events.map((event) => [event.event, event.data.webhook_id, event.data.url])).toEqual([
        ['webhook.disabled', 'wh_hook', `${base}/moved`],
      ]);
      expect(received.map((request) => request.path)).toEqual(['/hook']);
      const hook = await new WebhookRepository(pair.store).find(tenant, 'wh_hook');
      expect([hook?.enabled, hook?.url]).toEqual([false, `${base}/moved`]);
      expect(hook?.disabled_reason).toContain('1 deliveries in a row failed');
      // A redelivery produces webhook.disabled again, and disables nothing: not counted again.
      await driveStage(stageWith(1, []), capturing(pair.writer), { metrics }).handle(initials);
      expect(take(TOPICS.events).map((record) => (JSON.parse(record.value) as { event: string }).event)).toEqual([
        'webhook.disabled',
      ]);
      expect(await disabledCount(metrics)).toBe(1);
    });
  });
});
