/**
 * The consent part of PATCH /organization (docs/consent.md): `settings.consent_requirements`
 * merged into the current requirements field by field, and `settings.consent_retention_days`.
 */
import { bool, integer, oneOf, stringList, type Body, type Problems } from '../accounts/input';
import { DEFAULT_CONSENT_REQUIREMENTS, type ConsentRequirements } from './consent';

/** A term: 1-500 characters with something besides white space and wildcards. */
const TERM = /[^\s]/u;
const MAX_TERMS = 50;
/** Ten years: a longer max_age_hours is no limit at all. */
const MAX_AGE_HOURS = 87_600;
/** Retention of a deleted lead's evidence: one day to 50 years. */
export const MAX_CONSENT_RETENTION_DAYS = 18_263;

function terms(input: Body, field: string, problems: Problems, prefix: string): string[] | undefined {
  const list = stringList(input, field, problems, { maxItems: MAX_TERMS, prefix });
  if (list === undefined) return undefined;
  const bad = list.filter((term) => term.length > 500 || !TERM.test(term.replaceAll('{{*}}', '')));
  if (bad.length > 0) {
    problems.add(`${prefix}${field}`, 'each term must be 1-500 characters with at least one word besides {{*}}');
    return undefined;
  }
  return list;
}

/** `settings.consent_requirements` of a PATCH, merged into `current` (the defaults when none is set). */
export function readConsentRequirements(
  input: Body,
  current: ConsentRequirements | undefined,
  problems: Problems,
): ConsentRequirements {
  const prefix = 'settings.consent_requirements.';
  problems.onlyKnown(input, ['required', 'required_terms', 'forbidden_terms', 'max_age_hours', 'action'], prefix);
  const next: ConsentRequirements = { ...DEFAULT_CONSENT_REQUIREMENTS, ...current };
  const required = bool(input, 'required', problems, prefix);
  if (required !== undefined) next.required = required;
  const requiredTerms = terms(input, 'required_terms', problems, prefix);
  if (requiredTerms !== undefined) next.required_terms = requiredTerms;
  const forbiddenTerms = terms(input, 'forbidden_terms', problems, prefix);
  if (forbiddenTerms !== undefined) next.forbidden_terms = forbiddenTerms;
  if (input['max_age_hours'] === null) next.max_age_hours = null;
  else {
    const age = integer(input, 'max_age_hours', problems, { min: 1, max: MAX_AGE_HOURS, prefix });
    if (age !== undefined) next.max_age_hours = age;
  }
  const action = oneOf(input, 'action', ['reject', 'flag'] as const, problems, { prefix });
  if (action !== undefined) next.action = action;
  return next;
}

/** `settings.consent_retention_days`: whole days, 1 to 50 years. */
export function readConsentRetentionDays(settings: Body, problems: Problems): number | undefined {
  return integer(settings, 'consent_retention_days', problems, {
    min: 1,
    max: MAX_CONSENT_RETENTION_DAYS,
    prefix: 'settings.',
  });
}
