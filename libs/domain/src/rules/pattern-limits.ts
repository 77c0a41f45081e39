/**
 * Limits a regular expression must keep before anything compiles it. Patterns are organization
 * input compiled by RE2 (re2-wasm) inside one fixed 16 MB heap that every organization shares,
 * and RE2 expands a counted repetition `x{m,n}` into n copies of x: `.{0,1000}` repeated eight
 * times took 18 s to compile and its first matches exhausted the heap. RE2 handles `*`, `+` and
 * `?` with a loop, so they cost one copy whatever the input.
 *
 * Measured on re2-wasm 1.0.2: up to about 500 counted copies a pattern compiles in a fraction of a
 * second and its matching state fits the engine's budget, so matches stay fast; at 1000 copies a
 * single unanchored `.{0,1000}` took 1.5-2 s on every match. A Unicode property class such as
 * \p{L} is itself a program of hundreds of steps: \p{L}{0,100} ran out of memory while compiling.
 */

export const MAX_PATTERN_LENGTH = 500;
/** Program copies that counted repetitions may add up to over the whole pattern. */
export const MAX_COUNTED_REPETITIONS = 500;
/** How deep counted repetitions may sit inside each other: (\d{1,3}\.){3} is two deep. */
export const MAX_REPETITION_NESTING = 2;
/** Copies of Unicode property classes (\p{..}, \P{..}), counting each repetition. */
export const MAX_UNICODE_CLASSES = 10;

/** Keeps display and arithmetic finite for absurd bounds such as {99999999999999999999}. */
const BOUND_CEILING = 1_000_000;

/** What a piece of the pattern costs once RE2 has expanded it. */
interface Cost {
  /** Copies of simple steps (characters, classes, anchors). */
  size: number;
  /** The part of `size` that counted repetitions produced. */
  repeated: number;
  /** Copies of Unicode property classes. */
  unicode: number;
  /** Deepest nesting of counted repetitions inside the piece. */
  depth: number;
}

/** A group being read: the sum of its pieces so far, and its last piece (what a quantifier repeats). */
interface Frame {
  total: Cost;
  last: Cost | null;
}

const COUNTED = /\{(\d+)(,(\d*))?\}/y;
const HEX_BRACES = /x\{[0-9A-Fa-f]*\}/y;
const PROPERTY = /[pP](\{[^}]*\}|.)/uy;
const GROUP_PREFIX = /\?(P?<[^>]*>|[imsU-]*:|[imsU-]*\))/y;

function zero(): Cost {
  return { size: 0, repeated: 0, unicode: 0, depth: 0 };
}

/** One simple step: a character, a class without Unicode properties, an anchor. */
function step(): Cost {
  return { size: 1, repeated: 0, unicode: 0, depth: 0 };
}

function add(into: Cost, piece: Cost): void {
  into.size += piece.size;
  into.repeated += piece.repeated;
  into.unicode += piece.unicode;
  into.depth = Math.max(into.depth, piece.depth);
}

function subtract(from: Cost, piece: Cost): void {
  from.size -= piece.size;
  from.repeated -= piece.repeated;
  from.unicode -= piece.unicode;
}

function push(frame: Frame, piece: Cost): void {
  add(frame.total, piece);
  frame.last = piece;
}

/**
 * Why `pattern` is too long or too costly to compile, or null when it keeps the limits. Pure and
 * linear in the pattern's length; it does not check the syntax (RE2 does that, within these limits).
 */
export function patternLimitProblem(pattern: string): string | null {
  const length = [...pattern].length;
  if (length > MAX_PATTERN_LENGTH) return `pattern too long: ${length} characters (at most ${MAX_PATTERN_LENGTH})`;
  const cost = patternCost(pattern);
  if (cost.depth > MAX_REPETITION_NESTING)
    return `pattern too costly: counted repetitions nest ${cost.depth} deep (at most ${MAX_REPETITION_NESTING})`;
  if (cost.repeated > MAX_COUNTED_REPETITIONS)
    return `pattern too costly: counted repetitions add up to ${cost.repeated} (at most ${MAX_COUNTED_REPETITIONS})`;
  if (cost.unicode > MAX_UNICODE_CLASSES)
    return `pattern too costly: it holds ${cost.unicode} Unicode classes such as \\p{L}, counting repetitions (at most ${MAX_UNICODE_CLASSES})`;
  return null;
}

