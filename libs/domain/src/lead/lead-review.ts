/**
 * The review queue of flagged leads (docs/review-queue.md). A lead flagged for manual review
 * (`manual_review`, or `review_flags` from rules) is held by the route stage: it is stored and
 * answered as accepted, but not routed, synced or announced with lead.routed until a person (or
 * the automatic decision) approves or rejects it. What the lead keeps of it:
 * - `review_status`: `pending` while it waits, then `approved` or `rejected` (a scalar, indexed);
 * - `review_kinds`: the kinds of flag that held it (`possible_bot`, `email_typo`, `high_risk_ip`,
 *   `possible_duplicate`, `rule`), for the queue's filter and counts;
 * - `review`: when it was held and, once decided, the decision, who decided and why.
 */
import type { Body, Problems } from '../accounts/input';
import type { LeadRecord } from './lead';

export const REVIEW_DECISIONS = ['approve', 'reject'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

export const REVIEW_FLAG_KINDS = ['possible_bot', 'email_typo', 'high_risk_ip', 'possible_duplicate', 'rule'] as const;
export type ReviewFlagKind = (typeof REVIEW_FLAG_KINDS)[number];

export type ReviewStatus = 'pending' | 'approved' | 'rejected';

/** The reviewer of a decision taken by the scheduled job (`auto_decision_after_hours`). */
export const AUTOMATIC_REVIEWER = 'automatic';

export interface LeadReview {
  status: ReviewStatus;
  kinds: ReviewFlagKind[];
  held_at: string;
  decision: ReviewDecision | null;
  reviewer: string | null;
  reason: string | null;
  automatic: boolean;
  decided_at: string | null;
}

/** Whether the lead was flagged for a person to look at before it goes on. */
export function isFlaggedForReview(lead: Pick<LeadRecord, 'flags'> & { review_flags?: unknown }): boolean {
  const reviewFlags = lead.review_flags;
  return (lead.flags ?? []).includes('manual_review') || (Array.isArray(reviewFlags) && reviewFlags.length > 0);
}

/** The kinds of flag on a lead, in a fixed order. */
export function reviewKindsOf(lead: Pick<LeadRecord, 'flags'> & { review_flags?: unknown }): ReviewFlagKind[] {
  const flags = new Set<string>(lead.flags ?? []);
  const kinds = REVIEW_FLAG_KINDS.filter((kind) => kind !== 'rule' && flags.has(kind));
  if (Array.isArray(lead.review_flags) && lead.review_flags.length > 0) kinds.push('rule');
  return kinds;
}

/**
 * Review settings of an organization (docs/review-queue.md "Settings"), kept in the organization's
 * settings (PATCH /api/organization `{settings: {review_sla_hours, auto_decision_after_hours,
 * auto_decision}}`); every one optional, null when not set.
 */
export interface ReviewSettings {
  /** A lead waiting longer is overdue (marked in the queue, counted in /metrics). */
  review_sla_hours: number | null;
  /** A lead waiting longer is decided by the scheduled job with `auto_decision`. */
  auto_decision_after_hours: number | null;
  auto_decision: ReviewDecision | null;
}

export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  review_sla_hours: null,
  auto_decision_after_hours: null,
  auto_decision: null,
};

/** The longest wait either setting takes, in hours: one year. */
export const MAX_REVIEW_HOURS = 8_760;

/** The review settings of stored organization settings, null for each one not set. */
export function reviewSettingsOf(settings: Partial<ReviewSettings> | undefined): ReviewSettings {
  return {
    review_sla_hours: settings?.review_sla_hours ?? null,
    auto_decision_after_hours: settings?.auto_decision_after_hours ?? null,
    auto_decision: settings?.auto_decision ?? null,
  };
}

/** Whether any review setting is set (the scheduled job's work list). */
export function hasReviewSettings(settings: ReviewSettings): boolean {
  return settings.review_sla_hours !== null || settings.auto_decision_after_hours !== null;
}

/** A number of hours above 0 and at most a year, or null (unset); undefined when absent or wrong. */
function hoursOrNull(settings: Body, field: string, problems: Problems): number | null | undefined {
  const value = settings[field];
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > MAX_REVIEW_HOURS) {
    problems.add(`settings.${field}`, `must be a number of hours above 0 and at most ${MAX_REVIEW_HOURS}, or null`);
    return undefined;
  }
  return value;
}

