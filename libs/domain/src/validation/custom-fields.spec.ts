import { describe, expect, it } from 'vitest';
import type { CustomFieldValue } from '../lead/lead-submission';
import { checkCustomFields, isIsoDate, type CustomFieldDefinition, type CustomFieldType } from './custom-fields';

describe('checkCustomFields: types', () => {
  it.each<[CustomFieldType, CustomFieldValue, boolean]>([
    ['string', 'fall 2025', true],
    ['string', 5, false],
    ['number', 3.5, true],
    ['number', '3.5', false],
    ['boolean', false, true],
    ['boolean', 'true', false],
    ['date', '2025-09-01', true],
    ['date', '2024-02-29', true],
    ['date', '2025-02-29', false],
    ['date', '2025-09-01T00:00:00Z', false],
    ['date', '09/01/2025', false],
    ['array', ['a', 1], true],
    ['array', { 0: 'a' }, false],
    ['object', { a: 1 }, true],
    ['object', [1], false],
    ['string', null, true], // null clears an optional field
  ])('%s accepts %j: %s', (type, value, ok) => {
    const problems = checkCustomFields({ f: value }, [{ name: 'f', type, required: false }]);
    expect(problems.length === 0).toBe(ok);
  });

  it('says what type was expected', () => {
    expect(checkCustomFields({ start: 'soon' }, [{ name: 'start', type: 'date', required: false }])).toEqual([
      { field: 'custom_fields.start', message: 'must be an ISO 8601 date (YYYY-MM-DD)', missing: false },
    ]);
  });
});

describe('checkCustomFields: configuration', () => {
  const definitions: CustomFieldDefinition[] = [
    { name: 'gpa', type: 'number', required: false },
    { name: 'term', type: 'string', required: true },
  ];

  it('accepts configured fields', () => {
    expect(checkCustomFields({ gpa: 3.9, term: 'fall' }, definitions)).toEqual([]);
  });

  it('refuses keys that are not configured', () => {
    expect(checkCustomFields({ term: 'fall', shoe_size: 42 }, definitions)).toEqual([
      { field: 'custom_fields.shoe_size', message: 'is not a configured custom field', missing: false },
    ]);
  });

  it.each<Record<string, CustomFieldValue> | undefined>([undefined, {}, { term: null }, { term: '' }])(
    'reports a required field missing from %j',
    (values) => {
      expect(checkCustomFields(values, definitions)).toEqual([
        { field: 'custom_fields.term', message: 'is required', missing: true },
      ]);
    },
  );
});

describe('isIsoDate', () => {
  it.each([
    ['2025-01-31', true],
    ['2025-04-31', false],
    ['2025-1-31', false],
    ['0000-01-01', true],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2025-00-10', false],
  ])('%s → %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });
});
