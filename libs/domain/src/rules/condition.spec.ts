import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conditionOutcome,
  evaluateConditions,
  evaluateLeaf,
  LEAF_OPERATORS,
  type ConditionGroup,
  type ConditionLeaf,
  type LeafOperator,
} from './condition';

const lead = {
  email: 'Ann.Lee@College.edu',
  first_name: 'Ann',
  source: ' Google ',
  status: 'new',
  custom_fields: { gpa: 3.5, zip: '90210', tags: ['honors', 'athlete'], start: '2026-09-01', gpa_text: '3.50' },
  enrichment_data: { state: 'CA' },
};

const leaf = (field: string, operator: LeafOperator, value?: unknown): ConditionLeaf =>
  value === undefined ? { field, operator } : { field, operator, value };

describe('leaf operators', () => {
  it.each([
    [leaf('email', 'equals', 'ann.lee@college.edu'), true],
    [leaf('source', 'equals', 'google'), true],
    [leaf('custom_fields.gpa_text', 'equals', 3.5), true],
    [leaf('first_name', 'not_equals', 'Bob'), true],
    [leaf('email', 'contains', 'COLLEGE'), true],
    [leaf('custom_fields.tags', 'contains', 'Honors'), true],
    [leaf('email', 'not_contains', 'gmail'), true],
    [leaf('email', 'starts_with', 'ann.'), true],
    [leaf('email', 'ends_with', '.EDU'), true],
    [leaf('last_name', 'is_empty'), true],
    [leaf('custom_fields.tags', 'is_not_empty'), true],
    [leaf('custom_fields.gpa', 'greater_than', 3), true],
    [leaf('custom_fields.gpa_text', 'greater_than_or_equal', '3.5'), true],
    [leaf('custom_fields.gpa', 'less_than', 3.5), false],
    [leaf('custom_fields.gpa', 'less_than_or_equal', 3.5), true],
    [leaf('custom_fields.start', 'greater_than', '2026-08-31T23:00:00Z'), true],
    [leaf('custom_fields.start', 'less_than', '2026-01-01'), false],
    [leaf('enrichment_data.state', 'in', ['ny', 'ca']), true],
    [leaf('enrichment_data.state', 'not_in', ['ny', 'ca']), false],
    [leaf('custom_fields.zip', 'matches_regex', '^9\\d{4}$'), true],
    [leaf('first_name', 'greater_than', 3), false],
    [leaf('custom_fields.missing', 'equals', 'x'), false],
    [leaf('custom_fields.missing', 'not_equals', 'x'), true],
  ])('%j → %s', (condition, expected) => {
    expect(evaluateLeaf(condition, lead)).toBe(expected);
  });

  it('runs regular expressions on RE2, so catastrophic patterns cannot stall', () => {
    const subject = { first_name: `${'a'.repeat(9_999)}!` };
    expect(evaluateLeaf(leaf('first_name', 'matches_regex', '^(a+)+$'), subject)).toBe(false);
  });

  it('never compiles a stored pattern beyond the limits, and does not match a value longer than the matcher takes', () => {
    // Saved before the limits existed: it would match, but it is not run at all.
    expect(evaluateLeaf(leaf('first_name', 'matches_regex', '.{0,600}'), { first_name: 'Ann' })).toBe(false);
    expect(
      evaluateLeaf(leaf('custom_fields.notes', 'matches_regex', 'a$'), {
        custom_fields: { notes: 'a'.repeat(10_000) },
      }),
    ).toBe(true);
    expect(
      evaluateLeaf(leaf('custom_fields.notes', 'matches_regex', 'a$'), {
        custom_fields: { notes: 'a'.repeat(20_000) },
      }),
    ).toBe(false);
  });

  it("keeps matching after many organizations' patterns: compiled patterns are freed, so the shared regex heap does not fill", () => {
    // Each of these held about 24 KB of re2-wasm's fixed 16 MB heap until the process ended: the 681st failed.
    const letters = 'abcdefghijklmnopqrstuvwxyz'.repeat(4);
    const failed: number[] = [];
    for (let index = 0; index < 1_000; index++) {
      if (
        !evaluateLeaf(leaf('first_name', 'matches_regex', `[a-z]{0,50}x${index}$`), {
          first_name: `${letters}x${index}`,
        })
      )
        failed.push(index);
    }
    expect(failed).toEqual([]);
  });
});

describe('groups', () => {
  it('nests AND and OR', () => {
    const group: ConditionGroup = {
      operator: 'AND',
      rules: [
        leaf('custom_fields.gpa', 'greater_than_or_equal', 3.5),
        {
          operator: 'OR',
          rules: [leaf('enrichment_data.state', 'equals', 'NY'), leaf('custom_fields.zip', 'starts_with', '9')],
        },
      ],
    };
    expect(evaluateConditions(group, lead)).toBe(true);
    expect(evaluateConditions({ ...group, rules: [...group.rules, leaf('first_name', 'equals', 'Bob')] }, lead)).toBe(
      false,
    );
  });
});

