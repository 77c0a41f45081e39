/**
 * The built-in validation rules (docs/decisions.md "Validation") over one submission, as one pure
 * function. The only outside fact it needs, the MX answer for the email's domain, is looked up by
 * the caller beforehand (with `emailDomain()`), so this stays free of I/O and is tested without
 * DNS.
 *
 * Rule order, first refusal wins:
 * 1. shape: required fields, email syntax, phone, custom fields, `form_started_at` format. All
 *    problems are reported at once as `invalid` (400 with details). Its reason is
 *    `missing_required` when every problem is an absent field, else `invalid_email` when the
 *    email's syntax is one of the problems, else `failed_custom_rule` (a format rule
 *    failed: phone, custom field type, timestamp).
 * 2. bot: honeypot → `bot_detected`; too fast → `bot_detected`; 1-3 s → flags; high-risk IP →
 *    reject (`bot_detected`), flag, or allow, as the organization chose.
 * 3. disposable domain → `disposable_email`, unless the organization allows them.
 * 4. MX: none → `invalid_email`; DNS unavailable → accepted with a warning.
 * 5. typo → warning with a suggestion and the `email_typo` flag; never a refusal.
 * Cheap, certain rules run before the ones that depend on DNS, and a bot is called a bot even
 * when its email also happens to be disposable.
 */
import type { ErrorDetail } from '../errors';
import { SUBMISSION_TEXT_FIELDS, type LeadSubmission } from '../lead/lead-submission';
import type { ValidationSettings } from '../organization-settings';
import type { MxAnswer } from './mx-answer';
import { classifyFormTiming, isHoneypotFilled, isIpInList, isIsoDateTime } from './bot-detection';
import {
  applyCustomFieldDefaults,
  checkCustomFields,
  type CustomFieldDefinition,
  type FieldProblem,
} from './custom-fields';
import { isDisposableDomain } from './disposable-email';
import { parseEmail } from './email-syntax';
import { suggestEmailDomain } from './email-typo';
import { normalizePhone } from './phone';
import { checkRequiredFields } from './required-fields';
import type { LeadFlag, RejectionReason, ValidationVerdict } from './validation.types';

/** Names of the rules, as listed in `rulesApplied` (activity log `validation_rules`). */
export const VALIDATION_RULES = [
  'required_fields',
  'email_syntax',
  'phone',
  'custom_fields',
  'bot_honeypot',
  'bot_timing',
  'high_risk_ip',
  'disposable_email',
  'mx',
  'email_typo',
] as const;
export type BuiltInValidationRule = (typeof VALIDATION_RULES)[number];

/** The stable `rule_id` of a refusal (422 body, activity log). */
export function validationRuleId(rule: BuiltInValidationRule): string {
  return `validation.${rule}`;
}

export interface ValidateLeadInput {
  submission: LeadSubmission;
  settings: ValidationSettings;
  customFields: readonly CustomFieldDefinition[];
  /**
   * The MX answer for `emailDomain(submission.email)`; `undefined` when it was not looked up
   * (MX checks off for the process, or the email is invalid), and then the MX rule does not run.
   */
  mx: MxAnswer | undefined;
  now: Date;
}

