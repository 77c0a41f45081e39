import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { readOrganizationPatch } from '../accounts/organization-patch';
import { DEFAULT_VALIDATION_SETTINGS } from '../organization-settings';
import type { ValidationVerdict } from '../validation/validation.types';
import {
  canonicalJson,
  checkConsent,
  consentMatches,
  consentRecord,
  consentRetainedUntil,
  consentTextContains,
  DEFAULT_CONSENT_REQUIREMENTS,
  type ConsentEvidence,
  type ConsentRequirements,
} from './consent';
import { applyConsentRequirements } from './consent-verdict';

const evidence: ConsentEvidence = {
  text: 'By checking this box I agree to be contacted by Example University  by phone, text and email.',
  given_at: '2026-11-27T10:00:00.000Z',
  page_url: 'https://forms.example.edu/apply',
  ip: '203.0.113.7',
  user_agent: 'Mozilla/5.0',
  method: 'checkbox',
};
const at = new Date('2026-11-27T10:05:00.000Z');
const requirements = (patch: Partial<ConsentRequirements>): ConsentRequirements => ({
  ...DEFAULT_CONSENT_REQUIREMENTS,
  ...patch,
});

describe('consent terms', () => {
  it('matches phrases case-insensitively over collapsed white space, at word boundaries', () => {
    expect(consentTextContains(evidence.text, 'I AGREE to be contacted')).toBe(true);
    expect(consentTextContains(evidence.text, 'university by phone')).toBe(true);
    expect(consentTextContains('I disagree entirely', 'agree')).toBe(false);
  });

  it('{{*}} stands for one or more words, never for none', () => {
    expect(consentTextContains(evidence.text, 'contacted by {{*}} by phone')).toBe(true);
    expect(consentTextContains('contacted by phone', 'contacted by {{*}} phone')).toBe(false);
    expect(consentTextContains('contacted by us by phone', 'contacted by {{*}} by phone')).toBe(true);
  });

  it('treats regular-expression characters in a term literally', () => {
    expect(consentTextContains('rates (msg & data) may apply', '(msg & data)')).toBe(true);
    expect(consentTextContains('rates msg data may apply', '(msg.*data)')).toBe(false);
  });
});

describe('checkConsent', () => {
  it('passes anything when nothing is required', () => {
    expect(checkConsent(undefined, DEFAULT_CONSENT_REQUIREMENTS, at)).toBeNull();
    expect(checkConsent(evidence, DEFAULT_CONSENT_REQUIREMENTS, at)).toBeNull();
  });

  it('names each failing requirement', () => {
    expect(checkConsent(undefined, requirements({ required: true }), at)).toMatchObject({
      reason: 'consent_missing',
      rule_id: 'consent.required',
    });
    expect(
      checkConsent(evidence, requirements({ required_terms: ['agree to be contacted', 'TCPA'] }), at),
    ).toMatchObject({
      reason: 'consent_invalid',
      rule_id: 'consent.required_terms',
      message: expect.stringContaining('"TCPA"'),
    });
    expect(checkConsent(evidence, requirements({ forbidden_terms: ['text and email'] }), at)).toMatchObject({
      reason: 'consent_invalid',
      rule_id: 'consent.forbidden_terms',
    });
    expect(
      checkConsent(evidence, requirements({ max_age_hours: 1 }), new Date('2026-11-27T11:00:01.000Z')),
    ).toMatchObject({
      reason: 'consent_invalid',
      rule_id: 'consent.max_age',
    });
    expect(checkConsent(evidence, requirements({ max_age_hours: 1 }), new Date('2026-11-27T11:00:00.000Z'))).toBeNull();
    expect(
      checkConsent({ ...evidence, given_at: '2026-11-27T11:00:00.000Z' }, DEFAULT_CONSENT_REQUIREMENTS, at),
    ).toMatchObject({
      rule_id: 'consent.given_at',
    });
  });
});

