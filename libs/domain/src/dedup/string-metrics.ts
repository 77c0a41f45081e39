/**
 * Levenshtein, Jaro-Winkler and Soundex, written here rather than imported from `talisman`:
 * talisman is CommonJS with extensionless subpaths and no types, so plain Node ESM cannot resolve
 * `talisman/metrics/levenshtein`, its default export differs between loaders, and every project that
 * imports the domain would need our ambient declarations. The spec tests check these functions
 * against talisman on a table of pairs.
 */

/** Edit distance in Unicode code points (not UTF-16 units). */
export function levenshteinDistance(a: string, b: string): number {
  if (a === b) return 0;
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0) return t.length;
  if (t.length === 0) return s.length;
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[t.length] ?? 0;
}

/** Jaro similarity, 0-1. */
export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  const s = Array.from(a);
  const t = Array.from(b);
  if (s.length === 0 || t.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(s.length, t.length) / 2) - 1);
  const sMatched = new Array<boolean>(s.length).fill(false);
  const tMatched = new Array<boolean>(t.length).fill(false);
  let matches = 0;
  for (let i = 0; i < s.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(t.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (tMatched[j] || s[i] !== t[j]) continue;
      sMatched[i] = true;
      tMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < s.length; i++) {
    if (!sMatched[i]) continue;
    while (!tMatched[k]) k++;
    if (s[i] !== t[k]) transpositions++;
    k++;
  }
  const m = matches;
  return (m / s.length + m / t.length + (m - transpositions / 2) / m) / 3;
}

/** Jaro-Winkler similarity, 0-1: prefix bonus of 0.1 per common leading char (max 4) once Jaro > 0.7. */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  if (j <= 0.7) return j;
  const s = Array.from(a);
  const t = Array.from(b);
  let prefix = 0;
  while (prefix < 4 && prefix < s.length && prefix < t.length && s[prefix] === t[prefix]) prefix++;
  return j + prefix * 0.1 * (1 - j);
}

const SOUNDEX_CODES: Record<string, string> = {
  A: '0',
  E: '0',
  I: '0',
  O: '0',
  U: '0',
  Y: '0',
  B: '1',
  F: '1',
  P: '1',
  V: '1',
  C: '2',
  G: '2',
  J: '2',
  K: '2',
  Q: '2',
  S: '2',
  X: '2',
  Z: '2',
  D: '3',
  T: '3',
  L: '4',
  M: '5',
  N: '5',
  R: '6',
};

/** Removes accents so that "Muñoz" and "Munoz" sound alike. */
export function deburr(value: string): string {
  return value.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/**
 * American Soundex of one word ("Robert" → "R163"). H and W do not separate equal codes, vowels do.
 * Returns '' when the word has no Latin letter.
 */
export function soundex(word: string): string {
  const letters = deburr(word)
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
  const first = letters.charAt(0);
  if (first === '') return '';
  let tail = '';
  for (const letter of letters.slice(1)) {
    if (letter === 'H' || letter === 'W') continue;
    tail += SOUNDEX_CODES[letter] ?? '';
  }
  if (tail.charAt(0) === SOUNDEX_CODES[first]) tail = tail.slice(1);
  const code = tail.replace(/(\d)\1+/g, '$1').replace(/0/g, '');
  return (first + code + '000').slice(0, 4);
}
