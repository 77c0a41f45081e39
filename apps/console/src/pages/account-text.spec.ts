import { describe, expect, it } from 'vitest';
import { accountErrorText } from './account-text';

describe("the change-password form's errors in words", () => {
  it('names the field by its label, not by the key the API uses', () => {
    expect(
      accountErrorText({
        message: 'Validation failed',
        details: [{ field: 'current_password', message: 'current_password is not your current password' }],
      }),
    ).toBe('Current password is not your current password.');
    expect(
      accountErrorText({
        message: 'Validation failed',
        details: [
          { field: 'current_password', message: 'current_password is required' },
          { field: 'new_password', message: 'new_password must differ from the current password' },
        ],
      }),
    ).toBe('Current password is required. New password must differ from the current password.');
  });

  it("keeps a detail that does not start with its key, and one of a field the form does not have, with the API's words", () => {
    expect(
      accountErrorText({ message: 'Validation failed', details: [{ field: 'new_password', message: 'Too weak!' }] }),
    ).toBe('New password: Too weak!');
    expect(
      accountErrorText({
        message: 'Validation failed',
        details: [{ field: 'body', message: 'body must be a JSON object' }],
      }),
    ).toBe('body: body must be a JSON object.');
  });

  it("is the API's message when there is no detail", () => {
    expect(accountErrorText({ message: 'Too many requests; retry in 30 seconds', details: [] })).toBe(
      'Too many requests; retry in 30 seconds',
    );
  });
});
