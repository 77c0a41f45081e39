/**
 * Validation as the validate stage runs it and POST /api/validation/check predicts it (one code
 * path, issue 9): the built-in rules of spec 7.4 (`validateLead`), then the organization's
 * custom validation rules (spec 2.18) on the normalized submission, in priority order. A custom
 * `reject` refuses the lead with reason `failed_custom_rule` and the rule's id and message;
 * `flag` marks it for manual review; `warn` adds a warning; `transform` changes the value.
 */
import type { ErrorDetail } from '../errors';
import type { LeadSubmission } from '../lead/lead-submission';
import { applyValidationRules, type ValidationRule } from '../validation-rules';
import { validateLead, type ValidateLeadInput } from './validate-lead';
import type { LeadFlag, ValidationVerdict } from './validation.types';

export interface ValidateWithRulesInput extends ValidateLeadInput {
  rules: readonly ValidationRule[];
}

/** The answer of POST /api/validation/check (spec 4.10). */
export interface ValidationCheck {
  valid: boolean;
  warnings: Array<ErrorDetail & { rule_id?: string }>;
  errors: Array<ErrorDetail & { rule_id?: string }>;
}

export function validateWithRules(input: ValidateWithRulesInput): { verdict: ValidationVerdict; check: ValidationCheck } {
  const verdict = validateLead(input);
  if (verdict.outcome === 'invalid') return { verdict, check: { valid: false, warnings: [], errors: verdict.details } };
  if (verdict.outcome === 'rejected') {
    return { verdict, check: { valid: false, warnings: [], errors: [{ field: fieldOfBuiltInRule(verdict.ruleId), message: verdict.message, rule_id: verdict.ruleId }] } };
  }
  const custom = applyValidationRules(input.rules, verdict.lead as unknown as Record<string, unknown>);
  const warnings = [...verdict.warnings, ...custom.warnings];
  if (!custom.valid) {
    const first = custom.errors[0]!;
    return {
      verdict: { outcome: 'rejected', reason: 'failed_custom_rule', ruleId: first.rule_id, message: first.message },
      check: { valid: false, warnings, errors: custom.errors },
    };
  }
  const flags: LeadFlag[] = custom.flags.length > 0 && !verdict.flags.includes('manual_review') ? [...verdict.flags, 'manual_review'] : verdict.flags;
  const lead = custom.submission as unknown as LeadSubmission;
  return {
    verdict: { outcome: 'accepted', lead, warnings: [...verdict.warnings, ...custom.warnings.map(({ field, message }) => ({ field, message }))], flags, rulesApplied: [...verdict.rulesApplied, ...custom.applied] },
    check: { valid: true, warnings: [...warnings, ...custom.flags.map((flag) => ({ ...flag, message: `flagged for review: ${flag.message}` }))], errors: [] },
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
