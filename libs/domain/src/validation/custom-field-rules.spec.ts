import { describe, expect, it } from 'vitest';
import { applyCustomFieldDefaults, checkCustomFields, type CustomFieldDefinition } from './custom-fields';
import { parseCustomFieldCreate } from './custom-field-definition';

const fields: CustomFieldDefinition[] = [
  { name: 'student_id', type: 'string', required: false, validation: { pattern: '^[A-Z]{2}\\d{6}$' } },
  { name: 'gpa', type: 'number', required: false, validation: { min: 0, max: 4 } },
  { name: 'term', type: 'string', required: true, default_value: 'fall', validation: { enum: ['fall', 'spring'] } },
];

describe('custom field validation rules', () => {
  it('checks pattern (RE2), min/max and enum, naming the field', () => {
    expect(checkCustomFields({ student_id: 'AB123456', gpa: 4, term: 'spring' }, fields)).toEqual([]);
    expect(
      checkCustomFields({ student_id: 'ab1', gpa: -1, term: 'summer' }, fields).map((problem) => problem.field),
    ).toEqual(['custom_fields.student_id', 'custom_fields.gpa', 'custom_fields.term']);
  });

  it('runs a pattern that backtracks catastrophically in JavaScript in linear time', () => {
    const evil: CustomFieldDefinition[] = [
      { name: 'x', type: 'string', required: false, validation: { pattern: '^(a+)+$' } },
    ];
    const started = Date.now();
    expect(checkCustomFields({ x: `${'a'.repeat(9_999)}!` }, evil)).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses a value too long to match against the pattern rather than let it skip the check', () => {
    const digits: CustomFieldDefinition[] = [
      { name: 'code', type: 'string', required: false, validation: { pattern: '^\\d+$' } },
    ];
    expect(checkCustomFields({ code: '1'.repeat(10_000) }, digits)).toEqual([]);
    expect(checkCustomFields({ code: '1'.repeat(20_000) }, digits)).toEqual([
      {
        field: 'custom_fields.code',
        message: "cannot be checked against the field's pattern: longer than 10000 characters",
        missing: false,
      },
    ]);
  });

  it("refuses a pattern too costly to compile, and names a syntax error with RE2's short reason", () => {
    const costly = parseCustomFieldCreate({
      name: 'code',
      type: 'string',
      validation: { pattern: '[a-z]{0,1000}[a-z]{0,1000}[a-z]{0,1000}m$' },
    });
    expect(costly.ok ? [] : costly.details).toEqual([
      { field: 'validation.pattern', message: 'pattern too costly: counted repetitions add up to 3000 (at most 500)' },
    ]);
    const broken = parseCustomFieldCreate({ name: 'code', type: 'string', validation: { pattern: '([a-z' } });
    expect(broken.ok ? [] : broken.details).toEqual([
      { field: 'validation.pattern', message: 'invalid regular expression: missing ]: [a-z' },
    ]);
  });

  it('fills defaults for absent fields only', () => {
    expect(applyCustomFieldDefaults(undefined, fields)).toEqual({ term: 'fall' });
    expect(applyCustomFieldDefaults({ term: 'spring' }, fields)).toEqual({ term: 'spring' });
    expect(applyCustomFieldDefaults({ term: null }, fields)).toEqual({ term: null });
  });

  it('checks only the given keys of a partial update, and never lets a required field be cleared', () => {
    expect(checkCustomFields({ gpa: 3 }, fields, { onlyGiven: true })).toEqual([]);
    expect(checkCustomFields({ term: null }, fields, { onlyGiven: true }).map((problem) => problem.field)).toEqual([
      'custom_fields.term',
    ]);
  });

  it('refuses definitions RE2 cannot compile, such as backreferences', () => {
    const parsed = parseCustomFieldCreate({ name: 'code', type: 'string', validation: { pattern: '(a)\\1' } });
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.details.map((detail) => detail.field)).toEqual(['validation.pattern']);
    expect(parseCustomFieldCreate({ name: 'code', type: 'string', validation: { pattern: '^[a-z]+$' } }).ok).toBe(true);
  });

  it('refuses a default value a lead could not hold as its custom field (a list in a list, an unstorable key)', () => {
    const fieldsOf = (body: Record<string, unknown>): string[] => {
      const parsed = parseCustomFieldCreate(body);
      return parsed.ok ? [] : parsed.details.map((detail) => `${detail.field}: ${detail.message}`);
    };
    expect(fieldsOf({ name: 'grid', type: 'array', default_value: [[1]] })).toEqual([
      'default_value: default_value must not have a list directly inside a list',
    ]);
    expect(fieldsOf({ name: 'meta', type: 'object', default_value: { inner: { 'a.b': 1 } } })).toEqual([
      `default_value: default_value has the key "a.b": keys may not contain '.' or start with '$'`,
    ]);
    expect(fieldsOf({ name: 'tags', type: 'array', default_value: ['a', { b: [1] }] })).toEqual([]);
  });
});
