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
import type { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { WEBHOOK_DELIVERIES_TOPIC, type CredentialsCipher, type OutboundOptions } from '@leadstream/runtime';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { KeptOutcomes } from '../batch/kept-outcomes';
import { deliverWebhooks, type MadeAttempt } from './use-cases/deliver-webhooks';

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

/** Attempts kept for a batch run again (the same attempt is not made twice), oldest dropped first. */
const MADE_ATTEMPTS_LIMIT = 10_000;

/** The stage; its runner consumes webhooks.deliveries, and the delay topics of `retryScheduleMs` in groups of their own. */
export function deliverStage(options: DeliverStageOptions): BatchStage & { retryScheduleMs: readonly number[] } {
  // By delivery and attempt id; shared by the stage's groups (the runner runs one stage for all).
  const madeAttempts = new KeptOutcomes<MadeAttempt>(MADE_ATTEMPTS_LIMIT);
  const deps = {
    webhooks: options.webhooks,
    deliveries: options.deliveries,
    cipher: options.cipher,
    timeoutMs: options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    retryScheduleMs: options.retryScheduleMs,
    autoDisableAfter: options.autoDisableAfter,
    ...(options.allowInsecureTargets ? { allowInsecureTargets: true } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
    concurrency: options.concurrency ?? 64,
    now: options.now ?? (() => new Date()),
    madeAttempts,
  };
  return {
    name: 'deliver',
    topic: WEBHOOK_DELIVERIES_TOPIC,
    retryScheduleMs: options.retryScheduleMs,
    process: (records: LogRecord[]): Promise<StageBatchResult> => deliverWebhooks(deps, { records }),
  };
}
