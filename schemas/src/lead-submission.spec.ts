import { describe, expect, it } from 'vitest';
import { checkLeadSubmission } from '../index';

describe('checkLeadSubmission (the edge check of every ingestion path)', () => {
  it('words a wrong type as a user reads it', () => {
    expect(checkLeadSubmission({ email: 'ann@college.edu', phone: 12 })).toEqual([{ field: 'phone', message: 'phone must be text' }]);
  });

  it('says what is missing or unknown', () => {
    expect(checkLeadSubmission({ first_name: 'Ann', colour: 'red' })).toEqual([
      { field: 'email', message: 'email is required' },
      { field: 'colour', message: 'colour is not a known field' },
    ]);
    expect(checkLeadSubmission({ email: 42 })).toEqual([{ field: 'email', message: 'email must be text' }]);
    expect(checkLeadSubmission({ email: 'ann@college.edu', phone: '+1 415 555 2671' })).toEqual([]);
  });
});
