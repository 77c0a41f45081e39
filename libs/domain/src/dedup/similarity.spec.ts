import { describe, expect, it } from 'vitest';
import type { DedupAlgorithm } from './dedup-config';
import { compareField, fieldSimilarity, fieldValue } from './similarity';

describe('fieldSimilarity', () => {
  it.each<[DedupAlgorithm, string, string, number | null]>([
    ['exact', 'John', ' john ', 100],
    ['exact', 'John', 'Jon', 0],
    ['exact', '   ', 'John', null],
    ['levenshtein', 'kitten', 'sitting', 57.14],
    ['levenshtein', 'Smith', 'smith', 100],
    ['jaro_winkler', 'Jon Smith', 'John Smith', 97.33],
    ['jaro_winkler', 'John Smith', 'Jane Smith', 88],
    ['jaro_winkler', 'John Smith', 'Xavier Okafor', 28.46],
    ['soundex', 'Smith', 'Smyth', 100],
    ['soundex', 'Mary Ann', 'Mary Anne', 100],
    ['soundex', 'Smith', 'Jones', 0],
    ['soundex', '123', 'Smith', null],
    ['email_normalized', 'John.Smith+a@gmail.com', 'johnsmith@gmail.com', 100],
    ['email_normalized', 'john.smith@school.edu', 'johnsmith@school.edu', 0],
    ['email_normalized', 'jsmith@gmail.com', 'asmith@gmail.com', 0],
    ['phone_digits', '+1 (555) 123-4567', '5551234567', 100],
    ['phone_digits', '555-123-4567', '555-123-4568', 0],
    ['phone_digits', 'n/a', '5551234567', null],
  ])('%s(%j, %j) = %j', (algorithm, a, b, expected) => {
    expect(fieldSimilarity(algorithm, a, b)).toBe(expected);
  });
});

describe('fieldValue', () => {
  const lead = {
    email: 'a@b.c',
    phone: '  ',
    first_name: 'John',
    last_name: 'Smith',
    custom_fields: { student_id: 1234, opt_in: true, tags: ['x'], note: '' },
  };
  it.each([
    ['email', 'a@b.c'],
    ['phone', null],
    ['name', 'John Smith'],
    ['custom_fields.student_id', '1234'],
    ['custom_fields.opt_in', 'true'],
    ['custom_fields.tags', null],
    ['custom_fields.note', null],
    ['custom_fields.missing', null],
  ] as const)('%s → %j', (field, expected) => {
    expect(fieldValue(lead, field)).toBe(expected);
  });
  it('name needs both parts, so "John" is not compared with "John Smith"', () => {
    expect(
      compareField({ first_name: 'John' }, { first_name: 'John', last_name: 'Smith' }, 'name', 'jaro_winkler'),
    ).toBeNull();
  });
});
