import { describe, expect, it } from 'vitest';
import { apiErrorText, detailText } from './error-text';

describe('the console error line', () => {
  it('does not repeat a field the detail message already names', () => {
    expect(detailText({ field: 'current_password', message: 'current_password is not your current password' })).toBe(
      'current_password is not your current password',
    );
    expect(
      apiErrorText({
        message: 'Validation failed',
        details: [{ field: 'email', message: 'email: must be a valid email address' }],
      }),
    ).toBe('Validation failed — email: must be a valid email address');
  });

  it('names the field when the message does not', () => {
    expect(detailText({ field: 'phone', message: 'must have at least 10 digits' })).toBe(
      'phone: must have at least 10 digits',
    );
    expect(
      apiErrorText({
        message: 'Validation failed',
        details: [
          { field: 'phone', message: 'must have at least 10 digits' },
          { field: 'name', message: 'name is required' },
        ],
      }),
    ).toBe('Validation failed — phone: must have at least 10 digits — name is required');
  });

  it('is the message alone without details', () => {
    expect(apiErrorText({ message: 'Too many requests', details: [] })).toBe('Too many requests');
  });
});
