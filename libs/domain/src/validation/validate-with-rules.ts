/**
 * Validation as the validate stage runs it and POST /api/validation/check predicts it (one code
 * path, docs/decisions.md "Rules"): the built-in rules (`validateLead`), then the organization's
 * custom validation rules (docs/validation-rules.md) on the normalized submission, in priority
 * order. A custom `reject` refuses the lead with reason `failed_custom_rule` and the rule's id and
 * message; `flag` marks it for manual review; `warn` adds a warning; `transform` changes the value.
 * A custom rule that cannot be evaluated marks the lead for manual review too, with a review flag
 * naming the rule and its error (`reviewFlags`), and the check lists it as a warning.
 */
import type { ErrorDetail } from '../errors';
import type { LeadSubmission } from '../lead/lead-submission';
import { unevaluableRuleFlag, type UnevaluableRule } from '../rules/review-flag';
import { applyValidationRules, type ValidationRule } from '../validation-rules';
import { validateLead, type ValidateLeadInput } from './validate-lead';
import type { LeadFlag, ValidationVerdict } from './validation.types';

export interface ValidateWithRulesInput extends ValidateLeadInput {
  rules: readonly ValidationRule[];
}

/** The answer of POST /api/validation/check (`checkValidation`). */
export interface ValidationCheck {
  valid: boolean;
  warnings: Array<ErrorDetail & { rule_id?: string }>;
  errors: Array<ErrorDetail & { rule_id?: string }>;
}

/**
 * The verdict, the check's answer, and the custom rules that could not be evaluated (also in the
 * accepted verdict's `reviewFlags`; listed apart so a refused lead's are reported too).
 */
export function validateWithRules(input: ValidateWithRulesInput): {
  verdict: ValidationVerdict;
  check: ValidationCheck;
  unevaluable: UnevaluableRule[];
} {
  const verdict = validateLead(input);
  if (verdict.outcome === 'invalid')
    return { verdict, check: { valid: false, warnings: [], errors: verdict.details }, unevaluable: [] };
  if (verdict.outcome === 'rejected') {
    return {
      verdict,
      check: {
        valid: false,
        warnings: [],
        errors: [{ field: fieldOfBuiltInRule(verdict.ruleId), message: verdict.message, rule_id: verdict.ruleId }],
      },
      unevaluable: [],
    };
  }
  const custom = applyValidationRules(input.rules, verdict.lead as unknown as Record<string, unknown>);
  const unevaluableRules = custom.unevaluable.map(({ rule_id, rule_name, error }) => ({ rule_id, rule_name, error }));
  const reviewFlags = unevaluableRules.map(unevaluableRuleFlag);
  const unevaluableWarnings = custom.unevaluable.map((rule, index) => ({
    field: rule.field,
    rule_id: rule.rule_id,
    message: `flagged for review: ${reviewFlags[index]!.reason}`,
  }));
  const warnings = [...verdict.warnings, ...custom.warnings];
  if (!custom.valid) {
    const first = custom.errors[0]!;
    return {
      verdict: { outcome: 'rejected', reason: 'failed_custom_rule', ruleId: first.rule_id, message: first.message },
      check: { valid: false, warnings: [...warnings, ...unevaluableWarnings], errors: custom.errors },
      unevaluable: unevaluableRules,
    };
  }
  const review = custom.flags.length > 0 || reviewFlags.length > 0;
  const flags: LeadFlag[] =
    review && !verdict.flags.includes('manual_review') ? [...verdict.flags, 'manual_review'] : verdict.flags;
  const lead = custom.submission as unknown as LeadSubmission;
  return {
    verdict: {
      outcome: 'accepted',
      lead,
      warnings: [...verdict.warnings, ...custom.warnings.map(({ field, message }) => ({ field, message }))],
      flags,
      rulesApplied: [...verdict.rulesApplied, ...custom.applied],
      ...(reviewFlags.length > 0 ? { reviewFlags } : {}),
    },
    check: {
      valid: true,
      warnings: [
        ...warnings,
        ...custom.flags.map((flag) => ({ ...flag, message: `flagged for review: ${flag.message}` })),
        ...unevaluableWarnings,
      ],
      errors: [],
    },
    unevaluable: unevaluableRules,
  };
}

/** Built-in rule ids are `validation.<rule>`; the field each judges, for the check's errors. */
const FIELD_OF_BUILT_IN_RULE: Record<string, string> = {
  phone: 'phone',
  bot_honeypot: 'website',
  bot_timing: 'form_started_at',
  high_risk_ip: 'ip_address',
  custom_fields: 'custom_fields',
  required_fields: '(submission)',
};

function fieldOfBuiltInRule(ruleId: string): string {
  return FIELD_OF_BUILT_IN_RULE[ruleId.replace(/^validation\./, '')] ?? 'email';
}
