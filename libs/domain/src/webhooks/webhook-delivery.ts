/**
 * What a webhook delivery sends (docs/webhooks.md): the envelope `{id, event, timestamp,
 * organization_id, data}` of a domain event, without the pipeline's schema_version and environment.
 * The body is serialized once, when the delivery is created, and every attempt sends those bytes.
 */
import { createHash } from 'node:crypto';

export interface WebhookEnvelope {
  id: string;
  event: string;
  timestamp: string;
  organization_id: string;
  data: Record<string, unknown>;
}

/** The envelope of a domain event as it is sent. */
export function webhookBody(event: WebhookEnvelope): string {
  const envelope: WebhookEnvelope = {
    id: event.id,
    event: event.event,
    timestamp: event.timestamp,
    organization_id: event.organization_id,
    data: event.data,
  };
  return JSON.stringify(envelope);
}

/** The time part of a time-ordered event id (`evt_` and 32 hex characters, the first 12 the time). */
const EVENT_ID_TIME = /^evt_([0-9a-f]{12})[0-9a-f]{20}$/;
/** Time-ordered event ids were first made after this instant (2026-11-29). */
const FIRST_TIME_ORDERED_ID_MS = Date.UTC(2026, 10, 29);
const DAY_MS = 86_400_000;

/**
 * One delivery per (webhook, event): the same event consumed twice makes the same id, so one
 * delivery. The id starts with the event id's time part, so an event's deliveries (ten webhooks
 * make ten a lead event) are written together at the end of the deliveries' `_id` index instead of
 * on a page each; the rest is a hash of the webhook and the event. An event id without a plausible
 * time part (a random one made before ids were ordered by time, or `evt_test_…`) gets the hash
 * alone, as it always did, so such an event consumed again still finds its delivery (a random
 * id falls in that window about once in 9,000 for each year the window spans). Ids made before the prefix
 * became `delivery_` (`dlv_…`) stay readable: they are looked up as given.
 */
export function webhookDeliveryId(webhookId: string, eventId: string, now: number = Date.now()): string {
  const digest = createHash('sha256').update(`${webhookId}\u0000${eventId}`).digest('hex');
  const time = EVENT_ID_TIME.exec(eventId)?.[1];
  const ms = time === undefined ? Number.NaN : Number.parseInt(time, 16);
  const ordered = time !== undefined && ms >= FIRST_TIME_ORDERED_ID_MS && ms <= now + DAY_MS;
  return `delivery_${ordered ? `${time}${digest.slice(0, 20)}` : digest.slice(0, 32)}`;
}

/** The event `POST /api/webhooks/:id/test` sends (`testWebhook`; its ids start with evt_test_). */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/**
 * A message of webhooks.deliveries or a retry delay topic, keyed by webhook id: make an attempt
 * of one delivery. `initial` (the notify stage) applies to a delivery never tried, `retry` n to
 * one waiting for its n-th retry, `resend` (by hand, POST .../deliveries/:id/retry) once per id.
 * Anything else is a redelivery and changes nothing.
 */
export interface WebhookDeliveryMessage {
  schema_version: 1;
  delivery_id: string;
  webhook_id: string;
  organization_id: string;
  environment: 'live' | 'sandbox';
  kind: 'initial' | 'retry' | 'resend';
  /** kind retry: which retry (1 for the first). */
  retry?: number;
  /** kind resend: the request's id. */
  resend_id?: string;
}

/** Reads a delivery message; throws naming what is wrong. */
export function parseWebhookDeliveryMessage(value: unknown): WebhookDeliveryMessage {
  const message = value as Partial<WebhookDeliveryMessage> | null;
  if (
    typeof message !== 'object' ||
    message === null ||
    message.schema_version !== 1 ||
    typeof message.delivery_id !== 'string' ||
    typeof message.webhook_id !== 'string' ||
    typeof message.organization_id !== 'string' ||
    (message.environment !== 'live' && message.environment !== 'sandbox') ||
    (message.kind !== 'initial' && message.kind !== 'retry' && message.kind !== 'resend') ||
    (message.kind === 'retry' && !Number.isInteger(message.retry)) ||
    (message.kind === 'resend' && typeof message.resend_id !== 'string')
  ) {
    throw new Error('not a webhook delivery message');
  }
  return message as WebhookDeliveryMessage;
}
