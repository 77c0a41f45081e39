import { describe, expect, it } from 'vitest';
import { suggestEmailDomain } from './email-typo';

describe('suggestEmailDomain', () => {
  it.each([
    ['gmial.com', 'gmail.com'],
    ['gmai.com', 'gmail.com'],
    ['gnail.com', 'gmail.com'],
    ['hotmial.com', 'hotmail.com'],
    ['hotmial.co.uk', 'hotmail.co.uk'],
    ['yaho.com', 'yahoo.com'],
    ['outlok.com', 'outlook.com'],
    ['gmail.con', 'gmail.com'],
    ['example.cmo', 'example.com'],
    ['state.eud', 'state.edu'],
    ['gmial.con', 'gmail.com'],
    ['gmail.co', 'gmail.com'],
  ])('%s → %s', (domain, suggestion) => {
    expect(suggestEmailDomain(domain)).toBe(suggestion);
  });

  it.each([
    'gmail.com',
    'ymail.com',
    'gmx.com',
    'example.co',
    'hotmail.co.uk',
    'university.edu',
    'mail.gmial-like.org',
  ])('leaves %s alone', (domain) => {
    expect(suggestEmailDomain(domain)).toBeUndefined();
  });
});
