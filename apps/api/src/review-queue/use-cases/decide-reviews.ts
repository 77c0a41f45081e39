/**
 * Approve or reject leads held for review (docs/review-queue.md). A decision is a lead command on
 * leads.enriched (the route stage's topic) carrying `review`; the route stage applies it in its own
 * write, so an approved lead goes on through route, CRM sync, webhooks and analytics as if it had
 * not been flagged, and a rejected one is rejected there. The lead is not written here.
 */
import type { LeadRecord, ReviewDecision, TenantContext } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { TOPICS } from '@leadstream/runtime';
import type { LeadCommandMessage } from '@leadstream/schemas';
import { randomUUID } from 'node:crypto';
import type { ReviewQueueRepository } from '../review-queue.repository';

export interface DecideReviewsDeps {
  queue: Pick<ReviewQueueRepository, 'findVisible'>;
  log: Pick<EventLog, 'produce'>;
}

export interface ReviewDecisionInput {
  tenant: TenantContext;
  ids: readonly string[];
  decision: ReviewDecision;
  reviewer: string;
  reason: string | null;
  /** The scheduled job: one message id per lead, so a restarted job decides nothing twice. */
  automatic?: boolean;
}

export type ReviewOutcome =
  | { id: string; success: true }
  | { id: string; success: false; error: { code: 'LEAD_NOT_FOUND' | 'LEAD_NOT_IN_REVIEW'; message: string } };

export interface ReviewDecisionResult {
  results: ReviewOutcome[];
  succeeded: number;
  failed: number;
}

/** The command that hands the decision to the route stage. */
export function reviewCommand(
  lead: LeadRecord,
  decision: ReviewDecision,
  reviewer: string,
  reason: string | null,
  automatic: boolean,
): LeadCommandMessage {
  return {
    schema_version: 1,
    // The automatic decision has one id per lead: if the job runs again before route applied it
    // (a restart), the route stage skips the second as an applied message.
    message_id: automatic ? `review-auto:${lead._id}` : `review:${lead._id}:${randomUUID()}`,
    correlation_id: `review:${lead._id}`,
    lead_id: lead._id,
    organization_id: lead.organization_id,
    environment: lead.environment,
    vendor_id: lead.vendor_id,
    submitted_at: lead.submitted_at,
    review: { decision, reviewer, reason, ...(automatic ? { automatic: true } : {}) },
  };
}

export async function decideReviews(
  deps: DecideReviewsDeps,
  input: ReviewDecisionInput,
): Promise<ReviewDecisionResult> {
  const results: ReviewOutcome[] = [];
  const commands: LeadCommandMessage[] = [];
  for (const id of input.ids) {
    const lead = await deps.queue.findVisible(input.tenant, id);
    if (!lead) {
      results.push({ id, success: false, error: { code: 'LEAD_NOT_FOUND', message: 'Lead not found' } });
    } else if (lead['review_status'] !== 'pending') {
      results.push({
        id,
        success: false,
        error: {
          code: 'LEAD_NOT_IN_REVIEW',
          message: 'The lead is not waiting for review (decided already, or never flagged)',
        },
      });
    } else {
      commands.push(reviewCommand(lead, input.decision, input.reviewer, input.reason, input.automatic === true));
      results.push({ id, success: true });
    }
  }
  if (commands.length > 0)
    await deps.log.produce(
      TOPICS.enriched,
      commands.map((command) => ({ key: command.lead_id, value: JSON.stringify(command) })),
    );
  const succeeded = results.filter((result) => result.success).length;
  return { results, succeeded, failed: results.length - succeeded };
}
