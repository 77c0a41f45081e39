/**
 * The processing lifecycle of one lead, as an XState v5 machine (docs/pipeline.md: each lead
 * is an actor). Pure: no actions with effects, no timers. A stage restores the persisted state,
 * computes the next one with `advanceLead`, and stores it with a version check; the stage turns
 * the transition into records and events.
 *
 *   received ─VALIDATION_PASSED─▶ deduplicating ─UNIQUE/LINKED/FLAGGED─▶ enriching ─ENRICHED─▶ active
 *      │                               │ DUPLICATE_REJECTED / MERGED                 │ ENRICHMENT_REJECTED
 *      └─VALIDATION_FAILED─▶ rejected   └──────────────▶ duplicate                    └─▶ rejected
 */
import { assign, setup } from 'xstate';
import type { ErrorDetail } from '../errors';
import { persistedActorSteps } from '../persisted-actor';
import type { LeadFlag, RejectionReason } from '../validation/validation.types';

export interface LeadActorContext {
  leadId: string;
  flags: LeadFlag[];
  warnings: ErrorDetail[];
  rejection: { reason: RejectionReason; ruleId: string; message: string } | null;
  duplicateOf: string | null;
  similarityScore: number | null;
}

export type LeadActorEvent =
  | { type: 'VALIDATION_PASSED'; flags: LeadFlag[]; warnings: ErrorDetail[] }
  | { type: 'VALIDATION_FAILED'; reason: RejectionReason; ruleId: string; message: string }
  | { type: 'UNIQUE' }
  | { type: 'DUPLICATE_REJECTED'; duplicateOf: string; similarityScore: number }
  | { type: 'DUPLICATE_MERGED'; duplicateOf: string; similarityScore: number }
  | { type: 'DUPLICATE_LINKED'; duplicateOf: string; similarityScore: number }
  | { type: 'DUPLICATE_FLAGGED'; duplicateOf: string; similarityScore: number }
  | { type: 'ENRICHED' }
  | { type: 'ENRICHMENT_REJECTED'; ruleId: string; message: string };

const withFlags = (flags: LeadFlag[], more: LeadFlag[]): LeadFlag[] => [...new Set([...flags, ...more])];

export const leadMachine = setup({
  types: {
    context: {} as LeadActorContext,
    events: {} as LeadActorEvent,
    input: {} as { leadId: string },
  },
}).createMachine({
  id: 'lead',
  initial: 'received',
  context: ({ input }) => ({
    leadId: input.leadId,
    flags: [],
    warnings: [],
    rejection: null,
    duplicateOf: null,
    similarityScore: null,
  }),
  states: {
    received: {
      on: {
        VALIDATION_PASSED: {
          target: 'deduplicating',
          actions: assign({
            flags: ({ context, event }) => withFlags(context.flags, event.flags),
            warnings: ({ event }) => event.warnings,
          }),
        },
        VALIDATION_FAILED: {
          target: 'rejected',
          actions: assign({
            rejection: ({ event }) => ({ reason: event.reason, ruleId: event.ruleId, message: event.message }),
          }),
        },
      },
    },
    deduplicating: {
      on: {
        UNIQUE: { target: 'enriching' },
        DUPLICATE_REJECTED: {
          target: 'duplicate',
          actions: assign({
            duplicateOf: ({ event }) => event.duplicateOf,
            similarityScore: ({ event }) => event.similarityScore,
          }),
        },
        DUPLICATE_MERGED: {
          target: 'duplicate',
          actions: assign({
            duplicateOf: ({ event }) => event.duplicateOf,
            similarityScore: ({ event }) => event.similarityScore,
          }),
        },
        DUPLICATE_LINKED: {
          target: 'enriching',
          actions: assign({
            duplicateOf: ({ event }) => event.duplicateOf,
            similarityScore: ({ event }) => event.similarityScore,
          }),
        },
        DUPLICATE_FLAGGED: {
          target: 'enriching',
          actions: assign({
            duplicateOf: ({ event }) => event.duplicateOf,
            similarityScore: ({ event }) => event.similarityScore,
            flags: ({ context }) => withFlags(context.flags, ['manual_review', 'possible_duplicate']),
          }),
        },
      },
    },
    enriching: {
      on: {
        ENRICHED: { target: 'active' },
        ENRICHMENT_REJECTED: {
          target: 'rejected',
          actions: assign({
            rejection: ({ event }) => ({
              reason: 'failed_custom_rule' as const,
              ruleId: event.ruleId,
              message: event.message,
            }),
          }),
        },
      },
    },
    active: { type: 'final' },
    rejected: { type: 'final' },
    duplicate: { type: 'final' },
  },
});

export type LeadActorState = 'received' | 'deduplicating' | 'enriching' | 'active' | 'rejected' | 'duplicate';

/** What a lead document stores of its actor: plain JSON. */
export interface PersistedLeadActor {
  state: LeadActorState;
  context: LeadActorContext;
}

export class IllegalLeadTransition extends Error {
  readonly code = 'ILLEGAL_LEAD_TRANSITION' as const;
  constructor(
    readonly state: LeadActorState,
    readonly event: LeadActorEvent['type'],
  ) {
    super(`a lead in state "${state}" cannot take ${event}`);
    this.name = 'IllegalLeadTransition';
  }
}

const leadActor = persistedActorSteps(leadMachine, IllegalLeadTransition);

/** The persisted actor of a lead just received. */
export function startLead(leadId: string): PersistedLeadActor {
  return leadActor.start({ leadId });
}

/**
 * Computes the next persisted actor. An event the current state does not accept is an error:
 * stages only send events in pipeline order, so it means a bug or a message for a finished lead.
 */
export function advanceLead(current: PersistedLeadActor, event: LeadActorEvent): PersistedLeadActor {
  return leadActor.advance(current, event);
}

/** The lead status (docs/api-conventions.md "Statuses") an actor state stands for. */
export function leadStatusOf(state: LeadActorState): 'new' | 'active' | 'rejected' | 'duplicate' {
  switch (state) {
    case 'active':
      return 'active';
    case 'rejected':
      return 'rejected';
    case 'duplicate':
      return 'duplicate';
    default:
      return 'new';
  }
}
