/**
 * Webhooks (docs/webhooks.md): an organization's subscription of a URL to event names. Bodies of
 * POST /api/webhooks and PATCH /api/webhooks/:id are read here; whether the URL's host resolves to
 * public addresses is the caller's check (it needs DNS, this module has no I/O).
 */
import { randomBytes } from 'node:crypto';
import type { ErrorDetail } from '../errors';
import type { Environment } from '../tenant';

/**
 * The events a webhook may subscribe to (docs/api-conventions.md "Events"): the lead, vendor and
 * export events, and lead.accepted. `webhook.disabled` travels on leads.events too but is not
 * subscribable (docs/decisions.md, Webhooks): a webhook that is failing would be told about itself.
 */
export const WEBHOOK_EVENTS = [
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'lead.validated',
  'lead.rejected',
  'lead.duplicate',
  'lead.enriched',
  'lead.crm_synced',
  'lead.crm_sync_failed',
  'vendor.enabled',
  'vendor.disabled',
  'export.completed',
  'export.failed',
  'lead.accepted',
  /** docs/consent.md: a lead's personal data was erased. */
  'lead.erased',
  'lead.reviewed',
  /** docs/caps.md: a volume cap counted its maximum for the period (once per period). */
  'cap.reached',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: unknown): value is WebhookEventName {
  return typeof value === 'string' && (WEBHOOK_EVENTS as readonly string[]).includes(value);
}

export const WEBHOOK_URL_MAX = 2_048;
export const WEBHOOK_DESCRIPTION_MAX = 500;

/** A webhook as the API shows it (`Webhook` in the OpenAPI document) and the store keeps it. */
export interface Webhook {
  id: string;
  organization_id: string;
  /** `sandbox` endpoints receive the sandbox environment's events, the others the live ones (docs/permissions.md). */
  environment: Environment;
  url: string;
  events: WebhookEventName[];
  enabled: boolean;
  description: string | null;
  /**
   * The signing secret as stored: encrypted (`v1:…`, libs/runtime webhook-secrets.ts) or, for a
   * webhook saved before secrets were encrypted, the plain `whsec_…`. Only the create answer
   * shows it in full; reads show `maskWebhookSecret`.
   */
  secret: string;
  created_at: string;
  updated_at: string;
  /** Set when the webhook was disabled automatically (consecutive failed deliveries); cleared when enabled again. */
  disabled_at: string | null;
  disabled_reason: string | null;
  /** Failed deliveries finished after this instant count toward the automatic disable (a success or re-enabling moves it). */
  failure_streak_since: string | null;
  /**
   * Kept by the store, never shown: the webhook.disabled event of an automatic disable, as produced,
   * and the delivery whose failure caused it, so a redelivery of that delivery's message produces
   * the same event again when a crash came between the store write and the produce.
   */
  disabled_event?: WebhookDisabledEventRecord;
}

export interface WebhookDisabledEventRecord {
  delivery_id: string;
  /** The event's JSON on leads.events, byte for byte (same event id on every produce). */
  value: string;
}

export interface WebhookCreate {
  url: string;
  events: WebhookEventName[];
  enabled: boolean;
  description: string | null;
  sandbox: boolean;
}

export interface WebhookPatch {
  url?: string;
  events?: WebhookEventName[];
  enabled?: boolean;
}

export type WebhookParse<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

export interface WebhookUrlRules {
  /** WEBHOOK_ALLOW_INSECURE_TARGETS: http allowed (development and tests). */
  allowInsecureTargets: boolean;
}

