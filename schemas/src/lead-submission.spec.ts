import { describe, expect, it } from 'vitest';
import { checkLeadSubmission } from '../index';

describe('checkLeadSubmission (the edge check of every ingestion path)', () => {
  it('names every invalid field once, in one style', () => {
    expect(checkLeadSubmission({ email: 'not-an-email', phone: 12 })).toEqual([
      { field: 'phone', message: 'phone must be text' },
      { field: 'email', message: 'email must be an email address like name@example.com' },
    ]);
  });

  it('says what is missing or unknown, and checks the email only once it is text', () => {
    expect(checkLeadSubmission({ first_name: 'Ann', colour: 'red' })).toEqual([
      { field: 'email', message: 'email is required' },
      { field: 'colour', message: 'colour is not a known field' },
    ]);
    expect(checkLeadSubmission({ email: 42 })).toEqual([{ field: 'email', message: 'email must be text' }]);
    expect(checkLeadSubmission({ email: 'ann@college.edu', phone: '+1 415 555 2671' })).toEqual([]);
  });
});
