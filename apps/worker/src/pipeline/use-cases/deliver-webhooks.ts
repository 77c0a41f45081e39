/**
 * The deliver stage's batch as a use case (docs/webhooks.md; the stage's contract is in
 * deliver.stage.ts): parse → prefetch → plan (which messages apply, no I/O) → call (the POSTs,
 * bounded, each outcome kept before the commit) → settle (the advanced deliveries, the next
 * retries) → collect (the webhooks' successes and automatic disables).
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
  inClientSpan,
  openWebhookSecret,
  pickTraceHeaders,
  sendOutbound,
  withTraceHeaders,
  webhookRetryTopic,
  type CredentialsCipher,
  type OutboundOptions,
} from '@leadstream/runtime';
import type { StageBatchResult } from '../../batch/batch-stage';
import { emptyBatchWrite, type BatchWrite, type OutputRecord } from '../../batch/batch-write';
import type { KeptOutcomes } from '../../batch/kept-outcomes';
import { deadLetter, mapBounded } from '../../batch/lead-stage';
import { newId } from '../ids';
import { TOPICS } from '../outputs';

export interface DeliverWebhooksDeps {
  webhooks: Pick<WebhookRepository, 'findMany'>;
  deliveries: Pick<WebhookDeliveryRepository, 'findMany' | 'countExhaustedSince'>;
  /** Opens webhook secrets stored encrypted (the key of CRM_CREDENTIALS_KEY, as the API's). */
  cipher: CredentialsCipher;
  /** Per attempt. */
  timeoutMs: number;
  /** WEBHOOK_RETRY_SCHEDULE: retry n waits retryScheduleMs[n-1]. */
  retryScheduleMs: readonly number[];
  /** WEBHOOK_AUTO_DISABLE_AFTER: deliveries in a row that end failed before the webhook is disabled; 0 = never. */
  autoDisableAfter: number;
  allowInsecureTargets?: boolean;
  resolve?: OutboundOptions['resolve'];
  /** Attempts of one batch in flight at once. */
  concurrency: number;
  now: () => Date;
  /** Attempts made, by delivery and attempt id, kept for a batch run again; shared by the stage's groups. */
  madeAttempts: KeptOutcomes<MadeAttempt>;
}

export interface DeliverWebhooksInput {
  records: LogRecord[];
}

const tenantKey = (tenant: TenantContext): string => `${tenant.environment}\u0000${tenant.organizationId}`;
const tenantOf = (message: Pick<WebhookDeliveryMessage, 'organization_id' | 'environment'>): TenantContext => ({
  organizationId: message.organization_id,
  environment: message.environment,
});

interface Attempt {
  message: WebhookDeliveryMessage;
  delivery: WebhookDeliveryRecord;
  webhook: Webhook;
  event: 'SEND' | 'RESEND';
}

/** An attempt made (a POST, or one failed unsent): what it asked of the delivery in which state, and what came back. */
export interface MadeAttempt {
  event: 'SEND' | 'RESEND';
  /** The delivery's state when the attempt was decided. */
  from: PersistedDeliveryActor['state'];
  result: AttemptResult;
  startedAt: string;
}

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

interface DeliveryMessage {
  record: LogRecord;
  message: WebhookDeliveryMessage;
}

/** What the plan decided: the attempts to make, those an earlier run made, and the writes that need no call. */
interface DeliveryPlan {
  attempts: Attempt[];
  /** Attempts an earlier run of this batch (or another group) made whose outcome is not stored. */
  remade: Array<{ message: WebhookDeliveryMessage; delivery: WebhookDeliveryRecord; made: Promise<MadeAttempt> }>;
  advanced: Array<{ previous: WebhookDeliveryRecord; next: WebhookDeliveryRecord }>;
  /** Redelivered messages whose webhook side may have been lost: stored successes, and final failures to count again. */
  storedSuccesses: Map<string, string>;
  recheck: Map<string, string>;
}

interface AttemptOutcome {
  message: WebhookDeliveryMessage;
  delivery: WebhookDeliveryRecord;
  made: MadeAttempt;
}