describe('conditions that cannot be evaluated (match, no match, cannot evaluate)', () => {
  const group = (...rules: Array<ConditionLeaf | ConditionGroup>): ConditionGroup => ({ operator: 'AND', rules });
  const cannot = (error: string) => ({ kind: 'cannot_evaluate', error });

  it('answers match and no match as evaluateConditions does', () => {
    expect(
      conditionOutcome(
        group(leaf('enrichment_data.state', 'equals', 'CA'), leaf('custom_fields.zip', 'matches_regex', '^9')),
        lead,
      ),
    ).toEqual({ kind: 'match' });
    expect(conditionOutcome(group(leaf('first_name', 'equals', 'Bob')), lead)).toEqual({ kind: 'no_match' });
  });

  it('names a pattern it cannot run (beyond the limits, invalid, a value too long to match) instead of calling it no match', () => {
    // Saved before the limits existed.
    expect(conditionOutcome(group(leaf('first_name', 'matches_regex', '.{0,600}')), { first_name: 'Ann' })).toEqual(
      cannot('conditions.rules[0].value: pattern too costly: counted repetitions add up to 600 (at most 500)'),
    );
    // Corrupt in the store: it could never be saved through the API.
    expect(conditionOutcome(group(leaf('first_name', 'matches_regex', '([a-z')), { first_name: 'Ann' })).toEqual(
      cannot('conditions.rules[0].value: invalid regular expression: missing ]: [a-z'),
    );
    expect(
      conditionOutcome(group(leaf('custom_fields.notes', 'matches_regex', 'a$')), {
        custom_fields: { notes: 'a'.repeat(20_000) },
      }),
    ).toEqual(
      cannot(
        'conditions.rules[0].field: custom_fields.notes holds 20000 characters, more than a pattern is matched against (10000)',
      ),
    );
    expect(
      conditionOutcome(group(leaf('custom_fields.notes', 'matches_regex', 'a$')), {
        custom_fields: { notes: 'a'.repeat(10_000) },
      }),
    ).toEqual({ kind: 'match' });
  });

  it('names what is wrong with a corrupt stored condition: its field, operator, value or group', () => {
    const outcome = (conditions: unknown) => conditionOutcome(conditions as ConditionGroup, lead);
    expect(outcome(group(leaf('nickname', 'equals', 'x')))).toEqual(
      cannot('conditions.rules[0].field: nickname is not a lead field'),
    );
    // A calculated field may be read by its bare name, while it exists.
    expect(
      conditionOutcome(group(leaf('gpa_band', 'equals', 'high')), {
        ...lead,
        gpa_band: 'high',
        calculated_fields: { gpa_band: 'high' },
      }),
    ).toEqual({ kind: 'match' });
    expect(conditionOutcome(group(leaf('gpa_band', 'equals', 'high')), { ...lead, calculated_fields: {} })).toEqual(
      cannot('conditions.rules[0].field: gpa_band is not a lead field'),
    );
    expect(outcome(group({ field: 'email', operator: 'bigger', value: 1 } as unknown as ConditionLeaf))).toEqual(
      cannot(`conditions.rules[0].operator: unknown operator "bigger"; one of ${LEAF_OPERATORS.join(', ')}`),
    );
    expect(outcome(group(leaf('email', 'not_in', 'a@b.edu')))).toEqual(
      cannot('conditions.rules[0].value: not_in needs a list of strings, numbers or booleans'),
    );
    expect(outcome(group(leaf('custom_fields.gpa', 'greater_than', 'high')))).toEqual(
      cannot('conditions.rules[0].value: greater_than needs a number or an ISO 8601 date'),
    );
    expect(outcome(group(leaf('email', 'equals', { a: 1 })))).toEqual(
      cannot('conditions.rules[0].value: equals needs a value (text, number, boolean or null)'),
    );
    expect(outcome({ operator: 'XOR', rules: [leaf('email', 'is_empty')] })).toEqual(
      cannot('conditions.operator: operator must be AND or OR'),
    );
    expect(outcome({ operator: 'AND', rules: [{ operator: 'OR' }] })).toEqual(
      cannot('conditions.rules[0].rules: a group lists its conditions in rules'),
    );
    expect(outcome(null)).toEqual(cannot('conditions: not a condition group {operator, rules}'));
    expect(outcome({ operator: 'AND', rules: [7] })).toEqual(
      cannot('conditions.rules[0]: not a condition {field, operator, value} or a group {operator, rules}'),
    );
    // A member of a nested group, after members that were evaluated: its own place in each group.
    const nested = {
      operator: 'OR',
      rules: [
        leaf('email', 'equals', 'nobody@example.edu'),
        { operator: 'AND', rules: [leaf('email', 'is_not_empty'), leaf('email', 'starts_with', ['x'])] },
      ],
    };
    expect(outcome(nested)).toEqual(
      cannot('conditions.rules[1].rules[1].value: starts_with needs a value (text, number, boolean or null)'),
    );
    expect(outcome(nested)).toEqual(outcome(nested));
  });

  it('does not throw on conditions nested beyond any stack', () => {
    let deep: ConditionLeaf | ConditionGroup = leaf('email', 'is_not_empty');
    for (let level = 0; level < 100_000; level++) deep = { operator: 'AND', rules: [deep] };
    const outcome = conditionOutcome(deep as ConditionGroup, lead);
    expect(outcome).toMatchObject({
      kind: 'cannot_evaluate',
      error: expect.stringContaining('conditions cannot be evaluated'),
    });
  });

  it('decides a group by a member that settles it: AND with a false member, OR with a true one', () => {
    const unknown = leaf('first_name', 'matches_regex', '.{0,600}');
    expect(conditionOutcome({ operator: 'AND', rules: [unknown, leaf('first_name', 'equals', 'Bob')] }, lead)).toEqual({
      kind: 'no_match',
    });
    expect(
      conditionOutcome({ operator: 'AND', rules: [unknown, leaf('first_name', 'equals', 'Ann')] }, lead),
    ).toMatchObject({ kind: 'cannot_evaluate' });
    expect(conditionOutcome({ operator: 'OR', rules: [unknown, leaf('first_name', 'equals', 'Ann')] }, lead)).toEqual({
      kind: 'match',
    });
    expect(
      conditionOutcome(
        { operator: 'OR', rules: [leaf('first_name', 'equals', 'Bob'), { operator: 'AND', rules: [unknown] }] },
        lead,
      ),
    ).toEqual(
      cannot('conditions.rules[1].rules[0].value: pattern too costly: counted repetitions add up to 600 (at most 500)'),
    );
  });
});

