import { describe, expect, it } from 'vitest';
import { emailDomain, parseEmail } from './email-syntax';

describe('parseEmail', () => {
  it.each([
    ['jane@example.com', 'jane@example.com', 'example.com'],
    ['  Jane.Doe@Example.EDU  ', 'Jane.Doe@example.edu', 'example.edu'],
    ['first+tag@sub.mail.example.co.uk', 'first+tag@sub.mail.example.co.uk', 'sub.mail.example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie", 'example.ie'],
    ['a!#$%&*/=?^_`{|}~-@example.com', 'a!#$%&*/=?^_`{|}~-@example.com', 'example.com'],
    ['"john doe"@example.com', '"john doe"@example.com', 'example.com'],
    ['"a@b"@example.com', '"a@b"@example.com', 'example.com'],
    ['"esc\\"aped"@example.com', '"esc\\"aped"@example.com', 'example.com'],
    ['x@my-school.xn--p1ai', 'x@my-school.xn--p1ai', 'my-school.xn--p1ai'],
    ['x@1st.example.com', 'x@1st.example.com', '1st.example.com'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`, 'example.com'],
  ])('accepts %s', (input, email, domain) => {
    expect(parseEmail(input)).toEqual({ ok: true, email, local: email.slice(0, email.lastIndexOf('@')), domain });
  });

  it.each([
    ['', 'is required'],
    ['   ', 'is required'],
    ['plainaddress', 'must be an email address like name@example.com'],
    ['@example.com', 'must be an email address like name@example.com'],
    ['jane@', 'must be an email address like name@example.com'],
    ['jane@localhost', 'must have a domain with a top-level domain, like example.com'],
    ['jane@example.c', 'has an invalid top-level domain'],
    ['jane@example.123', 'has an invalid top-level domain'],
    ['jane@-example.com', 'has an invalid domain'],
    ['jane@example-.com', 'has an invalid domain'],
    ['jane@exa_mple.com', 'has an invalid domain'],
    ['jane@example..com', 'has an invalid domain'],
    ['jane@.example.com', 'has an invalid domain'],
    ['jane@example.com.', 'has an invalid domain'],
    [`jane@${'a'.repeat(64)}.com`, 'has an invalid domain'],
    ['jane@[10.0.0.1]', 'has an invalid domain'],
    ['.jane@example.com', 'has an invalid local part (before @)'],
    ['jane.@example.com', 'has an invalid local part (before @)'],
    ['ja..ne@example.com', 'has an invalid local part (before @)'],
    ['ja ne@example.com', 'has an invalid local part (before @)'],
    ['ja@ne@example.com', 'has an invalid local part (before @)'],
    ['"unclosed@example.com', 'has an invalid local part (before @)'],
    ['jäne@example.com', 'has an invalid local part (before @)'],
    ['jane@exämple.com', 'has an invalid domain'],
    [`${'a'.repeat(65)}@example.com`, 'local part must be at most 64 characters'],
    [
      `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`,
      'must be at most 254 characters',
    ],
  ])('rejects %j', (input, message) => {
    expect(parseEmail(input)).toEqual({ ok: false, message });
  });
});

describe('emailDomain', () => {
  it('returns the lowercased domain of a valid address', () => {
    expect(emailDomain('Jane@Gmail.COM')).toBe('gmail.com');
  });
  it('returns undefined for an invalid address', () => {
    expect(emailDomain('not-an-email')).toBeUndefined();
  });
});
