import { describe, expect, it } from 'vitest';
import { blockingKeyFields, blockingKeys, nameKey, normalizeEmail, phoneDigits } from './normalize';

describe('normalizeEmail', () => {
  it.each([
    ['John.Smith+leads@Gmail.com', 'johnsmith@gmail.com'],
    ['j.o.h.n@gmail.com', 'john@gmail.com'],
    ['john.smith@googlemail.com', 'johnsmith@gmail.com'],
    ['  JOHN@GMAIL.COM ', 'john@gmail.com'],
    ['john.smith+x@outlook.com', 'john.smith@outlook.com'],
    ['john.smith+x@hotmail.com', 'john.smith@hotmail.com'],
    ['jane.doe+apply@icloud.com', 'jane.doe@icloud.com'],
    ['jane.doe+a@proton.me', 'jane.doe@proton.me'],
    // Not a common provider: dots and plus are kept.
    ['john.smith+x@university.edu', 'john.smith+x@university.edu'],
    ['John.Smith@Company.COM', 'john.smith@company.com'],
    // Yahoo has no plus addressing; hyphenated disposable addresses are left alone.
    ['john.smith-apply@yahoo.com', 'john.smith-apply@yahoo.com'],
    ['john+x@yahoo.com', 'john+x@yahoo.com'],
    ['+tag@gmail.com', '+tag@gmail.com'],
    ['not-an-email', 'not-an-email'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });
});

describe('phoneDigits', () => {
  it.each([
    ['+1 (555) 123-4567', '5551234567'],
    ['5551234567', '5551234567'],
    ['555.123.4567', '5551234567'],
    ['1-555-123-4567', '5551234567'],
    ['+44 20 7946 0958', '442079460958'],
    ['', ''],
    ['n/a', ''],
  ])('%j → %j', (input, expected) => {
    expect(phoneDigits(input)).toBe(expected);
  });
});

describe('nameKey', () => {
  it.each([
    ['John', 'Smith', 'S530j'],
    ['Jon', 'Smyth', 'S530j'],
    ['jane', 'smith', 'S530j'],
    ['Émile', 'Zola', 'Z400e'],
    ['John', null, null],
    [null, 'Smith', null],
    ['', 'Smith', null],
  ])('%j %j → %j', (first, last, expected) => {
    expect(nameKey(first, last)).toBe(expected);
  });
});

describe('blockingKeys', () => {
  it('gives one key per kind', () => {
    expect(
      blockingKeys({
        email: 'J.Smith+x@gmail.com',
        phone: '+1 (555) 123-4567',
        first_name: 'John',
        last_name: 'Smith',
      }),
    ).toEqual(['e:jsmith@gmail.com', 'p:5551234567', 'n:S530j']);
  });
  it('skips absent, blank and too-short values', () => {
    expect(blockingKeys({ email: '  ', phone: '12345', first_name: 'John' })).toEqual([]);
  });
  it('keys the last 10 phone digits so national and international forms meet', () => {
    expect(blockingKeyFields({ phone: '+44 20 7946 0958' }).phone).toBe('2079460958');
    expect(blockingKeyFields({ phone: '020 7946 0958' }).phone).toBe('2079460958');
  });
});
