/**
 * One CRM sync: a lead to one connection, as an XState v5 machine (docs/pipeline.md: CRM syncs
 * are actors like leads). Pure: no effects and no timers; the crm-sync stage makes the call,
 * sends the outcome, and a retry waits in a delay topic (docs/pipeline.md), not in the machine.
 *
 *   pending ─ATTEMPT─▶ syncing ─SUCCEEDED─▶ synced
 *                        │  └─RETRY_SCHEDULED─▶ retry_scheduled ─ATTEMPT─▶ syncing
 *                        └────FAILED───────────────────────────────────────▶ failed
 *   synced / failed ─RESYNC─▶ pending   (a manual sync: POST /api/crm/:id/sync/:leadId)
 */
import { assign, setup } from 'xstate';
import { persistedActorSteps } from '../persisted-actor';

export interface CrmSyncAttempt {
  at: string;
  outcome: 'synced' | 'retryable' | 'permanent';
  status: number | null;
  error: string | null;
}

export interface CrmSyncContext {
  syncId: string;
  /** Attempts of the current round (a manual resync starts a new round). */
  attempts: number;
  crmId: string | null;
  syncedAt: string | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  /** The most recent attempts, newest last (at most 10). */
  history: CrmSyncAttempt[];
}

export type CrmSyncEvent =
  | { type: 'ATTEMPT'; at: string }
  | { type: 'SUCCEEDED'; at: string; crmId: string | null; status: number | null }
  | { type: 'RETRY_SCHEDULED'; at: string; error: string; status: number | null; nextAttemptAt: string }
  | { type: 'FAILED'; at: string; error: string; status: number | null; permanent: boolean }
  | { type: 'RESYNC' };

const HISTORY = 10;
const remember = (history: CrmSyncAttempt[], attempt: CrmSyncAttempt): CrmSyncAttempt[] =>
  [...history, attempt].slice(-HISTORY);

export const crmSyncMachine = setup({
  types: {
    context: {} as CrmSyncContext,
    events: {} as CrmSyncEvent,
    input: {} as { syncId: string },
  },
}).createMachine({
  id: 'crm-sync',
  initial: 'pending',
  context: ({ input }) => ({
    syncId: input.syncId,
    attempts: 0,
    crmId: null,
    syncedAt: null,
    lastError: null,
    nextAttemptAt: null,
    history: [],
  }),
  states: {
    pending: {
      on: {
        ATTEMPT: {
          target: 'syncing',
          actions: assign({ attempts: ({ context }) => context.attempts + 1, nextAttemptAt: null }),
        },
      },
    },
    retry_scheduled: {
      on: {
        ATTEMPT: {
          target: 'syncing',
          actions: assign({ attempts: ({ context }) => context.attempts + 1, nextAttemptAt: null }),
        },
      },
    },
    syncing: {
      on: {
        SUCCEEDED: {
          target: 'synced',
          actions: assign({
            // A CRM that answers an update without the id (Salesforce 204) keeps the known one.
            crmId: ({ context, event }) => event.crmId ?? context.crmId,
            syncedAt: ({ event }) => event.at,
            lastError: null,
            history: ({ context, event }) =>
              remember(context.history, { at: event.at, outcome: 'synced', status: event.status, error: null }),
          }),
        },
        RETRY_SCHEDULED: {
          target: 'retry_scheduled',
          actions: assign({
            lastError: ({ event }) => event.error,
            nextAttemptAt: ({ event }) => event.nextAttemptAt,
            history: ({ context, event }) =>
              remember(context.history, {
                at: event.at,
                outcome: 'retryable',
                status: event.status,
                error: event.error,
              }),
          }),
        },
        FAILED: {
          target: 'failed',
          actions: assign({
            lastError: ({ event }) => event.error,
            history: ({ context, event }) =>
              remember(context.history, {
                at: event.at,
                outcome: event.permanent ? 'permanent' : 'retryable',
                status: event.status,
                error: event.error,
              }),
          }),
        },
      },
    },
    synced: { on: { RESYNC: { target: 'pending', actions: assign({ attempts: 0, nextAttemptAt: null }) } } },
    failed: { on: { RESYNC: { target: 'pending', actions: assign({ attempts: 0, nextAttemptAt: null }) } } },
  },
});

export type CrmSyncState = 'pending' | 'syncing' | 'retry_scheduled' | 'synced' | 'failed';

export interface PersistedCrmSyncActor {
  state: CrmSyncState;
  context: CrmSyncContext;
}

export class IllegalCrmSyncTransition extends Error {
  readonly code = 'ILLEGAL_CRM_SYNC_TRANSITION' as const;
  constructor(
    readonly state: CrmSyncState,
    readonly event: CrmSyncEvent['type'],
  ) {
    super(`a CRM sync in state "${state}" cannot take ${event}`);
    this.name = 'IllegalCrmSyncTransition';
  }
}

const crmSyncActor = persistedActorSteps(crmSyncMachine, IllegalCrmSyncTransition);

export function startCrmSync(syncId: string): PersistedCrmSyncActor {
  return crmSyncActor.start({ syncId });
}

export function crmSyncCan(current: PersistedCrmSyncActor, event: CrmSyncEvent): boolean {
  return crmSyncActor.can(current, event);
}

export function advanceCrmSync(current: PersistedCrmSyncActor, event: CrmSyncEvent): PersistedCrmSyncActor {
  return crmSyncActor.advance(current, event);
}