/**
 * The review part of PATCH /organization: `settings.review_sla_hours`, `settings.auto_decision_after_hours`
 * and `settings.auto_decision`, merged into `current`. Undefined when the body sets none of them.
 * `auto_decision` is required once `auto_decision_after_hours` is set (in the body or already).
 */
export function readReviewSettings(
  settings: Body,
  current: Partial<ReviewSettings> | undefined,
  problems: Problems,
): ReviewSettings | undefined {
  const fields = ['review_sla_hours', 'auto_decision_after_hours', 'auto_decision'];
  if (!fields.some((field) => settings[field] !== undefined)) return undefined;
  const next = reviewSettingsOf(current);
  const sla = hoursOrNull(settings, 'review_sla_hours', problems);
  if (sla !== undefined) next.review_sla_hours = sla;
  const after = hoursOrNull(settings, 'auto_decision_after_hours', problems);
  if (after !== undefined) next.auto_decision_after_hours = after;
  const decision = settings['auto_decision'];
  if (decision === null) next.auto_decision = null;
  else if (decision !== undefined) {
    if ((REVIEW_DECISIONS as readonly unknown[]).includes(decision)) next.auto_decision = decision as ReviewDecision;
    else problems.add('settings.auto_decision', 'must be approve, reject or null');
  }
  if (
    next.auto_decision_after_hours !== null &&
    next.auto_decision === null &&
    !problems.has('settings.auto_decision') &&
    !problems.has('settings.auto_decision_after_hours')
  )
    problems.add('settings.auto_decision', 'is required (approve or reject) when auto_decision_after_hours is set');
  return next;
}

/** Whether a lead held since `heldAt` is past the organization's review SLA at `now`. */
export function isReviewOverdue(heldAt: string, settings: ReviewSettings, now: Date): boolean {
  if (settings.review_sla_hours === null) return false;
  return now.getTime() - Date.parse(heldAt) > settings.review_sla_hours * 3_600_000;
}

/** Each flag of a lead in words, for a reviewer (the console shows these). */
export interface ReviewReason {
  kind: ReviewFlagKind;
  text: string;
  /** possible_duplicate: the lead it looks like, and how much. */
  lead_id?: string;
  score?: number;
}

export function reviewReasonsOf(lead: LeadRecord): ReviewReason[] {
  const reasons: ReviewReason[] = [];
  for (const kind of reviewKindsOf(lead)) {
    switch (kind) {
      case 'possible_bot': {
        const started = typeof lead['form_started_at'] === 'string' ? Date.parse(lead['form_started_at']) : NaN;
        const elapsed = Date.parse(lead.submitted_at) - started;
        reasons.push({
          kind,
          text: Number.isFinite(elapsed)
            ? elapsed < 0
              ? 'the form says it opened after the submission (clock skew or forged)'
              : `submitted ${(elapsed / 1000).toFixed(1)} s after the form opened`
            : 'submitted faster than a person usually fills the form',
        });
        break;
      }
      case 'email_typo': {
        const warning = (lead.warnings ?? []).find(
          (entry) => entry.field === 'email' && /did you mean/i.test(entry.message),
        );
        const domain = /@([^?\s]+)\?/.exec(warning?.message ?? '')?.[1];
        reasons.push({ kind, text: domain ? `did you mean ${domain}?` : 'the email domain looks misspelt' });
        break;
      }
      case 'high_risk_ip':
        reasons.push({ kind, text: `sent from a high-risk IP address (${lead.ip_address ?? 'unknown'})` });
        break;
      case 'possible_duplicate': {
        const score = lead.similarity_score;
        reasons.push({
          kind,
          text: `similar to ${lead.duplicate_of ?? 'another lead'}${
            typeof score === 'number' ? ` (score ${(score > 1 ? score / 100 : score).toFixed(2)})` : ''
          }`,
          ...(lead.duplicate_of ? { lead_id: lead.duplicate_of } : {}),
          ...(typeof score === 'number' ? { score } : {}),
        });
        break;
      }
      case 'rule': {
        const flags = Array.isArray(lead['review_flags']) ? (lead['review_flags'] as Array<{ reason?: unknown }>) : [];
        for (const flag of flags)
          reasons.push({ kind, text: typeof flag.reason === 'string' ? flag.reason : 'flagged by a rule' });
        break;
      }
    }
  }
  return reasons;
}
