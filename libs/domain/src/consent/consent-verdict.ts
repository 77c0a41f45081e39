/**
 * The consent requirements in the validate stage's verdict (docs/consent.md): a lead the other
 * rules accepted is rejected (`consent_missing` / `consent_invalid`, the requirement's rule id) or
 * flagged for manual review with a review flag naming the requirement, as the organization's
 * `action` says. A lead the other rules refused stays refused for their reason.
 */
import type { ValidationVerdict } from '../validation/validation.types';
import { checkConsent, type ConsentEvidence, type ConsentRequirements } from './consent';

export function applyConsentRequirements(
  verdict: ValidationVerdict,
  consent: ConsentEvidence | undefined,
  requirements: ConsentRequirements,
  submittedAt: Date,
): ValidationVerdict {
  if (verdict.outcome !== 'accepted') return verdict;
  const failure = checkConsent(consent, requirements, submittedAt);
  if (!failure) return verdict;
  if (requirements.action === 'reject')
    return { outcome: 'rejected', reason: failure.reason, ruleId: failure.rule_id, message: failure.message };
  return {
    ...verdict,
    flags: verdict.flags.includes('manual_review') ? verdict.flags : [...verdict.flags, 'manual_review'],
    reviewFlags: [
      ...(verdict.reviewFlags ?? []),
      { rule_id: failure.rule_id, reason: `${failure.reason}: ${failure.message}`, severity: 'high' },
    ],
  };
}
