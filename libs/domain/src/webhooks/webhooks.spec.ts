import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { formatRetryDelay, parseDuration, parseRetrySchedule, DEFAULT_WEBHOOK_RETRY_DELAYS_MS } from './retry-schedule';
import { parseWebhookCreate, parseWebhookPatch, webhookWants, WEBHOOK_EVENTS } from './webhook';
import { initialTransition } from 'xstate';
import {
  advanceDelivery,
  deliveryCan,
  deliveryStatusOf,
  startDelivery,
  webhookDeliveryMachine,
  type PersistedDeliveryActor,
} from './webhook-delivery.machine';
import { parseWebhookDeliveryMessage, webhookBody, webhookDeliveryId } from './webhook-delivery';
import { signatureDigest, signatureHeader, verifySignature } from './webhook-signature';

const SCHEDULE = [60_000, 300_000, 1_800_000, 7_200_000, 86_400_000];
const fail = (at: string, error = 'HTTP 500') => ({
  type: 'FAILED' as const,
  at,
  responseStatus: 500,
  responseTimeMs: 12,
  error,
  retryScheduleMs: SCHEDULE,
});

describe('webhook delivery machine', () => {
  it("starts every delivery as the machine's own initial transition would", () => {
    const [snapshot] = initialTransition(webhookDeliveryMachine, { deliveryId: 'dlv_0' });
    expect(startDelivery('dlv_0')).toEqual({ state: snapshot.value, context: snapshot.context });
  });

  it('delivers on a 2xx and records the attempt', () => {
    let actor = startDelivery('dlv_1');
    expect(actor.state).toBe('pending');
    actor = advanceDelivery(advanceDelivery(actor, { type: 'SEND' }), {
      type: 'SUCCEEDED',
      at: '2026-01-01T00:00:00.000Z',
      responseStatus: 204,
      responseTimeMs: 8,
    });
    expect(actor.state).toBe('delivered');
    expect(actor.context).toMatchObject({
      attempts: 1,
      retries: 0,
      responseStatus: 204,
      responseTimeMs: 8,
      deliveredAt: '2026-01-01T00:00:00.000Z',
      lastAttemptAt: '2026-01-01T00:00:00.000Z',
      nextRetryAt: null,
      error: null,
    });
  });

  it('follows the documented schedule (1 min, 5 min, 30 min, 2 h, 24 h) and fails after the 5th retry', () => {
    let actor: PersistedDeliveryActor = startDelivery('dlv_2');
    let at = Date.parse('2026-01-01T00:00:00.000Z');
    const nextRetries: Array<string | null> = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      actor = advanceDelivery(advanceDelivery(actor, { type: 'SEND' }), fail(new Date(at).toISOString()));
      nextRetries.push(actor.context.nextRetryAt);
      if (actor.state === 'retry_scheduled') at = Date.parse(actor.context.nextRetryAt!);
    }
    expect(nextRetries).toEqual([
      '2026-01-01T00:01:00.000Z',
      '2026-01-01T00:06:00.000Z',
      '2026-01-01T00:36:00.000Z',
      '2026-01-01T02:36:00.000Z',
      '2026-01-02T02:36:00.000Z',
      null,
    ]);
    expect(actor.state).toBe('failed');
    expect(actor.context).toMatchObject({
      attempts: 6,
      retries: 5,
      failureKind: 'exhausted',
      failedAt: '2026-01-02T02:36:00.000Z',
      error: 'HTTP 500',
      responseStatus: 500,
    });
    expect(deliveryStatusOf(actor.state)).toBe('failed');
    expect(deliveryCan(actor, { type: 'SEND' })).toBe(false);
  });

  it('fails at once with an empty schedule, and shows retrying while a retry waits', () => {
    const none = advanceDelivery(advanceDelivery(startDelivery('dlv_3'), { type: 'SEND' }), {
      ...fail('2026-01-01T00:00:00.000Z'),
      retryScheduleMs: [],
    });
    expect(none.state).toBe('failed');
    const waiting = advanceDelivery(
      advanceDelivery(startDelivery('dlv_4'), { type: 'SEND' }),
      fail('2026-01-01T00:00:00.000Z'),
    );
    expect(deliveryStatusOf(waiting.state)).toBe('retrying');
    expect(deliveryStatusOf('pending')).toBe('pending');
  });

  it('re-sends by hand from a final state: a success delivers, a failure stays failed without a new schedule', () => {
    const failed = advanceDelivery(advanceDelivery(startDelivery('dlv_5'), { type: 'SEND' }), {
      ...fail('2026-01-01T00:00:00.000Z'),
      retryScheduleMs: [],
    });
    const resentFailing = advanceDelivery(
      advanceDelivery(failed, { type: 'RESEND' }),
      fail('2026-01-01T01:00:00.000Z', 'HTTP 502'),
    );
    expect(resentFailing.state).toBe('failed');
    expect(resentFailing.context).toMatchObject({
      attempts: 2,
      retries: 0,
      failureKind: 'manual',
      nextRetryAt: null,
      error: 'HTTP 502',
    });
    const resent = advanceDelivery(advanceDelivery(resentFailing, { type: 'RESEND' }), {
      type: 'SUCCEEDED',
      at: '2026-01-01T02:00:00.000Z',
      responseStatus: 200,
      responseTimeMs: 3,
    });
    expect(resent.state).toBe('delivered');
    expect(resent.context).toMatchObject({ attempts: 3, failureKind: null, failedAt: null, error: null });
  });

  it('keeps a waiting retry when a re-send by hand fails', () => {
    const waiting = advanceDelivery(
      advanceDelivery(startDelivery('dlv_6'), { type: 'SEND' }),
      fail('2026-01-01T00:00:00.000Z'),
    );
    const after = advanceDelivery(advanceDelivery(waiting, { type: 'RESEND' }), fail('2026-01-01T00:00:30.000Z'));
    expect(after.state).toBe('retry_scheduled');
    expect(after.context).toMatchObject({ attempts: 2, retries: 1, nextRetryAt: '2026-01-01T00:01:00.000Z' });
  });

  it('is cancelled without an attempt when the webhook went away, and refuses what a state does not take', () => {
    const cancelled = advanceDelivery(startDelivery('dlv_7'), {
      type: 'CANCELLED',
      at: '2026-01-01T00:00:00.000Z',
      error: 'the webhook was deleted',
    });
    expect(cancelled.state).toBe('failed');
    expect(cancelled.context).toMatchObject({ attempts: 0, failureKind: 'cancelled' });
    expect(() =>
      advanceDelivery(startDelivery('dlv_8'), {
        type: 'SUCCEEDED',
        at: '2026-01-01T00:00:00.000Z',
        responseStatus: 200,
        responseTimeMs: 1,
      }),
    ).toThrow('cannot take SUCCEEDED');
  });
});

