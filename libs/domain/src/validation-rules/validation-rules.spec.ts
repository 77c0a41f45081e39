import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VALIDATION_SETTINGS } from '../organization-settings';
import { validateWithRules } from '../validation/validate-with-rules';
import { applyValidationRules } from './apply-validation-rules';
import {
  parseValidationRuleCreate,
  parseValidationRulePatch,
  validationFieldProblem,
  type ValidationRule,
  type ValidationRuleSettings,
} from './validation-rule';

const at = '2026-11-24T00:00:00.000Z';
let next = 0;
function rule(
  settings: Partial<ValidationRuleSettings> & Pick<ValidationRuleSettings, 'field' | 'rule_type' | 'condition'>,
): ValidationRule {
  next++;
  return {
    id: `vrule_${next}`,
    name: `Rule ${next}`,
    value: null,
    action: 'reject',
    message: `rule ${next} fired`,
    priority: 10,
    enabled: true,
    created_at: at,
    updated_at: at,
    ...settings,
  };
}

function outcome(rules: ValidationRule[], submission: Record<string, unknown>) {
  const result = applyValidationRules(rules, submission);
  return {
    errors: result.errors.map((e) => e.rule_id),
    warnings: result.warnings.map((w) => w.rule_id),
    flags: result.flags.map((f) => f.rule_id),
    valid: result.valid,
  };
}

describe('rule types', () => {
  it.each([
    [rule({ field: 'phone', rule_type: 'required', condition: 'present' }), { email: 'a@b.edu' }, false],
    [
      rule({ field: 'phone', rule_type: 'required', condition: 'present' }),
      { email: 'a@b.edu', phone: '+14155552671' },
      true,
    ],
    [
      rule({ field: 'custom_fields.zip', rule_type: 'format', condition: 'matches', value: '^\\d{5}$' }),
      { custom_fields: { zip: '9021' } },
      false,
    ],
    [
      rule({ field: 'custom_fields.zip', rule_type: 'format', condition: 'not_matches', value: '^0' }),
      { custom_fields: { zip: '01234' } },
      false,
    ],
    [rule({ field: 'referrer', rule_type: 'format', condition: 'is_url' }), { referrer: 'not a url' }, false],
    [
      rule({ field: 'custom_fields.start', rule_type: 'format', condition: 'is_date' }),
      { custom_fields: { start: '2026-09-01' } },
      true,
    ],
    [
      rule({ field: 'first_name', rule_type: 'length', condition: 'between', value: [2, 5] }),
      { first_name: 'Alexandra' },
      false,
    ],
    [rule({ field: 'first_name', rule_type: 'length', condition: 'min', value: 2 }), { first_name: 'Al' }, true],
    [
      rule({ field: 'custom_fields.gpa', rule_type: 'range', condition: 'between', value: [0, 4] }),
      { custom_fields: { gpa: 4.3 } },
      false,
    ],
    [
      rule({ field: 'custom_fields.start', rule_type: 'range', condition: 'min', value: '2026-01-01' }),
      { custom_fields: { start: '2025-12-31' } },
      false,
    ],
    [
      rule({ field: 'utm_source', rule_type: 'whitelist', condition: 'in', value: ['google', 'facebook'] }),
      { utm_source: 'Google' },
      true,
    ],
    [
      rule({ field: 'utm_source', rule_type: 'blacklist', condition: 'not_in', value: ['spam'] }),
      { utm_source: 'SPAM' },
      false,
    ],
    [
      rule({ field: 'first_name', rule_type: 'blacklist', condition: 'contains_any', value: ['test', 'asdf'] }),
      { first_name: 'Testy' },
      false,
    ],
    [
      rule({
        field: 'custom_fields.grad_year',
        rule_type: 'comparison',
        condition: 'greater_than',
        value: { field: 'custom_fields.birth_year' },
      }),
      { custom_fields: { grad_year: 1999, birth_year: 2001 } },
      false,
    ],
    [
      rule({ field: 'custom_fields.start', rule_type: 'comparison', condition: 'after', value: '2026-01-01' }),
      { custom_fields: { start: '2026-09-01' } },
      true,
    ],
  ])('%#: passes = %s', (validationRule, submission, passes) => {
    expect(outcome([validationRule], submission).valid).toBe(passes);
  });

  it('skips an absent field unless the rule is required', () => {
    expect(
      outcome([rule({ field: 'custom_fields.zip', rule_type: 'format', condition: 'matches', value: '^\\d{5}$' })], {})
        .valid,
    ).toBe(true);
  });
});

