import { describe, expect, it } from 'vitest';
import { MAX_COUNTED_REPETITIONS, MAX_PATTERN_LENGTH, patternLimitProblem } from './pattern-limits';

describe('pattern limits', () => {
  it.each([
    '^[A-Z][a-z]+$',
    '^\\d{5}(-\\d{4})?$',
    'gmail\\.com$',
    '.{0,50}',
    '^.{1,255}$',
    '^[A-Z]{2}\\d{6}$',
    '^(\\d{1,3}\\.){3}\\d{1,3}$',
    '^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$',
    '(?i)^(mr|mrs|ms)\\.?$',
    '^\\p{Lu}\\p{Ll}+$',
    '^(?P<area>\\d{3})-\\d{4}$',
    '\\{\\d{2}\\}',
    '[{}]{0,2}x{',
    '\\Q{0,900}\\E',
    '^9\\d{4}$',
  ])('accepts the ordinary pattern %s', (pattern) => {
    expect(patternLimitProblem(pattern)).toBeNull();
  });

  it('refuses the patterns that stalled the pipeline and filled the engine', () => {
    expect(patternLimitProblem('.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}.{0,1000}q$')).toBe(
      `pattern too costly: counted repetitions add up to 8000 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('[a-z]{0,1000}[a-z]{0,1000}[a-z]{0,1000}m$')).toBe(
      `pattern too costly: counted repetitions add up to 3000 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
  });

  it('counts a single large bound, an open bound and repetitions nested inside each other', () => {
    expect(patternLimitProblem('a{1001}')).toBe(
      `pattern too costly: counted repetitions add up to 1001 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('a{600,}')).toBe(
      `pattern too costly: counted repetitions add up to 600 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    // (x{50}y){10} is 51 program steps repeated 10 times.
    expect(patternLimitProblem('(.{0,50}y){0,10}')).toBe(
      `pattern too costly: counted repetitions add up to 510 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('a{99999999999999999999}')).toBe(
      `pattern too costly: counted repetitions add up to 1000000 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('.{0,250}.{0,250}')).toBeNull();
    expect(patternLimitProblem('.{0,250}.{0,251}')).toBe(
      `pattern too costly: counted repetitions add up to 501 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
  });

  it('does not count braces that are not a repetition, and finds repetitions after classes and escapes', () => {
    expect(patternLimitProblem('[\\]]{0,600}')).toBe(
      `pattern too costly: counted repetitions add up to 600 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('[]a]{0,600}')).toBe(
      `pattern too costly: counted repetitions add up to 600 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('[[:alpha:]]{0,600}')).toBe(
      `pattern too costly: counted repetitions add up to 600 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('\\x{41}{0,600}')).toBe(
      `pattern too costly: counted repetitions add up to 600 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('a|b{0,600}')).toBe(
      `pattern too costly: counted repetitions add up to 600 (at most ${MAX_COUNTED_REPETITIONS})`,
    );
    expect(patternLimitProblem('\\{0,600}')).toBeNull();
  });

  it('refuses counted repetitions nested more than two deep', () => {
    expect(patternLimitProblem('((a{2}){2}){2}')).toBe(
      'pattern too costly: counted repetitions nest 3 deep (at most 2)',
    );
  });

  it('counts the copies of Unicode classes, which the engine compiles into large programs', () => {
    expect(patternLimitProblem('\\p{L}{0,100}')).toBe(
      'pattern too costly: it holds 100 Unicode classes such as \\p{L}, counting repetitions (at most 10)',
    );
    expect(patternLimitProblem('[\\p{L}\\p{N}]{0,6}')).toBe(
      'pattern too costly: it holds 12 Unicode classes such as \\p{L}, counting repetitions (at most 10)',
    );
    expect(patternLimitProblem('\\PL{0,11}')).toBe(
      'pattern too costly: it holds 11 Unicode classes such as \\p{L}, counting repetitions (at most 10)',
    );
    expect(patternLimitProblem('\\p{L}{0,10}')).toBeNull();
  });

  it('refuses a pattern longer than the limit', () => {
    expect(patternLimitProblem('a'.repeat(MAX_PATTERN_LENGTH))).toBeNull();
    expect(patternLimitProblem('a'.repeat(MAX_PATTERN_LENGTH + 1))).toBe(
      `pattern too long: ${MAX_PATTERN_LENGTH + 1} characters (at most ${MAX_PATTERN_LENGTH})`,
    );
  });
});