describe('webhook signature', () => {
  it('is HMAC-SHA256 of "<t>.<raw body>" with the secret, as t=<unix>,v1=<hex>', () => {
    // Reference digest computed independently: printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test
    expect(signatureDigest('whsec_test', 1_700_000_000, '{"a":1}')).toBe(
      '38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
    );
    expect(signatureHeader('whsec_test', 1_700_000_000, '{"a":1}')).toBe(
      't=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789',
    );
  });

  it('verifies over the raw body, within the tolerance only', () => {
    const body = '{"id":"evt_1","event":"lead.created"}';
    const header = signatureHeader('whsec_s', 1_700_000_000, body);
    expect(verifySignature(header, body, 'whsec_s', 1_700_000_100)).toBe(true);
    expect(verifySignature(header, body, 'whsec_s', 1_700_000_301)).toBe(false);
    expect(verifySignature(header, `${body} `, 'whsec_s', 1_700_000_000)).toBe(false);
    expect(verifySignature(header, body, 'whsec_other', 1_700_000_000)).toBe(false);
  });
});

describe('retry schedule', () => {
  it('reads comma-separated durations', () => {
    expect(parseRetrySchedule('1m,5m,30m,2h,24h')).toEqual(SCHEDULE);
    expect(DEFAULT_WEBHOOK_RETRY_DELAYS_MS).toEqual(SCHEDULE);
    expect(parseRetrySchedule(' 1s, 1s ,250ms')).toEqual([1_000, 1_000, 250]);
    expect(parseRetrySchedule('')).toEqual([]);
    expect(parseDuration('1d')).toBe(86_400_000);
  });

  it('names what is wrong', () => {
    expect(() => parseRetrySchedule('1m,soon')).toThrow('"soon" is not a duration');
    expect(() => parseDuration('0s')).toThrow('between 1ms and 7d');
    expect(() => parseDuration('8d')).toThrow('between 1ms and 7d');
  });

  it('names each delay in its largest whole unit (the delay topics)', () => {
    expect(SCHEDULE.map(formatRetryDelay)).toEqual(['1m', '5m', '30m', '2h', '24h']);
    expect([1_000, 1_500, 90_000].map(formatRetryDelay)).toEqual(['1s', '1500ms', '90s']);
  });
});

