import { describe, expect, it } from 'vitest';
import type { LeadSubmission } from '../lead/lead-submission';
import { DEFAULT_VALIDATION_SETTINGS, type ValidationSettings } from '../organization-settings';
import type { CustomFieldDefinition } from './custom-fields';
import type { MxAnswer } from './mx-answer';
import { validateLead, type ValidateLeadInput } from './validate-lead';

const NOW = new Date('2025-03-01T12:00:00.000Z');
const TEN_SECONDS_AGO = '2025-03-01T11:59:50.000Z';
const FOUND: MxAnswer = { status: 'found', exchanges: ['mx.example.edu'] };

function run(overrides: {
  submission?: Partial<LeadSubmission>;
  settings?: Partial<ValidationSettings>;
  bot?: Partial<ValidationSettings['bot_detection']>;
  customFields?: CustomFieldDefinition[];
  mx?: MxAnswer | undefined;
}) {
  const input: ValidateLeadInput = {
    submission: { email: 'ann@example.edu', form_started_at: TEN_SECONDS_AGO, ...overrides.submission },
    settings: {
      ...DEFAULT_VALIDATION_SETTINGS,
      ...overrides.settings,
      bot_detection: { ...DEFAULT_VALIDATION_SETTINGS.bot_detection, ...overrides.bot },
    },
    customFields: overrides.customFields ?? [{ name: 'start_term', type: 'string', required: false }],
    mx: 'mx' in overrides ? overrides.mx : FOUND,
    now: NOW,
  };
  return validateLead(input);
}

describe('validateLead: accepted', () => {
  it('normalizes the lead and lists every rule that ran', () => {
    const verdict = run({
      submission: {
        email: '  Ann.Lee@Example.EDU ',
        phone: '(201) 555-0123',
        first_name: ' Ann ',
        last_name: '',
        custom_fields: { start_term: 'fall' },
        ip_address: '192.0.2.1',
      },
      bot: { high_risk_ips: ['203.0.113.0/24'] },
    });
    expect(verdict).toEqual({
      outcome: 'accepted',
      lead: {
        email: 'Ann.Lee@example.edu',
        phone: '+12015550123',
        first_name: 'Ann',
        custom_fields: { start_term: 'fall' },
        ip_address: '192.0.2.1',
        form_started_at: TEN_SECONDS_AGO,
      },
      warnings: [],
      flags: [],
      rulesApplied: [
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
      ],
    });
  });

  it('skips the rules the organization turned off or that have no input', () => {
    const verdict = run({
      submission: { form_started_at: undefined, email: 'x@mailinator.com' },
      settings: { allow_disposable_emails: true, mx_check: false },
      bot: { honeypot: false, high_risk_ips: ['203.0.113.7'], high_risk_ip_action: 'allow' },
    });
    expect(verdict).toMatchObject({
      outcome: 'accepted',
      rulesApplied: ['required_fields', 'email_syntax', 'custom_fields', 'email_typo'],
    });
  });

  it('does not run the MX rule when no answer was looked up', () => {
    const verdict = run({ mx: undefined });
    expect(verdict).toMatchObject({
      outcome: 'accepted',
      rulesApplied: [
        'required_fields',
        'email_syntax',
        'custom_fields',
        'bot_honeypot',
        'bot_timing',
        'disposable_email',
        'email_typo',
      ],
    });
    // The same submission with an answer runs the MX rule: its absence above is the missing answer's doing.
    expect(run({ mx: FOUND })).toMatchObject({ outcome: 'accepted', rulesApplied: expect.arrayContaining(['mx']) });
  });
});

describe('validateLead: invalid (400 with every detail at once)', () => {
  it.each<[string, Partial<LeadSubmission>, string[], string]>([
    ['missing email only', { email: ' ' }, ['email'], 'missing_required'],
    ['missing configured field', { first_name: undefined }, ['first_name'], 'missing_required'],
    ['bad email', { email: 'ann@@example' }, ['email'], 'invalid_email'],
    ['bad email and a missing field', { email: 'nope', first_name: '' }, ['first_name', 'email'], 'invalid_email'],
    ['bad phone', { phone: '12345' }, ['phone'], 'failed_custom_rule'],
    ['unknown custom field', { custom_fields: { shoe_size: 42 } }, ['custom_fields.shoe_size'], 'failed_custom_rule'],
    [
      'custom field of the wrong type',
      { custom_fields: { start_term: 2025 } },
      ['custom_fields.start_term'],
      'failed_custom_rule',
    ],
    ['bad form_started_at', { form_started_at: 'a moment ago' }, ['form_started_at'], 'failed_custom_rule'],
    [
      'several at once',
      { email: 'bad', phone: 'x', custom_fields: { nope: 1 } },
      ['email', 'phone', 'custom_fields.nope'],
      'invalid_email',
    ],
  ])('%s', (_name, submission, fields, reason) => {
    const verdict = run({
      submission: { first_name: 'Ann', ...submission },
      settings: { required_fields: ['first_name'] },
    });
    expect(verdict.outcome).toBe('invalid');
    if (verdict.outcome !== 'invalid') return;
    expect(verdict.reason).toBe(reason);
    expect(verdict.details.map((detail) => detail.field)).toEqual(fields);
    expect(verdict.details.every((detail) => Object.keys(detail).join() === 'field,message')).toBe(true);
  });

  it('checks shape before bots: a malformed bot submission is simply invalid', () => {
    expect(run({ submission: { email: 'bad', website: 'spam' } }).outcome).toBe('invalid');
  });
});