export async function deliverWebhooks(
  deps: DeliverWebhooksDeps,
  input: DeliverWebhooksInput,
): Promise<StageBatchResult> {
  const write = emptyBatchWrite();
  const { messages, handled } = parseMessages(input.records, write);
  const { deliveries, webhooks } = await prefetch(deps, messages);
  const at = deps.now();
  const plan = planAttempts(deps, { messages, deliveries, webhooks, at }, write);
  // The trace context of each message's record (docs/operations.md, "Tracing"): the attempt's span and its retry name it as parent.
  const traceOf = new Map(messages.map(({ record, message }) => [message, record.headers]));
  const outcomes = await makeAttempts(deps, plan, traceOf);
  const { successes, exhausted } = settleAttempts(deps, outcomes, plan, write, traceOf);
  const disabled = await collectWebhookWrites(deps, { webhooks, plan, successes, exhausted, at }, write);
  // Counted once the commit stored the disables (a conflict decides the batch again instead).
  return disabled > 0
    ? { write, handled, committed: (metrics) => metrics.webhooksDisabled.inc(disabled) }
    : { write, handled };
}

/** Parse; a second message of a delivery already in this batch waits for the next one (it may apply only once the first attempt's outcome is stored). */
function parseMessages(records: LogRecord[], write: BatchWrite): { messages: DeliveryMessage[]; handled: number } {
  const messages: DeliveryMessage[] = [];
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
  return { messages, handled };
}

/** Prefetch: deliveries and webhooks of each tenant, one read each. */
async function prefetch(
  deps: Pick<DeliverWebhooksDeps, 'deliveries' | 'webhooks'>,
  messages: DeliveryMessage[],
): Promise<{ deliveries: Map<string, WebhookDeliveryRecord>; webhooks: Map<string, Webhook> }> {
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
      const [foundDeliveries, foundWebhooks] = await Promise.all([
        deps.deliveries.findMany(tenant, deliveryIds),
        deps.webhooks.findMany(tenant, [...webhookIds]),
      ]);
      for (const delivery of foundDeliveries) deliveries.set(delivery._id, delivery);
      for (const webhook of foundWebhooks) webhooks.set(webhook.id, webhook);
    }),
  );
  return { deliveries, webhooks };
}

/** Decide which messages apply; cancel automatic attempts of webhooks disabled or deleted meanwhile. No I/O. */
function planAttempts(
  deps: Pick<DeliverWebhooksDeps, 'madeAttempts' | 'retryScheduleMs'>,
  input: {
    messages: DeliveryMessage[];
    deliveries: Map<string, WebhookDeliveryRecord>;
    webhooks: Map<string, Webhook>;
    at: Date;
  },
  write: BatchWrite,
): DeliveryPlan {
  const { messages, deliveries, webhooks, at } = input;
  const plan: DeliveryPlan = { attempts: [], remade: [], advanced: [], storedSuccesses: new Map(), recheck: new Map() };
  const { attempts, remade, advanced, storedSuccesses, recheck } = plan;
  for (const { message } of messages) {
    const delivery = deliveries.get(message.delivery_id);
    if (!delivery || delivery.webhook_id !== message.webhook_id) continue;
    const webhook = webhooks.get(message.webhook_id);
    const key = `${delivery._id}#${attemptIdOf(message)}`;
    const earlier = deps.madeAttempts.get(key);
    if (earlier) {
      // Made already, by a run of this batch whose write did not land for this delivery: its
      // outcome goes on the state stored now, without calling again.
      if (!delivery.attempt_log.some((entry) => entry.attempt_id === attemptIdOf(message))) {
        remade.push({ message, delivery, made: earlier });
        continue;
      }
      deps.madeAttempts.forget(key);
    }
    const event = applicable(message, delivery);
    if (!event) {
      write.records.push(...followUpsOf(message, delivery, webhook, deps.retryScheduleMs));
      // Where the store and the log are different systems, the batch's delivery and webhook
      // writes are two bulk writes: a crash between them loses the webhook's side of this
      // message (the success that restarts the failure count, or the automatic disable). Both
      // are redone from the stored delivery; both are idempotent.
      if (webhook && delivery.finished_at) {
        if (delivery.actor.state === 'delivered')
          storedSuccesses.set(webhook.id, later(storedSuccesses.get(webhook.id), delivery.finished_at));
        else if (
          webhook.enabled &&
          delivery.actor.state === 'failed' &&
          delivery.actor.context.failureKind === 'exhausted'
        )
          recheck.set(webhook.id, delivery._id);
      }
      continue;
    }
    if (event === 'SEND' && !webhook?.enabled) {
      const cancelled: DeliveryActorEvent = {
        type: 'CANCELLED',
        at: at.toISOString(),
        error: webhook ? 'the webhook was disabled before this attempt' : 'the webhook was deleted',
      };
      advanced.push({
        previous: delivery,
        next: withActor(delivery, advanceDelivery(delivery.actor, cancelled), at.toISOString()),
      });
      continue;
    }
    if (!webhook) continue;
    attempts.push({ message, delivery, webhook, event });
  }
  return plan;
}

