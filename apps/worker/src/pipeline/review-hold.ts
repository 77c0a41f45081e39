/**
 * The route stage's part of the review queue (docs/review-queue.md): a flagged lead is held
 * (stored with `review_status: pending`, nothing produced), and a decision the review queue put on
 * leads.enriched (a lead command with `review`) is applied in the same write as the route it
 * leads to. Approve: the lead goes on through the rest of route as if it had not been flagged.
 * Reject: status rejected, lead.rejected. Both: lead.reviewed with who decided, and the lead's
 * `reviewed` timeline entry (docs/timeline.md) from when it was held until the decision, in the
 * same write.
 */
import {
  appendTimelineEntry,
  AUTOMATIC_REVIEWER,
  isFlaggedForReview,
  reviewKindsOf,
  timelineEntry,
  type LeadRecord,
  type LeadReview,
} from '@leadstream/domain';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { OutputRecord } from '../batch/batch-write';
import { eventOutput } from './outputs';

export type ReviewStep =
  /** Not a review matter: route as usual. */
  | { kind: 'route' }
  /** Approved: route `lead`, with `outputs` before the route's own. */
  | { kind: 'approve'; lead: LeadRecord; outputs: OutputRecord[] }
  /** Held, rejected, or a decision on a lead no longer waiting: store `lead` with `outputs`, nothing else. */
  | { kind: 'final'; lead: LeadRecord; outputs: OutputRecord[] };

/** Whether route holds this command's lead for review instead of routing it (no round-robin turn is reserved then). */
export function heldForReview(lead: LeadRecord, message: LeadCommandMessage): boolean {
  if (message.review) return message.review.decision !== 'approve' || lead['review_status'] !== 'pending';
  return lead['review_status'] === 'rejected' || (isFlaggedForReview(lead) && lead['review_status'] !== 'approved');
}

export function reviewStep(lead: LeadRecord, message: LeadCommandMessage, at: string): ReviewStep {
  const applied = { updated_at: at, applied_messages: [...lead.applied_messages, message.message_id] };
  const status = lead['review_status'];
  const decision = message.review;
  if (!decision) {
    if (status === 'approved') return { kind: 'route' };
    // A rejected lead stays rejected whatever asks to route it again.
    if (status === 'rejected') return { kind: 'final', lead: { ...lead, ...applied }, outputs: [] };
    if (!isFlaggedForReview(lead)) return { kind: 'route' };
    const kinds = reviewKindsOf(lead);
    const review: LeadReview = {
      status: 'pending',
      kinds,
      held_at: at,
      decision: null,
      reviewer: null,
      reason: null,
      automatic: false,
      decided_at: null,
    };
    return {
      kind: 'final',
      lead: { ...lead, ...applied, review_status: 'pending', review_kinds: kinds, review },
      outputs: [],
    };
  }
  // Decided already (by another reviewer or the job): the first decision stands.
  if (status !== 'pending') return { kind: 'final', lead: { ...lead, ...applied }, outputs: [] };
  const held = lead['review'] as LeadReview | undefined;
  const automatic = decision.automatic === true;
  const reviewer = automatic ? AUTOMATIC_REVIEWER : decision.reviewer;
  const reason = decision.reason ?? null;
  const kinds = held?.kinds ?? reviewKindsOf(lead);
  const review: LeadReview = {
    status: decision.decision === 'approve' ? 'approved' : 'rejected',
    kinds,
    held_at: held?.held_at ?? at,
    decision: decision.decision,
    reviewer,
    reason,
    automatic,
    decided_at: at,
  };
  const reviewed = eventOutput(
    lead,
    'lead.reviewed',
    {
      lead_id: lead._id,
      decision: decision.decision,
      reviewer,
      flags: kinds,
      reason,
      automatic,
      reviewed_at: at,
    },
    at,
  );
  // The lead's `reviewed` timeline entry: from when it was held until this decision.
  const withEntry = appendTimelineEntry(
    lead,
    timelineEntry('reviewed', decision.decision === 'approve' ? 'approved' : 'rejected', review.held_at, at, {
      reviewer,
      automatic,
      ...(reason === null ? {} : { reason }),
    }),
  );
  if (decision.decision === 'approve') {
    return { kind: 'approve', lead: { ...withEntry, review_status: 'approved', review }, outputs: [reviewed] };
  }
  const rejected: LeadRecord = {
    ...withEntry,
    ...applied,
    status: 'rejected',
    crm_sync_status: 'not_applicable',
    review_status: 'rejected',
    review,
  };
  return {
    kind: 'final',
    lead: rejected,
    outputs: [
      reviewed,
      eventOutput(
        rejected,
        'lead.rejected',
        {
          lead_id: lead._id,
          lead: { email: lead.email ?? null, first_name: lead.first_name ?? null, rejected_at: at },
          rejection_reason: 'manual_review',
          rule_id: null,
          message: reason ?? 'Rejected in the review queue',
        },
        at,
      ),
    ],
  };
}
