/**
 * One webhook delivery (docs/webhooks.md) as an XState v5 machine, persisted in the delivery's
 * document like exports and leads (docs/pipeline.md). Pure: the deliver stage makes the
 * POST and tells the machine what came back; delays live in the log (delay topics), not here.
 *
 *   pending ─SEND─▶ delivering ─SUCCEEDED─▶ delivered
 *                       │
 *                       ├─FAILED (retries left)─▶ retry_scheduled ─SEND─▶ delivering ...
 *                       └─FAILED (none left)────▶ failed
 *   pending | retry_scheduled ─CANCELLED─▶ failed   (the webhook was disabled or deleted meanwhile)
 *   any state but delivering ─RESEND─▶ delivering   (re-sent by hand: one attempt; when it fails the
 *                                                    delivery returns where it was, failed for delivered)
 *
 * `delivering` is never stored: the stage sends the event, makes the attempt and stores the outcome
 * in one batch, so a crash mid-attempt leaves the stored state as it was and the redelivered
 * message makes the attempt again (at-least-once, same event id).
 */
import { assign, setup } from 'xstate';
import { persistedActorSteps } from '../persisted-actor';

export type DeliveryActorState = 'pending' | 'delivering' | 'delivered' | 'retry_scheduled' | 'failed';
/** Why a delivery ended failed: retries used up, a failed attempt by hand, or the webhook went away. */
export type DeliveryFailureKind = 'exhausted' | 'manual' | 'cancelled';

export interface DeliveryActorContext {
  deliveryId: string;
  /** POSTs made (automatic and by hand). */
  attempts: number;
  /** Automatic retries scheduled so far (at most the schedule's length). */
  retries: number;
  responseStatus: number | null;
  responseTimeMs: number | null;
  error: string | null;
  deliveredAt: string | null;
  lastAttemptAt: string | null;
  nextRetryAt: string | null;
  failedAt: string | null;
  failureKind: DeliveryFailureKind | null;
  /** The attempt in flight was asked for by hand. */
  manual: boolean;
  /** Where a failed attempt by hand returns. */
  resumeState: 'pending' | 'retry_scheduled' | 'failed' | null;
}

export type DeliveryActorEvent =
  | { type: 'SEND' }
  | { type: 'RESEND' }
  | { type: 'SUCCEEDED'; at: string; responseStatus: number; responseTimeMs: number }
  | {
      type: 'FAILED';
      at: string;
      responseStatus: number | null;
      responseTimeMs: number;
      error: string;
      /** The delays of the retry schedule (WEBHOOK_RETRY_SCHEDULE): retry n waits retryScheduleMs[n-1]. */
      retryScheduleMs: readonly number[];
    }
  | { type: 'CANCELLED'; at: string; error: string };

type Failed = Extract<DeliveryActorEvent, { type: 'FAILED' }>;

const recordAttempt = (
  context: DeliveryActorContext,
  event: Failed | Extract<DeliveryActorEvent, { type: 'SUCCEEDED' }>,
): Partial<DeliveryActorContext> => ({
  attempts: context.attempts + 1,
  lastAttemptAt: event.at,
  responseStatus: event.responseStatus,
  responseTimeMs: event.responseTimeMs,
  manual: false,
  resumeState: null,
});