/** The attempts, in parallel: each signed with its own timestamp, each outcome kept before the commit. */
async function makeAttempts(
  deps: DeliverWebhooksDeps,
  plan: DeliveryPlan,
  traceOf: Map<WebhookDeliveryMessage, LogRecord['headers']>,
): Promise<AttemptOutcome[]> {
  const now = deps.now;
  const send = async (attempt: Attempt): Promise<MadeAttempt> => {
    const startedAt = now();
    const decided: Omit<MadeAttempt, 'result'> = {
      event: attempt.event,
      from: attempt.delivery.actor.state,
      startedAt: startedAt.toISOString(),
    };
    const secret = readableSecret(deps.cipher, attempt.webhook);
    if (secret === null) return { ...decided, result: UNREADABLE_SECRET };
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const result = await inClientSpan(
      `webhook ${attempt.delivery.event_type}`,
      traceOf.get(attempt.message),
      {
        'http.request.method': 'POST',
        'url.full': attempt.webhook.url,
        'leadstream.webhook.id': attempt.webhook.id,
        'leadstream.webhook.delivery_id': attempt.delivery._id,
      },
      () =>
        sendOutbound(
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
          {
            timeoutMs: deps.timeoutMs,
            ...(deps.allowInsecureTargets ? { allowInsecureTargets: true } : {}),
            ...(deps.resolve ? { resolve: deps.resolve } : {}),
          },
        ),
      (sent) => ({ status: sent.status, error: sent.ok ? null : sent.error }),
    );
    return { ...decided, result };
  };
  const sent = await mapBounded(plan.attempts, deps.concurrency, async (attempt) => {
    const outcome = send(attempt);
    deps.madeAttempts.keep(`${attempt.delivery._id}#${attemptIdOf(attempt.message)}`, outcome);
    return { message: attempt.message, delivery: attempt.delivery, made: await outcome };
  });
  return [
    ...(await Promise.all(
      plan.remade.map(async (entry) => ({ message: entry.message, delivery: entry.delivery, made: await entry.made })),
    )),
    ...sent,
  ];
}

