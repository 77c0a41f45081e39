/**
 * PATCH /organization: `{name?, settings?: {validation?: Partial<ValidationSettings>, consent_requirements?,
 * consent_retention_days?, review_sla_hours?, auto_decision_after_hours?, auto_decision?}}`. Settings
 * merge into the current ones field by field (bot_detection too), and the result is checked as a
 * whole (flag_below_ms must not be below reject_below_ms).
 */
import { parseIpRestriction } from '../api-keys/ip-restrictions';
import { DomainError } from '../errors';
import type { ValidationSettings } from '../organization-settings';
import type { ConsentRequirements } from '../consent/consent';
import { readConsentRequirements, readConsentRetentionDays } from '../consent/consent-settings';
import { readReviewSettings, type ReviewSettings } from '../lead/lead-review';
import { asBody, bool, integer, nameText, oneOf, Problems, stringList, type Body } from './input';

export interface OrganizationPatch {
  name?: string;
  validation?: ValidationSettings;
  /** docs/consent.md */
  consent_requirements?: ConsentRequirements;
  consent_retention_days?: number;
  /** docs/review-queue.md "Settings": the three review settings as a whole, merged into the current ones. */
  review?: ReviewSettings;
}

const FIELD_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const MAX_DELAY_MS = 60 * 60 * 1000;

function object(body: Body, field: string, problems: Problems, name: string): Body | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.add(name, 'must be an object');
    return undefined;
  }
  return value as Body;
}

function readValidation(input: Body, current: ValidationSettings, problems: Problems): ValidationSettings {
  const prefix = 'settings.validation.';
  problems.onlyKnown(
    input,
    ['allow_disposable_emails', 'mx_check', 'default_phone_country', 'required_fields', 'bot_detection'],
    prefix,
  );
  const next: ValidationSettings = { ...current, bot_detection: { ...current.bot_detection } };
  const disposable = bool(input, 'allow_disposable_emails', problems, prefix);
  if (disposable !== undefined) next.allow_disposable_emails = disposable;
  const mx = bool(input, 'mx_check', problems, prefix);
  if (mx !== undefined) next.mx_check = mx;
  if (input['default_phone_country'] !== undefined) {
    // Either letter case, nothing around it ('gb' is GB).
    const country = typeof input['default_phone_country'] === 'string' ? input['default_phone_country'] : '';
    if (COUNTRY.test(country)) next.default_phone_country = country.toUpperCase();
    else problems.add(`${prefix}default_phone_country`, 'must be an ISO 3166 alpha-2 country code such as US');
  }
  const required = stringList(input, 'required_fields', problems, { maxItems: 50, pattern: FIELD_NAME, prefix });
  if (required !== undefined) next.required_fields = required;

  const bot = object(input, 'bot_detection', problems, `${prefix}bot_detection`);
  if (bot) {
    const botPrefix = `${prefix}bot_detection.`;
    problems.onlyKnown(
      bot,
      ['honeypot', 'reject_below_ms', 'flag_below_ms', 'high_risk_ips', 'high_risk_ip_action'],
      botPrefix,
    );
    const honeypot = bool(bot, 'honeypot', problems, botPrefix);
    if (honeypot !== undefined) next.bot_detection.honeypot = honeypot;
    const reject = integer(bot, 'reject_below_ms', problems, { min: 0, max: MAX_DELAY_MS, prefix: botPrefix });
    if (reject !== undefined) next.bot_detection.reject_below_ms = reject;
    const flag = integer(bot, 'flag_below_ms', problems, { min: 0, max: MAX_DELAY_MS, prefix: botPrefix });
    if (flag !== undefined) next.bot_detection.flag_below_ms = flag;
    const ips = stringList(bot, 'high_risk_ips', problems, { maxItems: 1000, prefix: botPrefix });
    if (ips !== undefined) {
      const bad = ips.filter((ip) => parseIpRestriction(ip) === null);
      if (bad.length > 0)
        problems.add(`${botPrefix}high_risk_ips`, `not IP addresses or CIDR ranges: ${bad.join(', ')}`);
      else next.bot_detection.high_risk_ips = ips;
    }
    const action = oneOf(bot, 'high_risk_ip_action', ['reject', 'flag', 'allow'] as const, problems, {
      prefix: botPrefix,
    });
    if (action !== undefined) next.bot_detection.high_risk_ip_action = action;
    if (next.bot_detection.flag_below_ms < next.bot_detection.reject_below_ms) {
      problems.add(`${botPrefix}flag_below_ms`, 'must not be below reject_below_ms');
    }
  }
  return next;
}

export function readOrganizationPatch(
  raw: unknown,
  current: ValidationSettings,
  currentConsent?: ConsentRequirements,
  currentReview?: Partial<ReviewSettings>,
): OrganizationPatch {
  const body = asBody(raw);
  const problems = new Problems();
  problems.onlyKnown(body, ['name', 'settings']);
  const patch: OrganizationPatch = {};
  const name = nameText(body, 'name', problems, { min: 2, max: 100, required: false });
  if (name !== undefined) patch.name = name;
  const settings = object(body, 'settings', problems, 'settings');
  if (settings) {
    problems.onlyKnown(
      settings,
      [
        'validation',
        'consent_requirements',
        'consent_retention_days',
        'review_sla_hours',
        'auto_decision_after_hours',
        'auto_decision',
      ],
      'settings.',
    );
    const validation = object(settings, 'validation', problems, 'settings.validation');
    if (validation) patch.validation = readValidation(validation, current, problems);
    const consent = object(settings, 'consent_requirements', problems, 'settings.consent_requirements');
    if (consent) patch.consent_requirements = readConsentRequirements(consent, currentConsent, problems);
    const retention = readConsentRetentionDays(settings, problems);
    if (retention !== undefined) patch.consent_retention_days = retention;
    const review = readReviewSettings(settings, currentReview, problems);
    if (review !== undefined) patch.review = review;
  }
  problems.throwIfAny();
  if (
    patch.name === undefined &&
    patch.validation === undefined &&
    patch.consent_requirements === undefined &&
    patch.consent_retention_days === undefined &&
    patch.review === undefined
  ) {
    throw new DomainError('VALIDATION_ERROR', 'Nothing to change', [
      {
        field: 'body',
        message:
          'give name or settings (validation, consent_requirements, consent_retention_days, review_sla_hours, auto_decision_after_hours, auto_decision)',
      },
    ]);
  }
  return patch;
}