describe('validateLead: bot detection', () => {
  it.each<[string, Partial<LeadSubmission>, Partial<ValidationSettings['bot_detection']>, string]>([
    ['honeypot filled', { website: 'http://spam.example' }, {}, 'validation.bot_honeypot'],
    ['submitted in 400 ms', { form_started_at: '2025-03-01T11:59:59.600Z' }, {}, 'validation.bot_timing'],
    [
      'high-risk IPv4 range, action reject',
      { ip_address: '203.0.113.9' },
      { high_risk_ips: ['203.0.113.0/24'], high_risk_ip_action: 'reject' },
      'validation.high_risk_ip',
    ],
    [
      'high-risk IPv6 range, action reject',
      { ip_address: '2001:db8::1' },
      { high_risk_ips: ['2001:db8::/48'], high_risk_ip_action: 'reject' },
      'validation.high_risk_ip',
    ],
  ])('rejects: %s', (_name, submission, bot, ruleId) => {
    expect(run({ submission, bot })).toEqual({
      outcome: 'rejected',
      reason: 'bot_detected',
      ruleId,
      message: expect.any(String),
    });
  });

  it('ignores the honeypot when the organization turned it off', () => {
    expect(run({ submission: { website: 'x' }, bot: { honeypot: false } }).outcome).toBe('accepted');
  });

  it.each<[string, Partial<LeadSubmission>, Partial<ValidationSettings['bot_detection']>, string[], number]>([
    ['submitted in 2 s', { form_started_at: '2025-03-01T11:59:58.000Z' }, {}, ['manual_review', 'possible_bot'], 0],
    [
      'form loaded in the future (clock skew)',
      { form_started_at: '2025-03-01T12:05:00.000Z' },
      {},
      ['manual_review', 'possible_bot'],
      1,
    ],
    [
      'high-risk IP, action flag',
      { ip_address: '203.0.113.9' },
      { high_risk_ips: ['203.0.113.9'], high_risk_ip_action: 'flag' },
      ['manual_review', 'high_risk_ip'],
      0,
    ],
    [
      'high-risk IP, action allow',
      { ip_address: '203.0.113.9' },
      { high_risk_ips: ['203.0.113.9'], high_risk_ip_action: 'allow' },
      [],
      0,
    ],
    [
      'IP not on the list',
      { ip_address: '192.0.2.1' },
      { high_risk_ips: ['203.0.113.9'], high_risk_ip_action: 'reject' },
      [],
      0,
    ],
    [
      'ip_address not an address',
      { ip_address: 'unknown' },
      { high_risk_ips: ['203.0.113.9'], high_risk_ip_action: 'reject' },
      [],
      1,
    ],
    ['submitted in 3 s', { form_started_at: '2025-03-01T11:59:57.000Z' }, {}, [], 0],
  ])('accepts: %s', (_name, submission, bot, flags, warningCount) => {
    const verdict = run({ submission, bot });
    expect(verdict).toMatchObject({ outcome: 'accepted', flags });
    expect(verdict.outcome === 'accepted' && verdict.warnings).toHaveLength(warningCount);
  });

  it('calls a bot a bot even when its email is also disposable', () => {
    expect(run({ submission: { email: 'x@mailinator.com', website: 'x' } })).toMatchObject({ reason: 'bot_detected' });
  });
});

describe('validateLead: email rules', () => {
  it('rejects disposable domains, subdomains included', () => {
    expect(run({ submission: { email: 'x@inbox.mailinator.com' } })).toEqual({
      outcome: 'rejected',
      reason: 'disposable_email',
      ruleId: 'validation.disposable_email',
      message: 'inbox.mailinator.com is a disposable email domain',
    });
  });

  it('accepts disposable domains when the organization allows them', () => {
    expect(
      run({ submission: { email: 'x@mailinator.com' }, settings: { allow_disposable_emails: true } }).outcome,
    ).toBe('accepted');
  });

  it('rejects a domain without MX as invalid_email, suggesting the likely typo', () => {
    expect(run({ submission: { email: 'ann@gmial.con' }, mx: { status: 'none' } })).toEqual({
      outcome: 'rejected',
      reason: 'invalid_email',
      ruleId: 'validation.mx',
      message: 'gmial.con has no MX record and cannot receive email (did you mean ann@gmail.com?)',
    });
  });

  it('accepts with a warning when DNS is unavailable', () => {
    const verdict = run({ mx: { status: 'unavailable', reason: 'ETIMEOUT' } });
    expect(verdict).toMatchObject({
      outcome: 'accepted',
      flags: [],
      warnings: [{ field: 'email', message: 'The domain example.edu could not be verified (DNS unavailable)' }],
    });
  });

  it('ignores the MX answer when the organization turned the check off', () => {
    expect(run({ mx: { status: 'none' }, settings: { mx_check: false } }).outcome).toBe('accepted');
  });

  it('flags a typo with a suggestion but accepts the lead', () => {
    const verdict = run({ submission: { email: 'ann@gmial.com' } });
    expect(verdict).toMatchObject({
      outcome: 'accepted',
      lead: { email: 'ann@gmial.com' },
      flags: ['email_typo'],
      warnings: [{ field: 'email', message: 'Did you mean ann@gmail.com?' }],
    });
  });
});