const subjects = fc.record(
  {
    email: fc.oneof(fc.string(), fc.emailAddress()),
    first_name: fc.oneof(fc.string(), fc.constant(null)),
    custom_fields: fc.dictionary(
      fc.constantFrom('gpa', 'zip', 'tags', 'start'),
      fc.oneof(
        fc.string(),
        fc.double({ noNaN: true }),
        fc.integer(),
        fc.boolean(),
        fc.array(fc.string()),
        fc.constant(null),
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      ),
    ),
  },
  { requiredKeys: [] },
);
const fields = fc.constantFrom(
  'email',
  'first_name',
  'custom_fields.gpa',
  'custom_fields.zip',
  'custom_fields.tags',
  'custom_fields.start',
  'custom_fields.none',
);
const values = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const leaves = fc.record({
  field: fields,
  operator: fc.constantFrom(...LEAF_OPERATORS),
  value: fc.oneof(values, fc.array(values, { minLength: 1 })),
});

describe('properties', () => {
  it('never throws on any subject and any leaf', () => {
    fc.assert(
      fc.property(subjects, leaves, (subject, condition) => {
        evaluateLeaf(condition, subject);
      }),
    );
  });

  it('never throws, and agrees with evaluateConditions whenever it can evaluate', () => {
    fc.assert(
      fc.property(subjects, leaves, leaves, fc.constantFrom<'AND' | 'OR'>('AND', 'OR'), (subject, a, b, operator) => {
        const group = { operator, rules: [a as ConditionLeaf, b as ConditionLeaf] };
        const outcome = conditionOutcome(group, subject);
        if (outcome.kind !== 'cannot_evaluate')
          expect(outcome.kind).toBe(evaluateConditions(group, subject) ? 'match' : 'no_match');
      }),
    );
  });

  it('gives complementary answers for each negated pair', () => {
    const pairs: Array<[LeafOperator, LeafOperator]> = [
      ['equals', 'not_equals'],
      ['contains', 'not_contains'],
      ['in', 'not_in'],
      ['is_empty', 'is_not_empty'],
    ];
    fc.assert(
      fc.property(
        subjects,
        fields,
        fc.oneof(values, fc.array(values, { minLength: 1 })),
        fc.constantFrom(...pairs),
        (subject, field, value, [positive, negative]) => {
          expect(evaluateLeaf({ field, operator: positive, value }, subject)).toBe(
            !evaluateLeaf({ field, operator: negative, value }, subject),
          );
        },
      ),
    );
  });

  it('treats a group of one leaf as the leaf, and follows De Morgan', () => {
    fc.assert(
      fc.property(subjects, leaves, leaves, (subject, a, b) => {
        const x = a as ConditionLeaf;
        const y = b as ConditionLeaf;
        expect(evaluateConditions({ operator: 'AND', rules: [x] }, subject)).toBe(evaluateLeaf(x, subject));
        expect(evaluateConditions({ operator: 'OR', rules: [x] }, subject)).toBe(evaluateLeaf(x, subject));
        const and = evaluateConditions({ operator: 'AND', rules: [x, y] }, subject);
        const or = evaluateConditions({ operator: 'OR', rules: [x, y] }, subject);
        expect(and).toBe(evaluateLeaf(x, subject) && evaluateLeaf(y, subject));
        expect(or).toBe(evaluateLeaf(x, subject) || evaluateLeaf(y, subject));
      }),
    );
  });
});
