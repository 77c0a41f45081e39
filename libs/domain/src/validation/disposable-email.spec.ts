import { describe, expect, it } from 'vitest';
import { isDisposableDomain } from './disposable-email';

describe('isDisposableDomain', () => {
  it.each([
    ['mailinator.com', true],
    ['MAILINATOR.COM', true],
    ['sub.mailinator.com', true],
    ['33mail.com', true], // from the wildcard list
    ['someone.33mail.com', true],
    ['gmail.com', false],
    ['university.edu', false],
    ['mailinator.com.example.org', false],
    ['com', false],
  ])('%s → %s', (domain, expected) => {
    expect(isDisposableDomain(domain)).toBe(expected);
  });
});
