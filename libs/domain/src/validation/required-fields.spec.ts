import { describe, expect, it } from 'vitest';
import type { LeadSubmission } from '../lead/lead-submission';
import { checkRequiredFields } from './required-fields';

describe('checkRequiredFields', () => {
  it('always requires email', () => {
    expect(checkRequiredFields({ email: '  ' }, [])).toEqual([
      { field: 'email', message: 'is required', missing: true },
    ]);
  });

  it('requires the fields the organization configured, once each', () => {
    const submission: LeadSubmission = { email: 'a@example.com', first_name: 'Ann', phone: '' };
    expect(checkRequiredFields(submission, ['first_name', 'phone', 'program_interest', 'email'])).toEqual([
      { field: 'phone', message: 'is required', missing: true },
      { field: 'program_interest', message: 'is required', missing: true },
    ]);
  });

  it('passes a complete submission', () => {
    expect(checkRequiredFields({ email: 'a@example.com', last_name: 'Lee' }, ['last_name'])).toEqual([]);
  });
});
