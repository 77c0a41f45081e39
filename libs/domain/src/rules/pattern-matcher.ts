/**
 * Organization patterns (matches_regex conditions, format rules, custom field patterns) compiled
 * and run on RE2: re2-wasm gives linear-time matching with no backtracking, in pure WebAssembly +
 * JS, hence fine in the pure domain. Never on the JavaScript RegExp engine.
 *
 * re2-wasm runs every compiled pattern of the process inside one fixed 16 MB heap, and a compiled
 * pattern keeps its memory until it is explicitly deleted (the binding has no finalizer that works
 * on Node). So the cache below holds a bounded number of patterns and frees the ones it drops, and
 * when the heap is full anyway it frees them all and tries once more, so one organization's
 * patterns cannot lock every other organization out. Every pattern passes patternLimitProblem
 * before it is compiled, also the ones stored before those limits existed.
 */
import { RE2 } from 're2-wasm';
import { patternLimitProblem } from './pattern-limits';

/** What the cache needs of a compiled pattern; `free` gives its memory back to the engine. */
export interface CompiledPattern {
  test(input: string): boolean;
  free(): void;
}

export type PatternCompiler = (pattern: string) => CompiledPattern;

/**
 * Compiled patterns held at once. A small pattern takes about 24 KB of the 16 MB heap once it has
 * matched a little text, so 250 of them leave room for the few costly ones the limits allow.
 */
export const PATTERN_CACHE_SIZE = 250;

/**
 * Longest input a pattern is matched against. Lead fields are at most 2,000 characters, but a
 * custom field value may be up to 64 KB, and RE2 falls back to a step per character and pattern
 * instruction when its matching state outgrows its budget. Longer input is not matched at all
 * (cannot evaluate) rather than cut: a cut value could pass a pattern the whole value breaks.
 */
export const MAX_MATCHED_INPUT_LENGTH = 10_000;

/** The text for an engine failure: re2-wasm's own message carries a JavaScript stack and server paths. */
const ENGINE_FAILURE = 'invalid regular expression: too costly for the regular expression engine';

/** How RE2 names what is wrong with a pattern (the start of its error text). */
const RE2_REASONS = [
  'missing ]',
  'missing )',
  'unexpected )',
  'trailing \\',
  'invalid escape sequence',
  'invalid character class',
  'no argument for repetition operator',
  'missing argument to repetition operator',
  'invalid repetition size',
  'bad repetition operator',
  'invalid nested repetition operator',
  'invalid named capture group',
  'invalid perl operator',
  'invalid UTF-8',
  'pattern too large',
  'Duplicate capture group name',
];

type Entry = { ok: true; compiled: CompiledPattern } | { ok: false; problem: string };

/** A pattern run on one input: whether it found a match, or why it could not be run (limits, syntax, the engine, the input's length). */
export type PatternMatch = { ok: true; matched: boolean } | { ok: false; problem: string };

/** Compiles with re2-wasm (Unicode mode, as the binding requires). */
export function compileWithRe2(pattern: string): CompiledPattern {
  const regex = new RE2(pattern, 'u');
  return {
    test: (input) => regex.test(input),
    // The binding keeps the compiled program in a private `wrapper` (an Embind handle) whose
    // delete() frees it; RE2 itself has no public way to free it.
    free: () => (regex as unknown as { wrapper: { delete(): void } }).wrapper.delete(),
  };
}

/**
 * Compiled patterns, least recently used first. Limit and syntax problems are cheap to find again
 * and are not kept; engine failures are kept, so a pattern the engine cannot hold does not free
 * every other pattern again on every lead.
 */
