/**
 * Deliver stage (docs/webhooks.md, docs/architecture.md): consumes webhooks.deliveries
 * (group `deliver`) and the retry delay topics (webhooks.retry.<delay>, which hold a record back
 * until its time; a group each, `deliver.retry.<delay>`, so a waiting retry holds no new delivery:
 * batch/retrying-stage-runner.ts), and makes the attempts a batch asks for, in parallel (bounded):
 *
 * - prefetch: the batch's deliveries and their webhooks, one read per tenant;
 * - decide: the message applies when the delivery actor is where the message expects it (an
 *   initial message to a pending delivery, retry n to one waiting for retry n, a re-send once per
 *   request id); otherwise it is a redelivery and changes nothing;
 * - POST the envelope (the bytes stored at creation) signed afresh for this attempt through the
 *   runtime's outbound HTTP (https and public addresses checked after DNS on every call, no
 *   redirects, bounded time); 2xx is delivered, anything else a failure. The webhook's secret is
 *   stored encrypted (or, saved before secrets were encrypted, in plaintext) and opened for each
 *   attempt; a secret that does not decrypt with this process's key fails the attempt unsent;
 * - write the advanced actors, the attempt log, the next retry's message on the delay topic of its
 *   delay, and (after WEBHOOK_AUTO_DISABLE_AFTER deliveries in a row ended failed) the webhook's
 *   automatic disable with its webhook.disabled event, all in the batch's commit.
 *
 * Several consumers write one delivery: a re-send (webhooks.deliveries, group `deliver`) may be
 * handled while the delivery's due retry is (its delay topic's group), both reading the same stored
 * state. The delivery writes and the disable are compare-and-set (the version read; the webhook
 * enabled and unchanged): a write that matched nothing makes the writer throw WriteConflictError,
 * and the batch is decided again on the stored state. So the webhook.disabled event goes out only
 * with a disable that changed the webhook.
 *
 * An attempt is made once per attempt id (the message's: initial, retry n, re-send id) in this
 * process: its outcome is kept before the commit, as crm-sync keeps its calls' outcomes, so a
 * batch run again (a write conflict, a failed commit, its records tried one at a time around one
 * that fails every time) applies the kept outcome to the stored state instead of POSTing again.
 * Each attempt log entry names its attempt id, which tells an attempt stored (the batch's write
 * landed for that delivery) from one whose write was lost. The kept outcome goes on the stored
 * state as the message would have: where that state moved on meanwhile (another consumer's
 * attempt), the attempt is still logged and counted, a success makes the delivery delivered, and a
 * failure leaves the state as it is (no retry scheduled twice, no failed re-send undoing a delivery
 * that another attempt delivered).
 *
 * A crash between a POST and the commit leaves the delivery as it was stored and the message
 * uncommitted: the attempt is made again (at-least-once, same event id: receivers discard repeats).
 * Where the store and the log are different systems the commit writes the store first and then
 * produces: a crash between the two leaves the delivery advanced and its follow-up (the next
 * retry's message, the webhook.disabled event) unproduced. The message is then redelivered and no
 * longer applies, and the stage produces that follow-up again from what the store holds (a retry
 * message applies once; the event is the stored one, with its id).
 */