/** The deliveries after their attempts, the next automatic retries, and per webhook its latest success and its deliveries that ended failed. */
function settleAttempts(
  deps: Pick<DeliverWebhooksDeps, 'retryScheduleMs'>,
  outcomes: AttemptOutcome[],
  plan: DeliveryPlan,
  write: BatchWrite,
  traceOf: Map<WebhookDeliveryMessage, LogRecord['headers']>,
): { successes: Map<string, string>; exhausted: Map<string, Array<{ at: string; deliveryId: string }>> } {
  const successes = new Map<string, string>();
  const exhausted = new Map<string, Array<{ at: string; deliveryId: string }>>();
  for (const { message, delivery, made } of outcomes) {
    const { next, settled } = settle(delivery, message, made, deps.retryScheduleMs);
    plan.advanced.push({ previous: delivery, next });
    const { startedAt } = made;
    const actor = next.actor;
    if (made.result.ok) {
      if ((successes.get(delivery.webhook_id) ?? '') < startedAt) successes.set(delivery.webhook_id, startedAt);
    } else if (settled && actor.state === 'failed' && actor.context.failureKind === 'exhausted') {
      exhausted.set(delivery.webhook_id, [
        ...(exhausted.get(delivery.webhook_id) ?? []),
        { at: startedAt, deliveryId: delivery._id },
      ]);
    }
    // The next automatic retry waits on the delay topic of its delay (a manual attempt schedules none).
    if (settled && made.event === 'SEND' && actor.state === 'retry_scheduled') {
      // The delay counts from the produce, at the batch's commit.
      const retry = retryMessage(message, actor.context.retries, deps.retryScheduleMs);
      if (retry) write.records.push(withTraceHeaders(retry, pickTraceHeaders(traceOf.get(message))));
    }
  }
  return { successes, exhausted };
}

/** The batch's document writes: the advanced deliveries, the webhooks' successes and their automatic disables (how many it returns). */
async function collectWebhookWrites(
  deps: Pick<DeliverWebhooksDeps, 'deliveries' | 'autoDisableAfter'>,
  input: {
    webhooks: Map<string, Webhook>;
    plan: DeliveryPlan;
    successes: Map<string, string>;
    exhausted: Map<string, Array<{ at: string; deliveryId: string }>>;
    at: Date;
  },
  write: BatchWrite,
): Promise<number> {
  const { webhooks, successes, exhausted, at } = input;
  const { advanced, storedSuccesses, recheck } = input.plan;
  if (advanced.length > 0) {
    write.documents.push({
      collection: WebhookDeliveryRepository.COLLECTION,
      operations: advanced.map(({ previous, next }) =>
        WebhookDeliveryRepository.advanceOperation(previous, next),
      ) as never,
      compareAndSet: true,
    });
  }
  const webhookOperations = [];
  for (const [webhookId, at] of [...storedSuccesses, ...successes]) {
    const webhook = webhooks.get(webhookId);
    if (!webhook) continue;
    webhookOperations.push(
      WebhookRepository.successOperation(
        { organizationId: webhook.organization_id, environment: webhook.environment },
        webhookId,
        at,
      ),
    );
  }
  if (webhookOperations.length > 0)
    write.documents.push({ collection: WebhookRepository.COLLECTION, operations: webhookOperations as never });
  // Automatic disable: deliveries in a row that ended failed (retries used up), counted since the
  // last success. Compare-and-set on the webhook as read (enabled, same updated_at): a webhook
  // disabled, deleted or changed meanwhile makes the batch decided again, so the event goes out
  // only with a disable that changed the webhook.
  const disables = [];
  if (deps.autoDisableAfter > 0) {
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
      const since =
        restored !== undefined && (webhook.failure_streak_since === null || restored > webhook.failure_streak_since)
          ? restored
          : webhook.failure_streak_since;
      const streak = fresh + (lastSuccess ? 0 : await deps.deliveries.countExhaustedSince(tenant, webhookId, since));
      if (streak < deps.autoDisableAfter) continue;
      const disabledAt = at.toISOString();
      const reason = `disabled automatically after ${streak} deliveries in a row failed (WEBHOOK_AUTO_DISABLE_AFTER=${deps.autoDisableAfter})`;
      const event = webhookDisabledEvent(webhook, disabledAt, reason, streak);
      const causedBy = failures.at(-1)?.deliveryId ?? recheck.get(webhookId)!;
      disables.push(
        WebhookRepository.disableOperation(
          tenant,
          webhookId,
          disabledAt,
          reason,
          { delivery_id: causedBy, value: event.value },
          webhook.updated_at,
        ),
      );
      write.records.push(event);
    }
  }
  if (disables.length > 0)
    write.documents.push({
      collection: WebhookRepository.COLLECTION,
      operations: disables as never,
      compareAndSet: true,
    });
  return disables.length;
}