/** Reads the pattern once, the way RE2 parses it, adding up what each piece costs. */
function patternCost(pattern: string): Cost {
  const stack: Frame[] = [{ total: zero(), last: null }];
  const top = (): Frame => stack[stack.length - 1]!;
  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === '\\') {
      i = readEscape(pattern, i, top());
    } else if (char === '[') {
      const end = classEnd(pattern, i);
      push(top(), { size: 1, repeated: 0, unicode: countProperties(pattern.slice(i, end)), depth: 0 });
      i = end;
    } else if (char === '(') {
      GROUP_PREFIX.lastIndex = i + 1;
      const prefix = GROUP_PREFIX.exec(pattern);
      i = prefix ? i + 1 + prefix[0].length : i + 1;
      // A flags-only group such as (?i) holds nothing and is already closed.
      if (prefix && prefix[0].endsWith(')')) top().last = null;
      else stack.push({ total: zero(), last: null });
    } else if (char === ')' && stack.length > 1) {
      const group = stack.pop()!.total;
      push(top(), group);
      i += 1;
    } else if (char === '|') {
      top().last = null;
      i += 1;
    } else if (char === '{' && top().last) {
      COUNTED.lastIndex = i;
      const counted = COUNTED.exec(pattern);
      if (counted) {
        const low = Math.min(Number(counted[1]), BOUND_CEILING);
        const high = counted[2] && counted[3] ? Math.min(Number(counted[3]), BOUND_CEILING) : low;
        repeatLast(top(), Math.max(low, high));
        i += counted[0].length;
      } else {
        push(top(), step());
        i += 1;
      }
    } else if (char === '*' || char === '+' || char === '?') {
      // A loop or an option: one copy, whatever the input; the cost of the repeated piece stays.
      i += 1;
    } else {
      push(top(), step());
      i += 1;
    }
  }
  // Unclosed groups (RE2 will refuse the pattern) still count.
  while (stack.length > 1) {
    const group = stack.pop()!.total;
    push(top(), group);
  }
  return stack[0]!.total;
}

/** Replaces the frame's last piece by `bound` copies of it. */
function repeatLast(frame: Frame, bound: number): void {
  const last = frame.last!;
  subtract(frame.total, last);
  const size = Math.min(last.size * bound, BOUND_CEILING);
  push(frame, { size, repeated: size, unicode: Math.min(last.unicode * bound, BOUND_CEILING), depth: last.depth + 1 });
}

/** Reads the escape at `start` into the frame; the index after it. */
function readEscape(pattern: string, start: number, frame: Frame): number {
  const next = pattern[start + 1];
  if (next === undefined) return start + 1;
  if (next === 'Q') {
    // \Q...\E quotes literal text: every character is one step, and a quantifier after \E repeats the last one.
    const end = pattern.indexOf('\\E', start + 2);
    const quoted = pattern.slice(start + 2, end < 0 ? pattern.length : end);
    for (let k = 0; k < quoted.length; k++) push(frame, step());
    return end < 0 ? pattern.length : end + 2;
  }
  PROPERTY.lastIndex = start + 1;
  const property = PROPERTY.exec(pattern);
  if (property) {
    push(frame, { size: 1, repeated: 0, unicode: 1, depth: 0 });
    return start + 1 + property[0].length;
  }
  HEX_BRACES.lastIndex = start + 1;
  const hex = HEX_BRACES.exec(pattern);
  push(frame, step());
  return hex ? start + 1 + hex[0].length : start + 2;
}

/** The index after the character class that opens at `start` (`[]a]` and `[^]a]` hold a `]`). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1;
  while (i < pattern.length) {
    if (pattern[i] === '\\') i += 2;
    else if (pattern.startsWith('[:', i)) {
      const close = pattern.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
    } else if (pattern[i] === ']') return i + 1;
    else i += 1;
  }
  return pattern.length;
}

/** Unicode property classes (\p{..}, \pL, \P{..}) named inside a character class. */
function countProperties(characterClass: string): number {
  let count = 0;
  for (let i = 0; i < characterClass.length; i++) {
    if (characterClass[i] !== '\\') continue;
    if (characterClass[i + 1] === 'p' || characterClass[i + 1] === 'P') count += 1;
    i += 1;
  }
  return count;
}