describe('actions and order', () => {
  it('rejects, flags and warns, every rule evaluated in priority order', () => {
    const warn = rule({
      field: 'first_name',
      rule_type: 'length',
      condition: 'min',
      value: 3,
      action: 'warn',
      priority: 1,
    });
    const flag = rule({
      field: 'utm_source',
      rule_type: 'whitelist',
      condition: 'in',
      value: ['google'],
      action: 'flag',
      priority: 2,
    });
    const rejectLater = rule({ field: 'phone', rule_type: 'required', condition: 'present', priority: 5 });
    const rejectFirst = rule({ field: 'custom_fields.zip', rule_type: 'required', condition: 'present', priority: 3 });
    expect(outcome([rejectLater, flag, warn, rejectFirst], { first_name: 'Al', utm_source: 'bing' })).toEqual({
      errors: [rejectFirst.id, rejectLater.id],
      warnings: [warn.id],
      flags: [flag.id],
      valid: false,
    });
  });

  it('transforms when the check holds, and later rules see the change; disabled rules do not run', () => {
    const lower = rule({
      field: 'utm_source',
      rule_type: 'format',
      condition: 'matches',
      value: '[A-Z]',
      action: 'transform',
      transform: 'lowercase',
      priority: 1,
    });
    const allowed = rule({
      field: 'utm_source',
      rule_type: 'whitelist',
      condition: 'in',
      value: ['google'],
      priority: 2,
    });
    const off = rule({ field: 'email', rule_type: 'required', condition: 'present', enabled: false });
    const result = applyValidationRules([allowed, lower, off], { utm_source: 'GOOGLE' });
    expect(result.submission).toEqual({ utm_source: 'google' });
    expect(result.valid).toBe(true);
    expect(result.applied).toEqual([lower.id, allowed.id]);
    expect(
      applyValidationRules(
        [
          rule({
            field: 'phone',
            rule_type: 'format',
            condition: 'is_phone',
            action: 'transform',
            transform: 'digits_only',
          }),
        ],
        { phone: '(415) 555-2671' },
      ).submission,
    ).toEqual({ phone: '4155552671' });
  });

  it('cannot be stalled by a catastrophic pattern', () => {
    expect(
      outcome([rule({ field: 'first_name', rule_type: 'format', condition: 'matches', value: '^(a+)+$' })], {
        first_name: `${'a'.repeat(9_999)}!`,
      }).valid,
    ).toBe(false);
  });

  it('flags a stored pattern beyond the limits for review (it cannot run), and fails a value too long to match', () => {
    // Saved before the limits existed: never compiled now, so nobody knows whether the rule fires.
    const costly = rule({ field: 'first_name', rule_type: 'format', condition: 'not_matches', value: '.{0,600}' });
    expect(outcome([costly], { first_name: 'Ann' })).toEqual({ errors: [], warnings: [], flags: [], valid: true });
    expect(applyValidationRules([costly], { first_name: 'Ann' }).unevaluable).toEqual([
      {
        rule_id: costly.id,
        rule_name: costly.name,
        field: 'first_name',
        error: 'value: pattern too costly: counted repetitions add up to 600 (at most 500)',
      },
    ]);
    // A custom field may hold 64 KB; beyond MAX_MATCHED_INPUT_LENGTH the value fails a format check instead of slipping past it.
    const digits = rule({ field: 'custom_fields.code', rule_type: 'format', condition: 'matches', value: '^\\d+$' });
    expect(outcome([digits], { custom_fields: { code: '1'.repeat(20_000) } })).toEqual({
      errors: [digits.id],
      warnings: [],
      flags: [],
      valid: false,
    });
    expect(outcome([digits], { custom_fields: { code: '1'.repeat(9_000) } }).valid).toBe(true);
  });
});