export function validateLead(input: ValidateLeadInput): ValidationVerdict {
  const { settings, customFields, mx, now } = input;
  const lead = trimTextFields(input.submission);
  const rulesApplied: BuiltInValidationRule[] = [];
  const warnings: ErrorDetail[] = [];
  const flags = new Set<LeadFlag>();
  const reject = (rule: BuiltInValidationRule, reason: RejectionReason, message: string): ValidationVerdict => ({
    outcome: 'rejected',
    reason,
    ruleId: validationRuleId(rule),
    message,
  });

  // 1. Shape: collect every problem so the vendor can fix them all in one go.
  const problems: FieldProblem[] = [];
  rulesApplied.push('required_fields');
  problems.push(...checkRequiredFields(lead, settings.required_fields));

  let email: { local: string; domain: string } | undefined;
  if (lead.email !== '') {
    rulesApplied.push('email_syntax');
    const parsed = parseEmail(lead.email);
    if (parsed.ok) {
      lead.email = parsed.email;
      email = parsed;
    } else {
      problems.push({ field: 'email', message: parsed.message, missing: false });
    }
  }
  if (lead.phone !== undefined) {
    rulesApplied.push('phone');
    const phone = normalizePhone(lead.phone, settings.default_phone_country);
    if (phone.ok) lead.phone = phone.e164;
    else problems.push({ field: 'phone', message: phone.message, missing: false });
  }
  rulesApplied.push('custom_fields');
  const withDefaults = applyCustomFieldDefaults(lead.custom_fields, customFields);
  if (withDefaults) lead.custom_fields = withDefaults;
  problems.push(...checkCustomFields(lead.custom_fields, customFields));
  if (lead.form_started_at !== undefined && !isIsoDateTime(lead.form_started_at)) {
    problems.push({
      field: 'form_started_at',
      message: 'must be an ISO 8601 date-time with a time zone',
      missing: false,
    });
  }
  if (problems.length > 0 || !email) {
    return {
      outcome: 'invalid',
      reason: invalidReason(problems),
      details: problems.map(({ field, message }) => ({ field, message })),
    };
  }

  // 2. Bot detection.
  const bot = settings.bot_detection;
  if (bot.honeypot) {
    rulesApplied.push('bot_honeypot');
    if (isHoneypotFilled(lead.website))
      return reject('bot_honeypot', 'bot_detected', 'The honeypot field was filled in');
  }
  if (lead.form_started_at !== undefined) {
    rulesApplied.push('bot_timing');
    const timing = classifyFormTiming(lead.form_started_at, now, bot);
    if (timing.kind === 'reject') {
      return reject('bot_timing', 'bot_detected', `Submitted ${timing.elapsedMs} ms after the form was loaded`);
    }
    if (timing.kind === 'flag') addFlags(flags, 'manual_review', 'possible_bot');
    if (timing.kind === 'future') {
      // Clock skew between the form's host and us is the likely cause: review, don't refuse.
      addFlags(flags, 'manual_review', 'possible_bot');
      warnings.push({ field: 'form_started_at', message: 'is later than the submission time' });
    }
  }
  if (bot.high_risk_ips.length > 0 && bot.high_risk_ip_action !== 'allow' && lead.ip_address !== undefined) {
    rulesApplied.push('high_risk_ip');
    const listed = isIpInList(lead.ip_address, bot.high_risk_ips);
    if (listed === undefined) {
      warnings.push({ field: 'ip_address', message: 'is not an IP address; the high-risk IP check was skipped' });
    } else if (listed && bot.high_risk_ip_action === 'reject') {
      return reject('high_risk_ip', 'bot_detected', 'The submission came from a high-risk IP address');
    } else if (listed) {
      addFlags(flags, 'manual_review', 'high_risk_ip');
    }
  }

  // 3. Disposable domains.
  if (!settings.allow_disposable_emails) {
    rulesApplied.push('disposable_email');
    if (isDisposableDomain(email.domain)) {
      return reject('disposable_email', 'disposable_email', `${email.domain} is a disposable email domain`);
    }
  }

  // 4. MX, with the typo suggestion in the message: a typo is the usual reason for no MX.
  const suggestion = suggestEmailDomain(email.domain);
  if (settings.mx_check && mx !== undefined) {
    rulesApplied.push('mx');
    if (mx.status === 'none') {
      const hint = suggestion ? ` (did you mean ${email.local}@${suggestion}?)` : '';
      return reject('mx', 'invalid_email', `${email.domain} has no MX record and cannot receive email${hint}`);
    }
    if (mx.status === 'unavailable') {
      warnings.push({ field: 'email', message: `The domain ${email.domain} could not be verified (DNS unavailable)` });
    }
  }

  // 5. Typos: warn, never refuse; the person may really use that domain.
  rulesApplied.push('email_typo');
  if (suggestion) {
    warnings.push({ field: 'email', message: `Did you mean ${email.local}@${suggestion}?` });
    flags.add('email_typo');
  }

  return { outcome: 'accepted', lead, warnings, flags: [...flags], rulesApplied };
}

function invalidReason(problems: readonly FieldProblem[]): RejectionReason {
  if (problems.every((problem) => problem.missing)) return 'missing_required';
  if (problems.some((problem) => problem.field === 'email' && !problem.missing)) return 'invalid_email';
  return 'failed_custom_rule';
}

function addFlags(flags: Set<LeadFlag>, ...added: LeadFlag[]): void {
  for (const flag of added) flags.add(flag);
}

/** Trims the text fields and drops the blank optional ones: forms post empty inputs as "". */
function trimTextFields(submission: LeadSubmission): LeadSubmission {
  const lead: LeadSubmission = {
    ...submission,
    email: typeof submission.email === 'string' ? submission.email.trim() : '',
  };
  for (const field of SUBMISSION_TEXT_FIELDS) {
    if (field === 'email') continue;
    const value = lead[field];
    if (typeof value !== 'string') continue;
    const trimmed = value.trim();
    if (trimmed === '') delete lead[field];
    else lead[field] = trimmed;
  }
  return lead;
}