describe('webhook bodies', () => {
  const rules = { allowInsecureTargets: false };

  it('reads a creation with its defaults', () => {
    expect(
      parseWebhookCreate(
        { url: 'https://hooks.example.com/in', events: ['lead.created', 'lead.created', 'lead.accepted'] },
        rules,
      ),
    ).toEqual({
      ok: true,
      value: {
        url: 'https://hooks.example.com/in',
        events: ['lead.created', 'lead.accepted'],
        enabled: true,
        description: null,
        sandbox: false,
      },
    });
  });

  it('names every problem, unknown fields included', () => {
    const parsed = parseWebhookCreate(
      {
        url: 'http://hooks.example.com/in',
        events: ['lead.created', 'webhook.disabled'],
        enabled: 'yes',
        secret: 'mine',
      },
      rules,
    );
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field)).toEqual([
      'secret',
      'url',
      'events[1]',
      'enabled',
    ]);
  });

  it('allows http only with insecure targets allowed, and never credentials in the URL', () => {
    expect(
      parseWebhookCreate({ url: 'http://127.0.0.1:9/in', events: ['lead.created'] }, { allowInsecureTargets: true }).ok,
    ).toBe(true);
    const withCredentials = parseWebhookCreate(
      { url: 'https://user:pw@hooks.example.com/', events: ['lead.created'] },
      rules,
    );
    expect(withCredentials.ok ? [] : withCredentials.details).toEqual([
      { field: 'url', message: 'url may not carry credentials' },
    ]);
  });

  it('reads a patch of url, events and enabled only, and not an empty one', () => {
    expect(parseWebhookPatch({ enabled: false }, rules)).toEqual({ ok: true, value: { enabled: false } });
    const described = parseWebhookPatch({ description: 'x' }, rules);
    expect(described.ok ? [] : described.details.map((detail) => detail.field)).toEqual(['description']);
    const empty = parseWebhookPatch({}, rules);
    expect(empty.ok ? [] : empty.details.map((detail) => detail.field)).toEqual(['(body)']);
  });

  it('matches events of its environment only', () => {
    const webhook = { enabled: true, events: [...WEBHOOK_EVENTS], environment: 'sandbox' as const };
    expect(webhookWants(webhook, 'lead.created', 'sandbox')).toBe(true);
    expect(webhookWants(webhook, 'lead.created', 'live')).toBe(false);
    expect(webhookWants({ ...webhook, enabled: false }, 'lead.created', 'sandbox')).toBe(false);
  });

  it('sends the documented envelope without schema_version and environment, under a deterministic delivery id', () => {
    const body = webhookBody({
      schema_version: 1,
      environment: 'live',
      id: 'evt_1',
      event: 'lead.created',
      timestamp: '2026-01-01T00:00:00.000Z',
      organization_id: 'org_1',
      data: { lead: { id: 'lead_1' } },
    } as never);
    expect(JSON.parse(body)).toEqual({
      id: 'evt_1',
      event: 'lead.created',
      timestamp: '2026-01-01T00:00:00.000Z',
      organization_id: 'org_1',
      data: { lead: { id: 'lead_1' } },
    });
    expect(webhookDeliveryId('wh_1', 'evt_1')).toBe(webhookDeliveryId('wh_1', 'evt_1'));
    expect(webhookDeliveryId('wh_1', 'evt_1')).not.toBe(webhookDeliveryId('wh_2', 'evt_1'));
    expect(webhookDeliveryId('webhook_1', 'evt_1')).toMatch(/^delivery_[0-9a-f]{32}$/);
  });

  it('starts a delivery id with the time part of its event id, so deliveries sort as their events', () => {
    const now = Date.UTC(2027, 0, 1);
    const earlier = `evt_${Date.UTC(2026, 11, 1).toString(16).padStart(12, '0')}${'c'.repeat(20)}`;
    const later = `evt_${(Date.UTC(2026, 11, 1) + 1).toString(16).padStart(12, '0')}${'0'.repeat(20)}`;
    const ids = ['webhook_b', 'webhook_a'].flatMap((webhook) => [
      webhookDeliveryId(webhook, earlier, now),
      webhookDeliveryId(webhook, later, now),
    ]);
    for (const id of ids) expect(id).toMatch(/^delivery_[0-9a-f]{32}$/);
    expect(ids.map((id) => id.slice(9, 21))).toEqual([earlier, later, earlier, later].map((id) => id.slice(4, 16)));
    // Still one id per (webhook, event), and different webhooks of one event differ.
    expect(webhookDeliveryId('webhook_a', later, now)).toBe(ids[3]);
    expect(new Set(ids).size).toBe(4);
  });

  it('keeps the hash alone for an event id without a plausible time part, as before ids were ordered', () => {
    const now = Date.UTC(2027, 0, 1);
    const hashAlone = (eventId: string): string =>
      `delivery_${createHash('sha256').update(`webhook_a\u0000${eventId}`).digest('hex').slice(0, 32)}`;
    // A random id (a UUIDv4's hex) made before: its first 12 characters read as a time far away.
    const random = 'evt_9f1c2b7a4d5e4f60a1b2c3d4e5f60718';
    expect(webhookDeliveryId('webhook_a', random, now)).toBe(hashAlone(random));
    // Before time-ordered ids existed, and more than a day ahead of the clock: not a time part.
    const before = `evt_${Date.UTC(2025, 0, 1).toString(16).padStart(12, '0')}${'a'.repeat(20)}`;
    const ahead = `evt_${(now + 2 * 86_400_000).toString(16).padStart(12, '0')}${'a'.repeat(20)}`;
    expect(webhookDeliveryId('webhook_a', before, now)).toBe(hashAlone(before));
    expect(webhookDeliveryId('webhook_a', ahead, now)).toBe(hashAlone(ahead));
    expect(webhookDeliveryId('webhook_a', 'evt_test_1', now)).toBe(hashAlone('evt_test_1'));
  });

  it('reads delivery messages', () => {
    const message = {
      schema_version: 1,
      delivery_id: 'dlv_1',
      webhook_id: 'wh_1',
      organization_id: 'org_1',
      environment: 'live',
      kind: 'retry',
      retry: 2,
    };
    expect(parseWebhookDeliveryMessage(message)).toEqual(message);
    expect(() => parseWebhookDeliveryMessage({ ...message, retry: undefined })).toThrow(
      'not a webhook delivery message',
    );
    expect(() => parseWebhookDeliveryMessage({ ...message, kind: 'resend' })).toThrow('not a webhook delivery message');
  });
});