describe('rules that cannot be evaluated', () => {
  it('lists a rule whose check cannot run with its name and error, instead of letting the submission pass it', () => {
    const corrupt: ValidationRule[] = [
      rule({ name: 'Allowed sources', field: 'utm_source', rule_type: 'whitelist', condition: 'in', value: 'google' }),
      rule({
        name: 'Gone type',
        field: 'utm_source',
        rule_type: 'checksum' as ValidationRule['rule_type'],
        condition: 'luhn',
      }),
      rule({ name: 'Bad pattern', field: 'first_name', rule_type: 'format', condition: 'matches', value: '([a-z' }),
      rule({ name: 'Length', field: 'first_name', rule_type: 'length', condition: 'between', value: 3 }),
      rule({ name: 'Nickname', field: 'nickname', rule_type: 'required', condition: 'present' }),
    ];
    const result = applyValidationRules(corrupt, { first_name: 'Ann', utm_source: 'spam' });
    expect(result.unevaluable).toEqual([
      {
        rule_id: corrupt[0]!.id,
        rule_name: 'Allowed sources',
        field: 'utm_source',
        error: 'value: value must be a list of 1-1000 strings or numbers',
      },
      {
        rule_id: corrupt[1]!.id,
        rule_name: 'Gone type',
        field: 'utm_source',
        error: 'rule_type: unknown rule type "checksum"',
      },
      {
        rule_id: corrupt[2]!.id,
        rule_name: 'Bad pattern',
        field: 'first_name',
        error: 'value: invalid regular expression: missing ]: [a-z',
      },
      { rule_id: corrupt[3]!.id, rule_name: 'Length', field: 'first_name', error: 'value: between needs [min, max]' },
      {
        rule_id: corrupt[4]!.id,
        rule_name: 'Nickname',
        field: 'nickname',
        error: `field: ${validationFieldProblem('nickname')}`,
      },
    ]);
    // Neither refused nor passed silently: the lead goes on, for review.
    expect(result).toMatchObject({ valid: true, errors: [], warnings: [], flags: [] });
  });

  it('applies no transform of a rule that cannot be evaluated, and keeps evaluating the others', () => {
    const broken = rule({
      field: 'utm_source',
      rule_type: 'format',
      condition: 'matches',
      value: '.{0,600}',
      action: 'transform',
      transform: 'lowercase',
      priority: 1,
    });
    const short = rule({ field: 'first_name', rule_type: 'length', condition: 'min', value: 5, priority: 2 });
    const result = applyValidationRules([broken, short], { first_name: 'Ann', utm_source: 'GOOGLE' });
    expect(result.submission).toEqual({ first_name: 'Ann', utm_source: 'GOOGLE' });
    expect(result.unevaluable.map((entry) => entry.rule_id)).toEqual([broken.id]);
    expect(result.errors.map((error) => error.rule_id)).toEqual([short.id]);
  });

  it('accepts the lead for manual review, the review flag naming the rule and its error (the validate stage and POST /api/validation/check)', () => {
    const broken = rule({
      name: 'Allowed sources',
      field: 'utm_source',
      rule_type: 'whitelist',
      condition: 'in',
      value: 'google',
      action: 'reject',
    });
    const { verdict, check } = validateWithRules({
      submission: { email: 'ann@college.edu', utm_source: 'spam' },
      settings: DEFAULT_VALIDATION_SETTINGS,
      customFields: [],
      rules: [broken],
      mx: undefined,
      now: new Date(at),
    });
    const error = 'value: value must be a list of 1-1000 strings or numbers';
    expect(verdict).toMatchObject({
      outcome: 'accepted',
      flags: ['manual_review'],
      reviewFlags: [
        {
          rule_id: broken.id,
          rule_name: 'Allowed sources',
          reason: `rule "Allowed sources" cannot be evaluated: ${error}`,
          severity: 'high',
          error,
        },
      ],
    });
    expect(check).toEqual({
      valid: true,
      errors: [],
      warnings: [
        {
          field: 'utm_source',
          rule_id: broken.id,
          message: `flagged for review: rule "Allowed sources" cannot be evaluated: ${error}`,
        },
      ],
    });
    // Another rule refusing the lead wins; the rule that could not be evaluated is still reported (for the stage's log).
    const short = rule({ field: 'first_name', rule_type: 'length', condition: 'min', value: 5 });
    const refused = validateWithRules({
      submission: { email: 'ann@college.edu', first_name: 'Ann', utm_source: 'spam' },
      settings: DEFAULT_VALIDATION_SETTINGS,
      customFields: [],
      rules: [broken, short],
      mx: undefined,
      now: new Date(at),
    });
    expect(refused.verdict).toMatchObject({ outcome: 'rejected', reason: 'failed_custom_rule', ruleId: short.id });
    expect(refused.unevaluable).toEqual([{ rule_id: broken.id, rule_name: 'Allowed sources', error }]);
  });
});