import {
  MAX_ATTEMPT_LOG,
  MAX_RESEND_IDS,
  WebhookDeliveryRepository,
  WebhookRepository,
  type WebhookDeliveryRecord,
} from '@leadstream/dal';
import {
  advanceDelivery,
  deliveryCan,
  deliveryStatusOf,
  parseWebhookDeliveryMessage,
  SIGNATURE_HEADER,
  signatureHeader,
  type DeliveryActorEvent,
  type PersistedDeliveryActor,
  type TenantContext,
  type Webhook,
  type WebhookDeliveryMessage,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import {
  CredentialsCipherError,
  openWebhookSecret,
  sendOutbound,
  WEBHOOK_DELIVERIES_TOPIC,
  webhookRetryTopic,
  type CredentialsCipher,
  type OutboundOptions,
} from '@leadstream/runtime';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { emptyBatchWrite, type OutputRecord } from '../batch/batch-write';
import { deadLetter, mapBounded } from '../batch/lead-stage';
import { KeptOutcomes } from '../batch/kept-outcomes';
import { newId } from './ids';
import { TOPICS } from './outputs';

export interface DeliverStageOptions {
  webhooks: Pick<WebhookRepository, 'findMany'>;
  deliveries: Pick<WebhookDeliveryRepository, 'findMany' | 'countExhaustedSince'>;
  /** Opens webhook secrets stored encrypted (the key of CRM_CREDENTIALS_KEY, as the API's). */
  cipher: CredentialsCipher;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** WEBHOOK_RETRY_SCHEDULE: retry n waits retryScheduleMs[n-1] (default 1m, 5m, 30m, 2h, 24h). */
  retryScheduleMs: readonly number[];
  /** WEBHOOK_AUTO_DISABLE_AFTER: deliveries in a row that end failed before the webhook is disabled; 0 = never. */
  autoDisableAfter: number;
  allowInsecureTargets?: boolean;
  resolve?: OutboundOptions['resolve'];
  /** Attempts of one batch in flight at once. */
  concurrency?: number;
  now?: () => Date;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;

const tenantKey = (tenant: TenantContext): string => `${tenant.environment}\u0000${tenant.organizationId}`;
const tenantOf = (message: Pick<WebhookDeliveryMessage, 'organization_id' | 'environment'>): TenantContext => ({ organizationId: message.organization_id, environment: message.environment });

interface Attempt {
  message: WebhookDeliveryMessage;
  delivery: WebhookDeliveryRecord;
  webhook: Webhook;
  event: 'SEND' | 'RESEND';
}

/** An attempt made (a POST, or one failed unsent): what it asked of the delivery in which state, and what came back. */
interface MadeAttempt {
  event: 'SEND' | 'RESEND';
  /** The delivery's state when the attempt was decided. */
  from: PersistedDeliveryActor['state'];
  result: AttemptResult;
  startedAt: string;
}

/** Attempts kept for a batch run again (the same attempt is not made twice), oldest dropped first. */
const MADE_ATTEMPTS_LIMIT = 10_000;

/** The attempt a message asks for, as the attempt log names it. */
function attemptIdOf(message: WebhookDeliveryMessage): string {
  switch (message.kind) {
    case 'initial':
      return 'initial';
    case 'retry':
      return `retry:${message.retry ?? 0}`;
    case 'resend':
      return `resend:${message.resend_id ?? ''}`;
  }
}

/** The stage; its runner consumes webhooks.deliveries, and the delay topics of `retryScheduleMs` in groups of their own. */
export function deliverStage(options: DeliverStageOptions): BatchStage & { retryScheduleMs: readonly number[] } {
  const now = options.now ?? (() => new Date());
  // By delivery and attempt id; shared by the stage's groups (the runner runs one stage for all).
  const madeAttempts = new KeptOutcomes<MadeAttempt>(MADE_ATTEMPTS_LIMIT);
  return {
    name: 'deliver',
    topic: WEBHOOK_DELIVERIES_TOPIC,
    retryScheduleMs: options.retryScheduleMs,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      // Parse; a second message of a delivery already in this batch waits for the next one (it
      // may apply only once the first attempt's outcome is stored).
      const messages: Array<{ record: LogRecord; message: WebhookDeliveryMessage }> = [];
      const seen = new Set<string>();
      let handled = records.length;
      for (let index = 0; index < records.length; index++) {
        const record = records[index]!;
        let message: WebhookDeliveryMessage;
        try {
          message = parseWebhookDeliveryMessage(JSON.parse(record.value));
        } catch (error) {
          write.records.push(deadLetter(record, error instanceof Error ? error.message : String(error)));
          continue;
        }
        if (seen.has(message.delivery_id)) {
          handled = index;
          break;
        }
        seen.add(message.delivery_id);
        messages.push({ record, message });
      }

      // Prefetch: deliveries and webhooks of each tenant, one read each.
      const byTenant = new Map<string, { tenant: TenantContext; deliveryIds: string[]; webhookIds: Set<string> }>();
      for (const { message } of messages) {
        const tenant = tenantOf(message);
        const entry = byTenant.get(tenantKey(tenant)) ?? { tenant, deliveryIds: [], webhookIds: new Set<string>() };
        entry.deliveryIds.push(message.delivery_id);
        entry.webhookIds.add(message.webhook_id);
        byTenant.set(tenantKey(tenant), entry);
      }
      const deliveries = new Map<string, WebhookDeliveryRecord>();
      const webhooks = new Map<string, Webhook>();
      await Promise.all(
        [...byTenant.values()].map(async ({ tenant, deliveryIds, webhookIds }) => {
          const [foundDeliveries, foundWebhooks] = await Promise.all([options.deliveries.findMany(tenant, deliveryIds), options.webhooks.findMany(tenant, [...webhookIds])]);
          for (const delivery of foundDeliveries) deliveries.set(delivery._id, delivery);
          for (const webhook of foundWebhooks) webhooks.set(webhook.id, webhook);
        }),
      );

      // Decide which messages apply; cancel automatic attempts of webhooks disabled or deleted meanwhile.
      const at = now();
      const attempts: Attempt[] = [];
      // Attempts an earlier run of this batch (or another group) made whose outcome is not stored.
      const remade: Array<{ message: WebhookDeliveryMessage; delivery: WebhookDeliveryRecord; made: Promise<MadeAttempt> }> = [];
      const advanced: Array<{ previous: WebhookDeliveryRecord; next: WebhookDeliveryRecord }> = [];
      // Redelivered messages whose webhook side may have been lost (below): stored successes, and final failures to count again.
      const storedSuccesses = new Map<string, string>();
      const recheck = new Map<string, string>();
      for (const { message } of messages) {
        const delivery = deliveries.get(message.delivery_id);
        if (!delivery || delivery.webhook_id !== message.webhook_id) continue;
        const webhook = webhooks.get(message.webhook_id);
        const key = `${delivery._id}#${attemptIdOf(message)}`;
        const earlier = madeAttempts.get(key);
        if (earlier) {
          // Made already, by a run of this batch whose write did not land for this delivery: its
          // outcome goes on the state stored now, without calling again.
          if (!delivery.attempt_log.some((entry) => entry.attempt_id === attemptIdOf(message))) {
            remade.push({ message, delivery, made: earlier });
            continue;
          }
          madeAttempts.forget(key);
        }
        const event = applicable(message, delivery);
        if (!event) {
          write.records.push(...followUpsOf(message, delivery, webhook, options.retryScheduleMs));
          // Where the store and the log are different systems, the batch's delivery and webhook
          // writes are two bulk writes: a crash between them loses the webhook's side of this
          // message (the success that restarts the failure count, or the automatic disable). Both
          // are redone from the stored delivery; both are idempotent.
          if (webhook && delivery.finished_at) {
            if (delivery.actor.state === 'delivered') storedSuccesses.set(webhook.id, later(storedSuccesses.get(webhook.id), delivery.finished_at));
            else if (webhook.enabled && delivery.actor.state === 'failed' && delivery.actor.context.failureKind === 'exhausted') recheck.set(webhook.id, delivery._id);
          }
          continue;
        }
        if (event === 'SEND' && !webhook?.enabled) {
          const cancelled: DeliveryActorEvent = { type: 'CANCELLED', at: at.toISOString(), error: webhook ? 'the webhook was disabled before this attempt' : 'the webhook was deleted' };
          advanced.push({ previous: delivery, next: withActor(delivery, advanceDelivery(delivery.actor, cancelled), at.toISOString()) });
          continue;
        }
        if (!webhook) continue;
        attempts.push({ message, delivery, webhook, event });
      }

      // The attempts, in parallel: each signed with its own timestamp, each outcome kept before the commit.
      const send = async (attempt: Attempt): Promise<MadeAttempt> => {
        const startedAt = now();
        const decided: Omit<MadeAttempt, 'result'> = { event: attempt.event, from: attempt.delivery.actor.state, startedAt: startedAt.toISOString() };
        const secret = readableSecret(options.cipher, attempt.webhook);
        if (secret === null) return { ...decided, result: UNREADABLE_SECRET };
        const timestamp = Math.floor(startedAt.getTime() / 1000);
        const result = await sendOutbound(
          {
            url: attempt.webhook.url,
            method: 'POST',
            rawBody: attempt.delivery.body,
            headers: {
              [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, attempt.delivery.body),
              'X-Service-Event': attempt.delivery.event_type,
              'X-Service-Delivery': attempt.delivery._id,
            },
          },
          { timeoutMs: options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS, ...(options.allowInsecureTargets ? { allowInsecureTargets: true } : {}), ...(options.resolve ? { resolve: options.resolve } : {}) },
        );
        return { ...decided, result };
      };
      const sent = await mapBounded(attempts, options.concurrency ?? 64, async (attempt) => {
        const outcome = send(attempt);
        madeAttempts.keep(`${attempt.delivery._id}#${attemptIdOf(attempt.message)}`, outcome);
        return { message: attempt.message, delivery: attempt.delivery, made: await outcome };
      });
      const outcomes = [...(await Promise.all(remade.map(async (entry) => ({ message: entry.message, delivery: entry.delivery, made: await entry.made })))), ...sent];

      const successes = new Map<string, string>();
      const exhausted = new Map<string, Array<{ at: string; deliveryId: string }>>();
      for (const { message, delivery, made } of outcomes) {
        const { next, settled } = settle(delivery, message, made, options.retryScheduleMs);
        advanced.push({ previous: delivery, next });
        const { startedAt } = made;
        const actor = next.actor;
        if (made.result.ok) {
          if ((successes.get(delivery.webhook_id) ?? '') < startedAt) successes.set(delivery.webhook_id, startedAt);
        } else if (settled && actor.state === 'failed' && actor.context.failureKind === 'exhausted') {
          exhausted.set(delivery.webhook_id, [...(exhausted.get(delivery.webhook_id) ?? []), { at: startedAt, deliveryId: delivery._id }]);
        }
        // The next automatic retry waits on the delay topic of its delay (a manual attempt schedules none).
        if (settled && made.event === 'SEND' && actor.state === 'retry_scheduled') {
          // The delay counts from the produce, at the batch's commit.
          const retry = retryMessage(message, actor.context.retries, options.retryScheduleMs);
          if (retry) write.records.push(retry);
        }
      }

      if (advanced.length > 0) {
        write.documents.push({
          collection: WebhookDeliveryRepository.COLLECTION,
          operations: advanced.map(({ previous, next }) => WebhookDeliveryRepository.advanceOperation(previous, next)) as never,
          compareAndSet: true,
        });
      }
      const webhookOperations = [];
      for (const [webhookId, at] of [...storedSuccesses, ...successes]) {
        const webhook = webhooks.get(webhookId);
        if (!webhook) continue;
        webhookOperations.push(WebhookRepository.successOperation({ organizationId: webhook.organization_id, environment: webhook.environment }, webhookId, at));
      }
      if (webhookOperations.length > 0) write.documents.push({ collection: WebhookRepository.COLLECTION, operations: webhookOperations as never });
      // Automatic disable: deliveries in a row that ended failed (retries used up), counted since the
      // last success. Compare-and-set on the webhook as read (enabled, same updated_at): a webhook
      // disabled, deleted or changed meanwhile makes the batch decided again, so the event goes out
      // only with a disable that changed the webhook.
      const disables = [];
      if (options.autoDisableAfter > 0) {
        for (const webhookId of new Set([...exhausted.keys(), ...recheck.keys()])) {
          const webhook = webhooks.get(webhookId);
          if (!webhook?.enabled) continue;
          const failures = exhausted.get(webhookId) ?? [];
          const lastSuccess = successes.get(webhookId);
          const fresh = failures.filter((failure) => !lastSuccess || failure.at > lastSuccess).length;
          const tenant = { organizationId: webhook.organization_id, environment: webhook.environment };
          // Stored failures count only when this batch saw no success (the query runs before this
          // batch's writes), since the latest success the store holds or should hold.
          const restored = storedSuccesses.get(webhookId);
          const since = restored !== undefined && (webhook.failure_streak_since === null || restored > webhook.failure_streak_since) ? restored : webhook.failure_streak_since;
          const streak = fresh + (lastSuccess ? 0 : await options.deliveries.countExhaustedSince(tenant, webhookId, since));
          if (streak < options.autoDisableAfter) continue;
          const disabledAt = at.toISOString();
          const reason = `disabled automatically after ${streak} deliveries in a row failed (WEBHOOK_AUTO_DISABLE_AFTER=${options.autoDisableAfter})`;
          const event = webhookDisabledEvent(webhook, disabledAt, reason, streak);
          const causedBy = failures.at(-1)?.deliveryId ?? recheck.get(webhookId)!;
          disables.push(WebhookRepository.disableOperation(tenant, webhookId, disabledAt, reason, { delivery_id: causedBy, value: event.value }, webhook.updated_at));
          write.records.push(event);
        }
      }
      if (disables.length > 0) write.documents.push({ collection: WebhookRepository.COLLECTION, operations: disables as never, compareAndSet: true });
      return { write, handled };
    },
  };
}

/** What the actor and the attempt log take from an attempt (an outbound call's result is one). */
type AttemptResult = { ok: true; status: number; timeMs: number } | { ok: false; status: number | null; timeMs: number; error: string };

/** An attempt whose secret cannot be opened: a failed attempt with nothing sent. */
const UNREADABLE_SECRET: AttemptResult = {
  ok: false,
  status: null,
  timeMs: 0,
  error: "the webhook's signing secret does not decrypt with the configured key (CRM_CREDENTIALS_KEY changed?)",
};

/** The secret to sign with, or null when it does not decrypt with this process's key. */
function readableSecret(cipher: CredentialsCipher, webhook: Webhook): string | null {
  try {
    return openWebhookSecret(cipher, webhook);
  } catch (error) {
    if (error instanceof CredentialsCipherError) return null;
    throw error;
  }
}

/**
 * The delivery after an attempt made for this message, on the state stored now (read after the
 * attempt when an earlier run of the batch made it), with the attempt logged. `settled` is false
 * when the state had moved on meanwhile so that the attempt is only logged and counted: a success
 * still makes the delivery delivered, a failure leaves the state as it is.
 */
function settle(delivery: WebhookDeliveryRecord, message: WebhookDeliveryMessage, made: MadeAttempt, retryScheduleMs: readonly number[]): { next: WebhookDeliveryRecord; settled: boolean } {
  const { event, from, result, startedAt } = made;
  const outcome: DeliveryActorEvent = result.ok
    ? { type: 'SUCCEEDED', at: startedAt, responseStatus: result.status, responseTimeMs: result.timeMs }
    : { type: 'FAILED', at: startedAt, responseStatus: result.status, responseTimeMs: result.timeMs, error: result.error, retryScheduleMs };
  const state = delivery.actor.state;
  // A failed re-send returns the delivery where it was; where another attempt ended it meanwhile
  // (delivered, or failed), it stays so.
  const resendOvertaken = event === 'RESEND' && !result.ok && state !== from && (state === 'delivered' || state === 'failed');
  let next: WebhookDeliveryRecord;
  let settled = true;
  if (applicable(message, delivery) === event && !resendOvertaken) {
    next = withActor(delivery, advanceDelivery(advanceDelivery(delivery.actor, { type: event }), outcome), startedAt);
  } else if (result.ok && state !== 'delivered' && deliveryCan(delivery.actor, { type: 'RESEND' })) {
    // The endpoint took an attempt the delivery had moved past: it is delivered.
    next = withActor(delivery, advanceDelivery(advanceDelivery(delivery.actor, { type: 'RESEND' }), outcome), startedAt);
    settled = false;
  } else {
    const context = delivery.actor.context;
    const lastAttemptAt = context.lastAttemptAt !== null && context.lastAttemptAt > startedAt ? context.lastAttemptAt : startedAt;
    next = { ...delivery, actor: { state, context: { ...context, attempts: context.attempts + 1, lastAttemptAt } } };
    settled = false;
  }
  next.attempt_log = [
    ...delivery.attempt_log,
    { attempt_id: attemptIdOf(message), at: startedAt, response_status: result.status, response_time_ms: result.timeMs, error: result.ok ? null : result.error, manual: event === 'RESEND' },
  ].slice(-MAX_ATTEMPT_LOG);
  if (message.kind === 'resend' && message.resend_id) next.resend_ids = [...delivery.resend_ids, message.resend_id].slice(-MAX_RESEND_IDS);
  return { next, settled };
}

/** The actor event a message asks for, or null when the delivery is past it (a redelivery). */
function applicable(message: WebhookDeliveryMessage, delivery: WebhookDeliveryRecord): 'SEND' | 'RESEND' | null {
  const { state, context } = delivery.actor;
  switch (message.kind) {
    case 'initial':
      return state === 'pending' ? 'SEND' : null;
    case 'retry':
      return state === 'retry_scheduled' && context.retries === message.retry ? 'SEND' : null;
    case 'resend':
      return message.resend_id && !delivery.resend_ids.includes(message.resend_id) && deliveryCan(delivery.actor, { type: 'RESEND' }) ? 'RESEND' : null;
  }
}

/** The later of two ISO instants (either may be missing). */
function later(a: string | undefined, b: string): string {
  return a !== undefined && a > b ? a : b;
}

/** The message of retry n (on the delay topic of its delay), or null when the schedule has no retry n. */
function retryMessage(message: WebhookDeliveryMessage, retry: number, retryScheduleMs: readonly number[]): OutputRecord | null {
  const delay = retryScheduleMs[retry - 1];
  if (delay === undefined) return null;
  const next: WebhookDeliveryMessage = { ...message, kind: 'retry', retry };
  delete next.resend_id;
  return { topic: webhookRetryTopic(delay), key: message.webhook_id, value: JSON.stringify(next) };
}

/**
 * What an automatic attempt's message led to and its batch produced, read back from the store for
 * a redelivered message that no longer applies: the next retry's message when the delivery waits
 * for exactly the retry this message scheduled, and the webhook.disabled event when this
 * delivery's failure disabled the webhook. Both may go out twice; neither acts twice.
 */
function followUpsOf(message: WebhookDeliveryMessage, delivery: WebhookDeliveryRecord, webhook: Webhook | undefined, retryScheduleMs: readonly number[]): OutputRecord[] {
  if (message.kind === 'resend') return [];
  const followUps: OutputRecord[] = [];
  const { state, context } = delivery.actor;
  const scheduled = message.kind === 'initial' ? 1 : (message.retry ?? 0) + 1;
  if (state === 'retry_scheduled' && context.retries === scheduled) {
    const retry = retryMessage(message, scheduled, retryScheduleMs);
    if (retry) followUps.push(retry);
  }
  if (state === 'failed' && webhook && !webhook.enabled && webhook.disabled_event?.delivery_id === delivery._id) {
    followUps.push({ topic: TOPICS.events, key: webhook.id, value: webhook.disabled_event.value });
  }
  return followUps;
}

function withActor(delivery: WebhookDeliveryRecord, actor: WebhookDeliveryRecord['actor'], at: string): WebhookDeliveryRecord {
  const finished = actor.state === 'delivered' || actor.state === 'failed';
  return {
    ...delivery,
    actor,
    status: deliveryStatusOf(actor.state),
    finished_at: finished ? at : null,
    failure_kind: actor.state === 'failed' ? actor.context.failureKind : null,
  };
}

/** webhook.disabled on leads.events (schemas/messages/event-payloads.schema.json), keyed by webhook id. */
function webhookDisabledEvent(webhook: Webhook, disabledAt: string, reason: string, consecutiveFailures: number): OutputRecord {
  return {
    topic: TOPICS.events,
    key: webhook.id,
    value: JSON.stringify({
      schema_version: 1,
      id: newId('evt'),
      event: 'webhook.disabled',
      timestamp: disabledAt,
      organization_id: webhook.organization_id,
      environment: webhook.environment,
      data: { webhook_id: webhook.id, url: webhook.url, disabled_at: disabledAt, reason, consecutive_failures: consecutiveFailures },
    }),
  };
}
