import { describe, expect, it } from 'vitest';
import { fieldPathProblem } from './field-path';

describe('fieldPathProblem', () => {
  it('answers reading and writing a path apart, however often and in whatever order it is asked', () => {
    for (let round = 0; round < 3; round++) {
      expect(fieldPathProblem('calculated_fields.gpa_band')).toBeNull();
      expect(fieldPathProblem('calculated_fields.gpa_band', true)).toBe(
        'calculated fields are computed by their formulas, not set by rules',
      );
      expect(fieldPathProblem('status', true)).toBe('status cannot be changed by a rule');
      expect(fieldPathProblem('status')).toBeNull();
      expect(fieldPathProblem('nickname')).toBe('nickname is not a lead field');
      expect(fieldPathProblem(42)).toBe('must be a field name such as email or custom_fields.gpa');
    }
  });
});
