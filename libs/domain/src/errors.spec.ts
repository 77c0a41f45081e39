import { describe, expect, it } from 'vitest';
import { describeDetail } from './errors';

describe('describeDetail', () => {
  it('puts the field first when a layer described the problem as a fragment', () => {
    expect(describeDetail({ field: 'email', message: 'is required' })).toEqual({
      field: 'email',
      message: 'email is required',
    });
    expect(describeDetail({ field: 'custom_fields.gpa', message: 'must be a number' })).toEqual({
      field: 'custom_fields.gpa',
      message: 'custom_fields.gpa must be a number',
    });
    expect(describeDetail({ field: 'form_started_at', message: 'is later than the submission time' })).toEqual({
      field: 'form_started_at',
      message: 'form_started_at is later than the submission time',
    });
  });

  it('leaves a message that already reads alone', () => {
    expect(describeDetail({ field: 'email', message: 'email is required' })).toEqual({
      field: 'email',
      message: 'email is required',
    });
    expect(describeDetail({ field: 'email', message: 'Did you mean ann@gmail.com?' })).toEqual({
      field: 'email',
      message: 'Did you mean ann@gmail.com?',
    });
  });
});