export const webhookDeliveryMachine = setup({
  types: {
    context: {} as DeliveryActorContext,
    events: {} as DeliveryActorEvent,
    input: {} as { deliveryId: string },
  },
  guards: {
    manualBackToPending: ({ context }) => context.manual && context.resumeState === 'pending',
    manualBackToRetry: ({ context }) => context.manual && context.resumeState === 'retry_scheduled',
    manual: ({ context }) => context.manual,
    retriesLeft: ({ context, event }) => event.type === 'FAILED' && context.retries < event.retryScheduleMs.length,
  },
}).createMachine({
  id: 'webhookDelivery',
  initial: 'pending',
  context: ({ input }) => ({
    deliveryId: input.deliveryId,
    attempts: 0,
    retries: 0,
    responseStatus: null,
    responseTimeMs: null,
    error: null,
    deliveredAt: null,
    lastAttemptAt: null,
    nextRetryAt: null,
    failedAt: null,
    failureKind: null,
    manual: false,
    resumeState: null,
  }),
  states: {
    pending: {
      on: {
        SEND: { target: 'delivering' },
        RESEND: { target: 'delivering', actions: assign({ manual: true, resumeState: 'pending' }) },
        CANCELLED: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: event.error,
            failedAt: event.at,
            failureKind: 'cancelled' as const,
            nextRetryAt: null,
          })),
        },
      },
    },
    retry_scheduled: {
      on: {
        SEND: { target: 'delivering', actions: assign({ nextRetryAt: null }) },
        RESEND: { target: 'delivering', actions: assign({ manual: true, resumeState: 'retry_scheduled' }) },
        CANCELLED: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: event.error,
            failedAt: event.at,
            failureKind: 'cancelled' as const,
            nextRetryAt: null,
          })),
        },
      },
    },
    delivering: {
      on: {
        SUCCEEDED: {
          target: 'delivered',
          actions: assign(({ context, event }) => ({
            ...recordAttempt(context, event),
            deliveredAt: event.at,
            error: null,
            nextRetryAt: null,
            failedAt: null,
            failureKind: null,
          })),
        },
        FAILED: [
          {
            guard: 'manualBackToPending',
            target: 'pending',
            actions: assign(({ context, event }) => ({ ...recordAttempt(context, event), error: event.error })),
          },
          {
            guard: 'manualBackToRetry',
            target: 'retry_scheduled',
            actions: assign(({ context, event }) => ({ ...recordAttempt(context, event), error: event.error })),
          },
          {
            guard: 'manual',
            target: 'failed',
            actions: assign(({ context, event }) => ({
              ...recordAttempt(context, event),
              error: event.error,
              failedAt: event.at,
              failureKind: 'manual' as const,
              deliveredAt: null,
              nextRetryAt: null,
            })),
          },
          {
            guard: 'retriesLeft',
            target: 'retry_scheduled',
            actions: assign(({ context, event }) => ({
              ...recordAttempt(context, event),
              error: event.error,
              retries: context.retries + 1,
              nextRetryAt: new Date(Date.parse(event.at) + event.retryScheduleMs[context.retries]!).toISOString(),
            })),
          },
          {
            target: 'failed',
            actions: assign(({ context, event }) => ({
              ...recordAttempt(context, event),
              error: event.error,
              failedAt: event.at,
              failureKind: 'exhausted' as const,
              nextRetryAt: null,
            })),
          },
        ],
      },
    },
    delivered: {
      on: { RESEND: { target: 'delivering', actions: assign({ manual: true, resumeState: 'failed' }) } },
    },
    failed: {
      on: { RESEND: { target: 'delivering', actions: assign({ manual: true, resumeState: 'failed' }) } },
    },
  },
});

/** What a delivery document stores of its actor: plain JSON. */
export interface PersistedDeliveryActor {
  state: DeliveryActorState;
  context: DeliveryActorContext;
}

export class IllegalDeliveryTransition extends Error {
  readonly code = 'ILLEGAL_DELIVERY_TRANSITION' as const;
  constructor(
    readonly state: DeliveryActorState,
    readonly event: DeliveryActorEvent['type'],
  ) {
    super(`a webhook delivery in state "${state}" cannot take ${event}`);
    this.name = 'IllegalDeliveryTransition';
  }
}

const deliveryActor = persistedActorSteps(webhookDeliveryMachine, IllegalDeliveryTransition);

/**
 * The initial context is a function of the input alone, so the machine's start is computed once
 * and each delivery gets it with its own id: the notify stage starts one actor per (webhook,
 * event), and XState's initialTransition builds a throwaway actor each time.
 */
const initialDelivery = deliveryActor.start({ deliveryId: '' });

export function startDelivery(deliveryId: string): PersistedDeliveryActor {
  return { state: initialDelivery.state, context: { ...initialDelivery.context, deliveryId } };
}

export function deliveryCan(current: PersistedDeliveryActor, event: DeliveryActorEvent): boolean {
  return deliveryActor.can(current, event);
}

export function advanceDelivery(current: PersistedDeliveryActor, event: DeliveryActorEvent): PersistedDeliveryActor {
  return deliveryActor.advance(current, event);
}

/**
 * The status the deliveries list shows (`listWebhookDeliveries`): `delivered` and `failed`, and
 * `pending` before the first attempt's outcome is stored, `retrying` while a retry is scheduled
 * (docs/decisions.md).
 */
export type DeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

export function deliveryStatusOf(state: DeliveryActorState): DeliveryStatus {
  if (state === 'retry_scheduled') return 'retrying';
  if (state === 'delivering') return 'pending';
  return state;
}
