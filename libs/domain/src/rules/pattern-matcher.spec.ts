import { describe, expect, it } from 'vitest';
import {
  MAX_MATCHED_INPUT_LENGTH,
  PatternCache,
  patternProblem,
  testPattern,
  type CompiledPattern,
} from './pattern-matcher';

/** What re2-wasm throws when its fixed heap is full: a WebAssembly RuntimeError whose text carries a stack and server paths. */
const ABORT = new Error(
  'abort(Cannot enlarge memory arrays to size 17022976 bytes (OOM). Either (1) compile with -s INITIAL_MEMORY=X) at Error\n    at jsStackTrace (/srv/leadstream/node_modules/re2-wasm/build/wasm/re2.js:1:1)',
);

/** A stand-in engine that matches by substring and records what it compiled and freed. */
class FakeEngine {
  compiled: string[] = [];
  freed: string[] = [];
  /** How many of the next compiles fail with the abort. */
  failCompiles = 0;
  /** How many of the next matches fail with the abort. */
  failMatches = 0;

  readonly compile = (pattern: string): CompiledPattern => {
    if (this.failCompiles > 0) {
      this.failCompiles -= 1;
      throw ABORT;
    }
    this.compiled.push(pattern);
    return {
      test: (input) => {
        if (this.failMatches > 0) {
          this.failMatches -= 1;
          throw ABORT;
        }
        return input.includes(pattern);
      },
      free: () => {
        this.freed.push(pattern);
      },
    };
  };
}

describe('the compiled pattern cache', () => {
  it('holds at most its capacity, frees the least recently used pattern, and keeps the ones in use', () => {
    const engine = new FakeEngine();
    const cache = new PatternCache(engine.compile, 2);
    expect(cache.test('a', 'xa')).toBe(true);
    expect(cache.test('b', 'xa')).toBe(false);
    expect(cache.test('a', 'a')).toBe(true);
    expect(cache.test('c', 'c')).toBe(true);
    expect(engine.freed).toEqual(['b']);
    expect(cache.size).toBe(2);
    expect(cache.test('a', 'a')).toBe(true);
    expect(engine.compiled).toEqual(['a', 'b', 'c']);
  });

  it('frees every pattern and compiles once more when the engine runs out of memory compiling', () => {
    const engine = new FakeEngine();
    const cache = new PatternCache(engine.compile, 10);
    cache.test('a', 'a');
    cache.test('b', 'b');
    engine.failCompiles = 1;
    expect(cache.test('c', 'c')).toBe(true);
    expect(engine.freed.sort()).toEqual(['a', 'b']);
    expect(cache.size).toBe(1);
  });

  it('frees every pattern and matches once more when the engine runs out of memory matching', () => {
    const engine = new FakeEngine();
    const cache = new PatternCache(engine.compile, 10);
    cache.test('a', 'a');
    cache.test('b', 'b');
    engine.failMatches = 1;
    expect(cache.test('b', 'xb')).toBe(true);
    expect(engine.freed.sort()).toEqual(['a', 'b']);
  });

  it('answers "cannot evaluate" (undefined) when the retry fails too, remembers it, and never throws', () => {
    const engine = new FakeEngine();
    const cache = new PatternCache(engine.compile, 10);
    cache.test('a', 'a');
    engine.failMatches = 2;
    expect(cache.test('a', 'a')).toBeUndefined();
    // Remembered: the next lead does not flush every organization's patterns again.
    const compiledBefore = engine.compiled.length;
    expect(cache.test('a', 'a')).toBeUndefined();
    expect(engine.compiled.length).toBe(compiledBefore);
    engine.failCompiles = 2;
    expect(cache.test('z', 'z')).toBeUndefined();
    expect(cache.problem('z')).toBe('invalid regular expression: too costly for the regular expression engine');
  });

  it('never compiles a pattern beyond the limits', () => {
    const engine = new FakeEngine();
    const cache = new PatternCache(engine.compile, 10);
    expect(cache.problem('.{0,1000}.{0,1000}q$')).toMatch(/^pattern too costly: counted repetitions add up to 2000/);
    expect(cache.test('.{0,1000}.{0,1000}q$', 'q')).toBeUndefined();
    expect(engine.compiled).toEqual([]);
  });

  it('does not match input longer than the cap (cannot evaluate)', () => {
    const engine = new FakeEngine();
    const cache = new PatternCache(engine.compile, 10);
    expect(cache.test('a', 'a'.repeat(MAX_MATCHED_INPUT_LENGTH))).toBe(true);
    expect(cache.test('a', 'a'.repeat(MAX_MATCHED_INPUT_LENGTH + 1))).toBeUndefined();
  });
});

describe('patterns on RE2', () => {
  it("names a syntax error with RE2's own short reason, and an engine failure with a fixed text, never a stack or a path", () => {
    expect(patternProblem('([a-z')).toBe('invalid regular expression: missing ]: [a-z');
    expect(patternProblem('(a)\\1')).toBe('invalid regular expression: invalid escape sequence: \\1');
    expect(patternProblem('(?<n>a)(?<n>b)')).toBe('invalid regular expression: Duplicate capture group name');
    expect(patternProblem('a/u: b(')).toBe('invalid regular expression: missing ): a\\/u: b(');
    const engine = new FakeEngine();
    engine.failCompiles = 2;
    const problem = new PatternCache(engine.compile, 10).problem('x');
    expect(problem).toBe('invalid regular expression: too costly for the regular expression engine');
    expect(problem).not.toMatch(/abort|node_modules|\/srv\/| at /);
  });

  it('matches and refuses with RE2', () => {
    expect(patternProblem('^[A-Z][a-z]+$')).toBeNull();
    expect(testPattern('^\\d{5}(-\\d{4})?$', '90210-1234')).toBe(true);
    expect(testPattern('gmail\\.com$', 'ann@yahoo.com')).toBe(false);
    expect(testPattern('[a-z]{0,1000}[a-z]{0,1000}[a-z]{0,1000}m$', 'm')).toBeUndefined();
  });
});