const CREATE_KEYS = ['url', 'events', 'enabled', 'description', 'sandbox'] as const;
const PATCH_KEYS = ['url', 'events', 'enabled'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The problem of a webhook URL's form (scheme, credentials, length), or null. */
export function webhookUrlProblem(value: unknown, rules: WebhookUrlRules): string | null {
  if (typeof value !== 'string' || value.length === 0) return 'url is required: an https URL';
  if (value.length > WEBHOOK_URL_MAX) return `url may have at most ${WEBHOOK_URL_MAX} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(rules.allowInsecureTargets && url.protocol === 'http:'))
    return 'url must use https';
  if (url.username || url.password) return 'url may not carry credentials';
  if (url.hash) return 'url may not have a fragment';
  return null;
}

function eventsProblems(value: unknown, details: ErrorDetail[]): WebhookEventName[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    details.push({ field: 'events', message: 'events is required: a non-empty array of event names' });
    return undefined;
  }
  const before = details.length;
  value.forEach((name, index) => {
    if (!isWebhookEvent(name))
      details.push({
        field: `events[${index}]`,
        message: `events[${index}] must be one of ${WEBHOOK_EVENTS.join(', ')}`,
      });
  });
  if (details.length > before) return undefined;
  return [...new Set(value as WebhookEventName[])];
}

function unknownKeys(body: Record<string, unknown>, known: readonly string[]): ErrorDetail[] {
  return Object.keys(body)
    .filter((key) => !known.includes(key))
    .map((key) => ({ field: key, message: `${key} is not a field of this request (${known.join(', ')})` }));
}

/** POST /api/webhooks: {url, events, enabled?, description?, sandbox?}. */
export function parseWebhookCreate(body: unknown, rules: WebhookUrlRules): WebhookParse<WebhookCreate> {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details = unknownKeys(body, CREATE_KEYS);
  const urlProblem = webhookUrlProblem(body['url'], rules);
  if (urlProblem) details.push({ field: 'url', message: urlProblem });
  const events = eventsProblems(body['events'], details);
  const enabled = body['enabled'] ?? true;
  if (typeof enabled !== 'boolean') details.push({ field: 'enabled', message: 'enabled must be true or false' });
  const description = body['description'] ?? null;
  if (description !== null && (typeof description !== 'string' || description.length > WEBHOOK_DESCRIPTION_MAX)) {
    details.push({
      field: 'description',
      message: `description must be a string of at most ${WEBHOOK_DESCRIPTION_MAX} characters`,
    });
  }
  const sandbox = body['sandbox'] ?? false;
  if (typeof sandbox !== 'boolean') details.push({ field: 'sandbox', message: 'sandbox must be true or false' });
  if (details.length > 0 || !events) return { ok: false, details };
  return {
    ok: true,
    value: {
      url: body['url'] as string,
      events,
      enabled: enabled as boolean,
      description: description as string | null,
      sandbox: sandbox as boolean,
    },
  };
}

/** PATCH /api/webhooks/:id (`updateWebhook`): any non-empty subset of url, events, enabled. */
export function parseWebhookPatch(body: unknown, rules: WebhookUrlRules): WebhookParse<WebhookPatch> {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details = unknownKeys(body, PATCH_KEYS);
  const value: WebhookPatch = {};
  if ('url' in body) {
    const problem = webhookUrlProblem(body['url'], rules);
    if (problem) details.push({ field: 'url', message: problem });
    else value.url = body['url'] as string;
  }
  if ('events' in body) {
    const events = eventsProblems(body['events'], details);
    if (events) value.events = events;
  }
  if ('enabled' in body) {
    if (typeof body['enabled'] !== 'boolean')
      details.push({ field: 'enabled', message: 'enabled must be true or false' });
    else value.enabled = body['enabled'];
  }
  if (details.length === 0 && Object.keys(value).length === 0)
    details.push({ field: '(body)', message: 'the body must change at least one of url, events, enabled' });
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * What reads of a webhook show of its secret: `whsec_…` and its last 4 characters, enough to tell
 * secrets apart and nothing to sign with. `null` (a secret that cannot be read) shows `whsec_…`.
 */
export function maskWebhookSecret(secret: string | null): string {
  if (secret === null || !secret.startsWith(WEBHOOK_SECRET_PREFIX) || secret.length < WEBHOOK_SECRET_PREFIX.length + 12)
    return `${WEBHOOK_SECRET_PREFIX}…`;
  return `${WEBHOOK_SECRET_PREFIX}…${secret.slice(-4)}`;
}

/** Whether an event of `environment` goes to this webhook. */
export function webhookWants(
  webhook: Pick<Webhook, 'enabled' | 'events' | 'environment'>,
  event: string,
  environment: Environment,
): boolean {
  return (
    webhook.enabled && webhook.environment === environment && (webhook.events as readonly string[]).includes(event)
  );
}
