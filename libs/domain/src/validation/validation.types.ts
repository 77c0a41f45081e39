import type { LeadSubmission } from '../lead/lead-submission';
import type { ErrorDetail } from '../errors';
import type { ReviewFlag } from '../rules/review-flag';

/** Rejection reasons (docs/api-conventions.md "Rejection reasons and flags"). */
export const REJECTION_REASONS = [
  'invalid_email',
  'disposable_email',
  'missing_required',
  'failed_custom_rule',
  'duplicate',
  'bot_detected',
  'rate_limited',
  /** Consent evidence missing or failing the organization's requirements (docs/consent.md). */
  'consent_missing',
  'consent_invalid',
  /** On a suppression list of the organization (docs/suppression-lists.md). */
  'suppressed',
  /** Over a volume cap (docs/caps.md); a cap may name a reason of its own instead. */
  'cap_reached',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** Marks on an accepted lead (the ingestion answer's `flags`, e.g. manual_review). */
export type LeadFlag = 'manual_review' | 'possible_bot' | 'email_typo' | 'high_risk_ip' | 'possible_duplicate';

/**
 * The verdict of validation on one submission.
 * - `invalid`: the input is malformed (400 with details);
 * - `rejected`: well-formed but refused by a rule (422 with reason and rule_id);
 * - `accepted`: goes on, possibly normalized (E.164 phone, trimmed strings), with warnings and flags;
 *   `reviewFlags` name the custom rules that could not be evaluated (the lead's `review_flags`).
 */
export type ValidationVerdict =
  | { outcome: 'invalid'; reason: RejectionReason; details: ErrorDetail[] }
  | { outcome: 'rejected'; reason: RejectionReason; ruleId: string; message: string }
  | {
      outcome: 'accepted';
      lead: LeadSubmission;
      warnings: ErrorDetail[];
      flags: LeadFlag[];
      rulesApplied: string[];
      reviewFlags?: ReviewFlag[];
    };