export class PatternCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly compile: PatternCompiler = compileWithRe2,
    private readonly capacity = PATTERN_CACHE_SIZE,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Why the pattern cannot be used (limits, syntax, the engine), or null. */
  problem(pattern: string): string | null {
    const entry = this.entry(pattern);
    return entry.ok ? null : entry.problem;
  }

  /** Whether the pattern finds a match in `input`; undefined when it cannot be evaluated. Never throws. */
  test(pattern: string, input: string): boolean | undefined {
    const result = this.match(pattern, input);
    return result.ok ? result.matched : undefined;
  }

  /** Whether the pattern finds a match in `input`, or why it cannot be evaluated. Never throws. */
  match(pattern: string, input: string): PatternMatch {
    if (input.length > MAX_MATCHED_INPUT_LENGTH)
      return {
        ok: false,
        problem: `the value has ${input.length} characters, more than a pattern is matched against (${MAX_MATCHED_INPUT_LENGTH})`,
      };
    const entry = this.entry(pattern);
    if (!entry.ok) return entry;
    try {
      return { ok: true, matched: entry.compiled.test(input) };
    } catch {
      // The engine's heap is full (matching allocates too): free every pattern and try once more.
      this.clear();
      const again = this.entry(pattern);
      if (!again.ok) return again;
      try {
        return { ok: true, matched: again.compiled.test(input) };
      } catch {
        this.drop(pattern);
        this.remember(pattern, { ok: false, problem: ENGINE_FAILURE });
        return { ok: false, problem: ENGINE_FAILURE };
      }
    }
  }

  /** Frees every compiled pattern. */
  clear(): void {
    for (const entry of this.entries.values()) if (entry.ok) freeQuietly(entry.compiled);
    this.entries.clear();
  }

  private entry(pattern: string): Entry {
    const cached = this.entries.get(pattern);
    if (cached) {
      // Most recently used goes last.
      this.entries.delete(pattern);
      this.entries.set(pattern, cached);
      return cached;
    }
    const limit = patternLimitProblem(pattern);
    if (limit) return { ok: false, problem: limit };
    const entry = this.compileOrRetry(pattern);
    if (entry.ok || entry.problem === ENGINE_FAILURE) this.remember(pattern, entry);
    return entry;
  }

  private compileOrRetry(pattern: string): Entry {
    try {
      return { ok: true, compiled: this.compile(pattern) };
    } catch (error) {
      if (error instanceof SyntaxError) return { ok: false, problem: syntaxProblem(error) };
    }
    // Anything but a syntax error is the engine failing, its heap full: free every pattern, try once more.
    this.clear();
    try {
      return { ok: true, compiled: this.compile(pattern) };
    } catch (error) {
      return { ok: false, problem: error instanceof SyntaxError ? syntaxProblem(error) : ENGINE_FAILURE };
    }
  }

  private remember(pattern: string, entry: Entry): void {
    this.entries.set(pattern, entry);
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
      if (old.ok) freeQuietly(old.compiled);
    }
  }

  private drop(pattern: string): void {
    const entry = this.entries.get(pattern);
    this.entries.delete(pattern);
    if (entry?.ok) freeQuietly(entry.compiled);
  }
}

/** A pattern whose match failed part-way may be in a state that also fails to free; it is dropped either way. */
function freeQuietly(compiled: CompiledPattern): void {
  try {
    compiled.free();
  } catch {
    // Nothing more can be done for it.
  }
}

/**
 * "invalid regular expression: <RE2's reason>". re2-wasm's message is
 * `Invalid regular expression: /<pattern>/u: <reason>`; the pattern may itself hold "/u: ", so the
 * reason is the first part after a "/u: " that starts the way RE2 names a problem.
 */
function syntaxProblem(error: SyntaxError): string {
  for (let at = error.message.indexOf('/u: '); at >= 0; at = error.message.indexOf('/u: ', at + 1)) {
    const reason = error.message.slice(at + 4);
    if (RE2_REASONS.some((known) => reason.startsWith(known)))
      return `invalid regular expression: ${reason.slice(0, 200)}`;
  }
  return 'invalid regular expression';
}

/** The process's compiled patterns, shared by every organization. */
const sharedPatterns = new PatternCache();

/** Why an organization's pattern cannot be saved (limits, RE2 syntax, the engine), or null. */
export function patternProblem(pattern: string): string | null {
  return sharedPatterns.problem(pattern);
}

/** Whether `pattern` finds a match in `input` (an unanchored search); undefined when it cannot be evaluated. */
export function testPattern(pattern: string, input: string): boolean | undefined {
  return sharedPatterns.test(pattern, input);
}

/** Whether `pattern` finds a match in `input` (an unanchored search), or why it cannot be evaluated. */
export function matchPattern(pattern: string, input: string): PatternMatch {
  return sharedPatterns.match(pattern, input);
}
