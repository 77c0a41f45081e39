import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateConditions, evaluateLeaf, LEAF_OPERATORS, type ConditionGroup, type ConditionLeaf, type LeafOperator } from './condition';

const lead = {
  email: 'Ann.Lee@College.edu',
  first_name: 'Ann',
  source: ' Google ',
  status: 'new',
  custom_fields: { gpa: 3.5, zip: '90210', tags: ['honors', 'athlete'], start: '2026-09-01', gpa_text: '3.50' },
  enrichment_data: { state: 'CA' },
};

const leaf = (field: string, operator: LeafOperator, value?: unknown): ConditionLeaf => (value === undefined ? { field, operator } : { field, operator, value });

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
    expect(evaluateLeaf(leaf('custom_fields.notes', 'matches_regex', 'a$'), { custom_fields: { notes: 'a'.repeat(10_000) } })).toBe(true);
    expect(evaluateLeaf(leaf('custom_fields.notes', 'matches_regex', 'a$'), { custom_fields: { notes: 'a'.repeat(20_000) } })).toBe(false);
  });

  it('keeps matching after many organizations\' patterns: compiled patterns are freed, so the shared regex heap does not fill', () => {
    // Each of these held about 24 KB of re2-wasm's fixed 16 MB heap until the process ended: the 681st failed.
    const letters = 'abcdefghijklmnopqrstuvwxyz'.repeat(4);
    const failed: number[] = [];
    for (let index = 0; index < 1_000; index++) {
      if (!evaluateLeaf(leaf('first_name', 'matches_regex', `[a-z]{0,50}x${index}$`), { first_name: `${letters}x${index}` })) failed.push(index);
    }
    expect(failed).toEqual([]);
  });
});

describe('groups', () => {
  it('nests AND and OR', () => {
    const group: ConditionGroup = {
      operator: 'AND',
      rules: [leaf('custom_fields.gpa', 'greater_than_or_equal', 3.5), { operator: 'OR', rules: [leaf('enrichment_data.state', 'equals', 'NY'), leaf('custom_fields.zip', 'starts_with', '9')] }],
    };
    expect(evaluateConditions(group, lead)).toBe(true);
    expect(evaluateConditions({ ...group, rules: [...group.rules, leaf('first_name', 'equals', 'Bob')] }, lead)).toBe(false);
  });
});

const subjects = fc.record(
  {
    email: fc.oneof(fc.string(), fc.emailAddress()),
    first_name: fc.oneof(fc.string(), fc.constant(null)),
    custom_fields: fc.dictionary(fc.constantFrom('gpa', 'zip', 'tags', 'start'), fc.oneof(fc.string(), fc.double({ noNaN: true }), fc.integer(), fc.boolean(), fc.array(fc.string()), fc.constant(null), fc.date({ noInvalidDate: true }).map((date) => date.toISOString()))),
  },
  { requiredKeys: [] },
);
const fields = fc.constantFrom('email', 'first_name', 'custom_fields.gpa', 'custom_fields.zip', 'custom_fields.tags', 'custom_fields.start', 'custom_fields.none');
const values = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const leaves = fc.record({ field: fields, operator: fc.constantFrom(...LEAF_OPERATORS), value: fc.oneof(values, fc.array(values, { minLength: 1 })) });

describe('properties', () => {
  it('never throws on any subject and any leaf', () => {
    fc.assert(
      fc.property(subjects, leaves, (subject, condition) => {
        evaluateLeaf(condition, subject);
      }),
    );
  });

  it('gives complementary answers for each negated pair', () => {
    const pairs: Array<[LeafOperator, LeafOperator]> = [['equals', 'not_equals'], ['contains', 'not_contains'], ['in', 'not_in'], ['is_empty', 'is_not_empty']];
    fc.assert(
      fc.property(subjects, fields, fc.oneof(values, fc.array(values, { minLength: 1 })), fc.constantFrom(...pairs), (subject, field, value, [positive, negative]) => {
        expect(evaluateLeaf({ field, operator: positive, value }, subject)).toBe(!evaluateLeaf({ field, operator: negative, value }, subject));
      }),
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