describe('applyConsentRequirements', () => {
  const accepted: ValidationVerdict = {
    outcome: 'accepted',
    lead: { email: 'a@b.edu' },
    warnings: [],
    flags: [],
    rulesApplied: [],
  };

  it('rejects with the reason and rule id when the action is reject', () => {
    expect(applyConsentRequirements(accepted, undefined, requirements({ required: true }), at)).toEqual({
      outcome: 'rejected',
      reason: 'consent_missing',
      ruleId: 'consent.required',
      message: 'Consent is required and was not given',
    });
  });

  it('flags for manual review with a review flag when the action is flag', () => {
    expect(
      applyConsentRequirements(accepted, evidence, requirements({ forbidden_terms: ['by phone'], action: 'flag' }), at),
    ).toMatchObject({
      outcome: 'accepted',
      flags: ['manual_review'],
      reviewFlags: [{ rule_id: 'consent.forbidden_terms', severity: 'high' }],
    });
  });

  it('leaves a lead other rules refused as it is', () => {
    const rejected: ValidationVerdict = { outcome: 'rejected', reason: 'bot_detected', ruleId: 'x', message: 'bot' };
    expect(applyConsentRequirements(rejected, undefined, requirements({ required: true }), at)).toBe(rejected);
  });
});

describe('the consent record', () => {
  it('hashes the canonical JSON (sorted keys, no white space), the same whatever the key order', () => {
    const record = consentRecord(evidence, '2026-11-27T10:05:00.000Z');
    const reordered = consentRecord(
      Object.fromEntries(Object.entries(evidence).reverse()) as unknown as ConsentEvidence,
      '2026-11-27T10:05:00.000Z',
    );
    expect(record.canonical_json).toBe(canonicalJson(evidence));
    expect(record.canonical_json.startsWith('{"given_at":"2026-11-27T10:00:00.000Z","ip":"203.0.113.7"')).toBe(true);
    expect(record.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(reordered.sha256).toBe(record.sha256);
    expect(consentMatches(record)).toBe(true);
  });

  it('shows any edit of the evidence, the JSON or the hash', () => {
    const record = consentRecord(evidence, '2026-11-27T10:05:00.000Z');
    expect(consentMatches({ ...record, evidence: { ...record.evidence, text: 'I agree to nothing' } })).toBe(false);
    expect(consentMatches({ ...record, canonical_json: record.canonical_json.replace('checkbox', 'verbal') })).toBe(
      false,
    );
    expect(consentMatches({ ...record, sha256: '0'.repeat(64) })).toBe(false);
  });
});

describe('PATCH /organization settings.consent_requirements', () => {
  it('merges the requirements field by field and reads the retention', () => {
    const patch = readOrganizationPatch(
      {
        settings: {
          consent_requirements: { required: true, required_terms: ['agree to {{*}} contact'] },
          consent_retention_days: 30,
        },
      },
      DEFAULT_VALIDATION_SETTINGS,
      requirements({ action: 'flag', max_age_hours: 24 }),
    );
    expect(patch.consent_requirements).toEqual({
      required: true,
      required_terms: ['agree to {{*}} contact'],
      forbidden_terms: [],
      max_age_hours: 24,
      action: 'flag',
    });
    expect(patch.consent_retention_days).toBe(30);
  });

  it('refuses unknown fields, bad actions, ages and wildcard-only terms with every problem', () => {
    let error: unknown;
    try {
      readOrganizationPatch(
        {
          settings: {
            consent_requirements: { action: 'drop', max_age_hours: 0, required_terms: ['{{*}}'], color: 'red' },
            consent_retention_days: 0,
          },
        },
        DEFAULT_VALIDATION_SETTINGS,
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect(((error as DomainError).details ?? []).map((detail) => detail.field).sort()).toEqual([
      'settings.consent_requirements.action',
      'settings.consent_requirements.color',
      'settings.consent_requirements.max_age_hours',
      'settings.consent_requirements.required_terms',
      'settings.consent_retention_days',
    ]);
  });
});

describe('consentRetainedUntil', () => {
  it("keeps a deleted lead's evidence for the retention days after the deletion, a live lead's for good", () => {
    expect(consentRetainedUntil(null, 30)).toBeNull();
    expect(consentRetainedUntil('2026-01-01T00:00:00.000Z', 30)?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });
});
