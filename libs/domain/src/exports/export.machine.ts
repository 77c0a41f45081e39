/**
 * The lifecycle of one export, as an XState v5 machine (docs/pipeline.md: exports are actors
 * like leads). Pure: no effects, no timers (the 24 h expiry is a due time in the store that a
 * sweep acts on, docs/pipeline.md). The export stage restores the persisted state, computes
 * the next one with `advanceExport`, and stores it with a version check.
 *
 *   requested ─START─▶ processing ─COMPLETED─▶ completed ─EXPIRED─▶ expired
 *       │                  │
 *       └──────FAILED──────┴──▶ failed
 */
import { assign, setup } from 'xstate';
import { persistedActorSteps } from '../persisted-actor';

export interface ExportActorContext {
  exportId: string;
  /** How many times generation started: a redelivery after a crash restarts it. */
  attempts: number;
  rowCount: number | null;
  completedAt: string | null;
  expiresAt: string | null;
  error: string | null;
}

export type ExportActorEvent =
  | { type: 'START' }
  | { type: 'COMPLETED'; rowCount: number; completedAt: string; expiresAt: string }
  | { type: 'FAILED'; error: string }
  | { type: 'EXPIRED' };

export const exportMachine = setup({
  types: {
    context: {} as ExportActorContext,
    events: {} as ExportActorEvent,
    input: {} as { exportId: string },
  },
}).createMachine({
  id: 'export',
  initial: 'requested',
  context: ({ input }) => ({
    exportId: input.exportId,
    attempts: 0,
    rowCount: null,
    completedAt: null,
    expiresAt: null,
    error: null,
  }),
  states: {
    requested: {
      on: {
        START: { target: 'processing', actions: assign({ attempts: ({ context }) => context.attempts + 1 }) },
        FAILED: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    processing: {
      on: {
        // A restart after a crash mid-generation: the file is written again from the start.
        START: {
          target: 'processing',
          reenter: true,
          actions: assign({ attempts: ({ context }) => context.attempts + 1 }),
        },
        COMPLETED: {
          target: 'completed',
          actions: assign({
            rowCount: ({ event }) => event.rowCount,
            completedAt: ({ event }) => event.completedAt,
            expiresAt: ({ event }) => event.expiresAt,
          }),
        },
        FAILED: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    completed: { on: { EXPIRED: { target: 'expired' } } },
    failed: { type: 'final' },
    expired: { type: 'final' },
  },
});

export type ExportActorState = 'requested' | 'processing' | 'completed' | 'failed' | 'expired';

/** What an export document stores of its actor: plain JSON. */
export interface PersistedExportActor {
  state: ExportActorState;
  context: ExportActorContext;
}

export class IllegalExportTransition extends Error {
  readonly code = 'ILLEGAL_EXPORT_TRANSITION' as const;
  constructor(
    readonly state: ExportActorState,
    readonly event: ExportActorEvent['type'],
  ) {
    super(`an export in state "${state}" cannot take ${event}`);
    this.name = 'IllegalExportTransition';
  }
}

const exportActor = persistedActorSteps(exportMachine, IllegalExportTransition);

/** The persisted actor of an export just requested. */
export function startExport(exportId: string): PersistedExportActor {
  return exportActor.start({ exportId });
}

/** Whether the actor accepts the event in its current state (the stage skips what it does not). */
export function exportCan(current: PersistedExportActor, event: ExportActorEvent): boolean {
  return exportActor.can(current, event);
}

/** Computes the next persisted actor; an event the state does not accept is an error. */
export function advanceExport(current: PersistedExportActor, event: ExportActorEvent): PersistedExportActor {
  return exportActor.advance(current, event);
}

/** The status an actor state shows in the API (`getExport`; docs/api-conventions.md "Statuses"). */
export type ExportStatus = 'processing' | 'completed' | 'failed' | 'expired';

export function exportStatusOf(state: ExportActorState): ExportStatus {
  return state === 'requested' ? 'processing' : state;
}
