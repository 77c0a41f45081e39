/**
 * Consent evidence (docs/consent.md): what a person agreed to, when and where, as a submission's
 * `consent` carries it; the organization's requirements on it (`settings.consent_requirements`);
 * the check the validate stage runs; and the immutable record stored with the lead (its canonical
 * JSON, the SHA-256 of that JSON and when it was received), whose hash a later read recomputes.
 */
import { createHash } from 'node:crypto';

export const CONSENT_METHODS = ['checkbox', 'signature', 'verbal', 'other'] as const;
export type ConsentMethod = (typeof CONSENT_METHODS)[number];

/** A submission's `consent` (schemas/requests/lead-submission.schema.json checks it at the edge). */
export interface ConsentEvidence {
  text: string;
  /** ISO 8601: when the person gave it. */
  given_at: string;
  page_url: string;
  ip: string;
  user_agent: string;
  /** A TrustedForm or Jornaya certificate URL or token. */
  certificate_url?: string;
  method: ConsentMethod;
}

export type ConsentAction = 'reject' | 'flag';

/** An organization's requirements on consent (`settings.consent_requirements`). */
export interface ConsentRequirements {
  /** A submission without consent fails. */
  required: boolean;
  /** Phrases that must each appear in the consent text; `{{*}}` stands for one or more words. */
  required_terms: string[];
  /** Phrases that must not appear in it (same matching). */
  forbidden_terms: string[];
  /** Consent given longer than this before the submission fails; null: any age. */
  max_age_hours: number | null;
  /** What a failing requirement does: reject the lead (422), or flag it for manual review. */
  action: ConsentAction;
}

export const DEFAULT_CONSENT_REQUIREMENTS: ConsentRequirements = {
  required: false,
  required_terms: [],
  forbidden_terms: [],
  max_age_hours: null,
  action: 'reject',
};

/** How long the evidence of a deleted lead is kept (`settings.consent_retention_days`): five years. */
export const DEFAULT_CONSENT_RETENTION_DAYS = 1826;

/** Consent given this far in the future of the submission is not believed (clocks drift a little). */
export const CONSENT_CLOCK_SKEW_MS = 5 * 60_000;

export type ConsentRejectionReason = 'consent_missing' | 'consent_invalid';

/** Why consent fails the organization's requirements; the rule id names the requirement. */
export interface ConsentFailure {
  reason: ConsentRejectionReason;
  rule_id:
    'consent.required' | 'consent.required_terms' | 'consent.forbidden_terms' | 'consent.max_age' | 'consent.given_at';
  message: string;
}

const WORD = '[\\p{L}\\p{N}]';

function normalizeSpace(value: string): string {
  return value.replace(/\s+/gu, ' ').trim().toLowerCase();
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A phrase as a case-insensitive expression over the text with its white space collapsed: the
 * phrase's own white space matches any white space, `{{*}}` one or more words, and the phrase
 * must start and end at word boundaries ("agree" is not found in "disagree").
 */
export function consentTermPattern(term: string): RegExp {
  const parts = normalizeSpace(term)
    .split('{{*}}')
    .map((part) => escapeRegExp(part));
  const body = parts.join('\\S+(?: \\S+)*?');
  return new RegExp(`(?<!${WORD})${body}(?!${WORD})`, 'u');
}

/** Whether the phrase (with `{{*}}` wildcards) appears in the consent text. */
export function consentTextContains(text: string, term: string): boolean {
  return consentTermPattern(term).test(normalizeSpace(text));
}

/**
 * The first requirement the consent fails, or null when it meets them all (or there are none).
 * `submittedAt` is when the API received the submission: the age is measured to then.
 */
export function checkConsent(
  consent: ConsentEvidence | undefined,
  requirements: ConsentRequirements,
  submittedAt: Date,
): ConsentFailure | null {
  if (!consent) {
    return requirements.required
      ? { reason: 'consent_missing', rule_id: 'consent.required', message: 'Consent is required and was not given' }
      : null;
  }
  const given = Date.parse(consent.given_at);
  if (Number.isNaN(given) || given > submittedAt.getTime() + CONSENT_CLOCK_SKEW_MS) {
    return { reason: 'consent_invalid', rule_id: 'consent.given_at', message: 'Consent given_at is in the future' };
  }
  if (requirements.max_age_hours !== null && submittedAt.getTime() - given > requirements.max_age_hours * 3_600_000) {
    return {
      reason: 'consent_invalid',
      rule_id: 'consent.max_age',
      message: `Consent is older than ${requirements.max_age_hours} hours`,
    };
  }
  const missing = requirements.required_terms.find((term) => !consentTextContains(consent.text, term));
  if (missing !== undefined) {
    return {
      reason: 'consent_invalid',
      rule_id: 'consent.required_terms',
      message: `Consent text lacks the required term "${missing}"`,
    };
  }
  const forbidden = requirements.forbidden_terms.find((term) => consentTextContains(consent.text, term));
  if (forbidden !== undefined) {
    return {
      reason: 'consent_invalid',
      rule_id: 'consent.forbidden_terms',
      message: `Consent text contains the forbidden term "${forbidden}"`,
    };
  }
  return null;
}

/**
 * Canonical JSON: object keys sorted by code unit, no white space, arrays in order (RFC 8785's
 * ordering for the strings and integers evidence holds), so the same evidence always hashes alike.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The evidence as stored with the lead (`consent`): never changed by an update of the lead. */
export interface ConsentRecord {
  evidence: ConsentEvidence;
  /** The evidence's canonical JSON, as hashed. */
  canonical_json: string;
  /** SHA-256 (hex) of `canonical_json`. */
  sha256: string;
  /** When the API received it (the submission's time). */
  received_at: string;
}

/** The evidence of a submission, only the fields of ConsentEvidence, in its canonical form and hashed. */
export function consentRecord(evidence: ConsentEvidence, receivedAt: string): ConsentRecord {
  const kept: ConsentEvidence = {
    text: evidence.text,
    given_at: evidence.given_at,
    page_url: evidence.page_url,
    ip: evidence.ip,
    user_agent: evidence.user_agent,
    ...(evidence.certificate_url === undefined ? {} : { certificate_url: evidence.certificate_url }),
    method: evidence.method,
  };
  const canonical = canonicalJson(kept);
  return { evidence: kept, canonical_json: canonical, sha256: sha256Hex(canonical), received_at: receivedAt };
}

/**
 * The tamper check: the stored hash is the SHA-256 of the stored canonical JSON, and that JSON is
 * still the canonical form of the stored evidence. Any edit of one of the three shows.
 */
export function consentMatches(record: ConsentRecord): boolean {
  return sha256Hex(record.canonical_json) === record.sha256 && canonicalJson(record.evidence) === record.canonical_json;
}

/** The consent record of a stored lead, when it has one. */
export function consentRecordOf(lead: object): ConsentRecord | null {
  const value = (lead as { consent?: unknown }).consent;
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Partial<ConsentRecord>;
  return typeof record.sha256 === 'string' && typeof record.canonical_json === 'string' && record.evidence
    ? (record as ConsentRecord)
    : null;
}

/** When a deleted lead's evidence is no longer kept; null while the lead is not deleted. */
export function consentRetainedUntil(deletedAt: string | null, retentionDays: number): Date | null {
  if (deletedAt === null) return null;
  return new Date(Date.parse(deletedAt) + retentionDays * 86_400_000);
}