/** What the actor and the attempt log take from an attempt (an outbound call's result is one). */
type AttemptResult =
  { ok: true; status: number; timeMs: number } | { ok: false; status: number | null; timeMs: number; error: string };

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
function settle(
  delivery: WebhookDeliveryRecord,
  message: WebhookDeliveryMessage,
  made: MadeAttempt,
  retryScheduleMs: readonly number[],
): { next: WebhookDeliveryRecord; settled: boolean } {
  const { event, from, result, startedAt } = made;
  const outcome: DeliveryActorEvent = result.ok
    ? { type: 'SUCCEEDED', at: startedAt, responseStatus: result.status, responseTimeMs: result.timeMs }
    : {
        type: 'FAILED',
        at: startedAt,
        responseStatus: result.status,
        responseTimeMs: result.timeMs,
        error: result.error,
        retryScheduleMs,
      };
  const state = delivery.actor.state;
  // A failed re-send returns the delivery where it was; where another attempt ended it meanwhile
  // (delivered, or failed), it stays so.
  const resendOvertaken =
    event === 'RESEND' && !result.ok && state !== from && (state === 'delivered' || state === 'failed');
  let next: WebhookDeliveryRecord;
  let settled = true;
  if (applicable(message, delivery) === event && !resendOvertaken) {
    next = withActor(delivery, advanceDelivery(advanceDelivery(delivery.actor, { type: event }), outcome), startedAt);
  } else if (result.ok && state !== 'delivered' && deliveryCan(delivery.actor, { type: 'RESEND' })) {
    // The endpoint took an attempt the delivery had moved past: it is delivered.
    next = withActor(
      delivery,
      advanceDelivery(advanceDelivery(delivery.actor, { type: 'RESEND' }), outcome),
      startedAt,
    );
    settled = false;
  } else {
    const context = delivery.actor.context;
    const lastAttemptAt =
      context.lastAttemptAt !== null && context.lastAttemptAt > startedAt ? context.lastAttemptAt : startedAt;
    next = { ...delivery, actor: { state, context: { ...context, attempts: context.attempts + 1, lastAttemptAt } } };
    settled = false;
  }
  next.attempt_log = [
    ...delivery.attempt_log,
    {
      attempt_id: attemptIdOf(message),
      at: startedAt,
      response_status: result.status,
      response_time_ms: result.timeMs,
      error: result.ok ? null : result.error,
      manual: event === 'RESEND',
    },
  ].slice(-MAX_ATTEMPT_LOG);
  if (message.kind === 'resend' && message.resend_id)
    next.resend_ids = [...delivery.resend_ids, message.resend_id].slice(-MAX_RESEND_IDS);
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
      return message.resend_id &&
        !delivery.resend_ids.includes(message.resend_id) &&
        deliveryCan(delivery.actor, { type: 'RESEND' })
        ? 'RESEND'
        : null;
  }
}

/** The later of two ISO instants (either may be missing). */
function later(a: string | undefined, b: string): string {
  return a !== undefined && a > b ? a : b;
}

/** The message of retry n (on the delay topic of its delay), or null when the schedule has no retry n. */
function retryMessage(
  message: WebhookDeliveryMessage,
  retry: number,
  retryScheduleMs: readonly number[],
): OutputRecord | null {
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
function followUpsOf(
  message: WebhookDeliveryMessage,
  delivery: WebhookDeliveryRecord,
  webhook: Webhook | undefined,
  retryScheduleMs: readonly number[],
): OutputRecord[] {
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

function withActor(
  delivery: WebhookDeliveryRecord,
  actor: WebhookDeliveryRecord['actor'],
  at: string,
): WebhookDeliveryRecord {
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
function webhookDisabledEvent(
  webhook: Webhook,
  disabledAt: string,
  reason: string,
  consecutiveFailures: number,
): OutputRecord {
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
      data: {
        webhook_id: webhook.id,
        url: webhook.url,
        disabled_at: disabledAt,
        reason,
        consecutive_failures: consecutiveFailures,
      },
    }),
  };
}
