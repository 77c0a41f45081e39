/**
 * Why a lead was marked for manual review, as the lead's `review_flags` keep it
 * (docs/enrichment-rules.md, docs/validation-rules.md): `{rule_id, reason, severity}` of a `flag`
 * action, and for a rule that could not be evaluated also its name and the error, so a reviewer
 * (and whoever fixes the rule) knows which rule and why.
 */

export interface ReviewFlag {
  rule_id: string;
  reason: string;
  severity: string;
  /** Set when the rule could not be evaluated. */
  rule_name?: string;
  /** Why the rule could not be evaluated (where in the rule, and what). */
  error?: string;
}

/** A rule that could not be evaluated on a lead: the lead goes to review naming it, and the stage logs it. */
export interface UnevaluableRule {
  rule_id: string;
  rule_name: string;
  error: string;
}

/** The review flag of a rule that could not be evaluated: high severity, since it may have been meant to reject. */
export function unevaluableRuleFlag(rule: UnevaluableRule): ReviewFlag {
  return {
    rule_id: rule.rule_id,
    rule_name: rule.rule_name,
    reason: `rule "${rule.rule_name}" cannot be evaluated: ${rule.error}`,
    severity: 'high',
    error: rule.error,
  };
}