describe('parsing rules', () => {
  it('takes a rule with defaults and names every problem', () => {
    expect(
      parseValidationRuleCreate({
        name: 'Zip',
        field: 'custom_fields.zip',
        rule_type: 'format',
        condition: 'matches',
        value: '^\\d{5}$',
        action: 'reject',
        message: 'zip must have 5 digits',
      }),
    ).toEqual({
      ok: true,
      value: {
        name: 'Zip',
        field: 'custom_fields.zip',
        rule_type: 'format',
        condition: 'matches',
        value: '^\\d{5}$',
        action: 'reject',
        message: 'zip must have 5 digits',
        priority: 100,
        enabled: true,
      },
    });
    const bad = parseValidationRuleCreate({
      name: 'x',
      field: 'password',
      rule_type: 'format',
      condition: 'between',
      action: 'explode',
      message: '',
      priority: 1.5,
      extra: 1,
    });
    expect(bad.ok ? [] : bad.details.map((detail) => detail.field)).toEqual([
      'extra',
      'field',
      'condition',
      'action',
      'message',
      'priority',
    ]);
    const regex = parseValidationRuleCreate({
      name: 'x',
      field: 'email',
      rule_type: 'format',
      condition: 'matches',
      value: '([',
      action: 'reject',
      message: 'm',
    });
    expect(regex.ok ? [] : regex.details).toEqual([
      { field: 'value', message: 'invalid regular expression: missing ]: [' },
    ]);
    const costly = parseValidationRuleCreate({
      name: 'x',
      field: 'first_name',
      rule_type: 'format',
      condition: 'matches',
      value: '[a-z]{0,1000}[a-z]{0,1000}[a-z]{0,1000}m$',
      action: 'reject',
      message: 'm',
    });
    expect(costly.ok ? [] : costly.details).toEqual([
      { field: 'value', message: 'pattern too costly: counted repetitions add up to 3000 (at most 500)' },
    ]);
    const transform = parseValidationRuleCreate({
      name: 'x',
      field: 'email',
      rule_type: 'format',
      condition: 'is_email',
      action: 'transform',
      message: 'm',
    });
    expect(transform.ok ? [] : transform.details.map((detail) => detail.field)).toEqual(['transform']);
  });

  it('patches over the current rule', () => {
    const current = parseValidationRuleCreate({
      name: 'Short',
      field: 'first_name',
      rule_type: 'length',
      condition: 'min',
      value: 2,
      action: 'warn',
      message: 'short',
    });
    if (!current.ok) throw new Error('refused');
    expect(parseValidationRulePatch({ value: 3, priority: 1 }, current.value)).toEqual({
      ok: true,
      value: { ...current.value, value: 3, priority: 1 },
    });
    expect(parseValidationRulePatch({ condition: 'in' }, current.value).ok).toBe(false);
  });

  it('never throws on arbitrary bodies, and parsed rules never throw on arbitrary submissions', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (body) => {
        const parsed = parseValidationRuleCreate(body);
        expect(parsed.ok || parsed.details.length > 0).toBe(true);
      }),
    );
    const rules = [
      rule({ field: 'first_name', rule_type: 'length', condition: 'between', value: [1, 3] }),
      rule({
        field: 'custom_fields.x',
        rule_type: 'comparison',
        condition: 'before',
        value: { field: 'custom_fields.y' },
      }),
      rule({ field: 'utm_source', rule_type: 'blacklist', condition: 'contains_any', value: ['a'] }),
      rule({ field: 'phone', rule_type: 'format', condition: 'is_phone', action: 'transform', transform: 'titlecase' }),
    ];
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom('first_name', 'utm_source', 'phone', 'custom_fields'),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        (submission) => {
          applyValidationRules(rules, submission);
        },
      ),
    );
  });
});
