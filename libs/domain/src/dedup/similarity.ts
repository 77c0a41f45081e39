import type { DedupAlgorithm, DedupMatchFieldName } from './dedup-config';
import type { DedupLeadFields } from './dedup.types';
import { normalizeEmail, phoneDigits } from './normalize';
import { deburr, jaroWinkler, levenshteinDistance, soundex } from './string-metrics';

/**
 * Similarity of two values on a 0-100 scale, or `null` when the pair is not comparable (a value
 * is missing or empty on either side). Not comparable is neither a match nor a mismatch: AND/OR
 * skip the field and weighted scoring spreads its weight over the comparable fields.
 */
export type FieldScore = number | null;

/** Scores are rounded to 2 decimals so that what is logged is exactly what was compared to the threshold. */
export function roundDedupScore(score: number): number {
  return Math.round(score * 100) / 100;
}

/** Case-, accent- and spacing-insensitive form used by the text algorithms. */
function fold(value: string): string {
  return deburr(value).toLowerCase().replace(/\s+/g, ' ').trim();
}

export function exactScore(a: string, b: string): FieldScore {
  const x = fold(a);
  const y = fold(b);
  if (x === '' || y === '') return null;
  return x === y ? 100 : 0;
}

/** 100 × (1 − distance / length of the longer string). */
export function levenshteinScore(a: string, b: string): FieldScore {
  const x = fold(a);
  const y = fold(b);
  if (x === '' || y === '') return null;
  const longest = Math.max(Array.from(x).length, Array.from(y).length);
  return roundDedupScore(100 * (1 - levenshteinDistance(x, y) / longest));
}

export function jaroWinklerScore(a: string, b: string): FieldScore {
  const x = fold(a);
  const y = fold(b);
  if (x === '' || y === '') return null;
  return roundDedupScore(100 * jaroWinkler(x, y));
}

/** Word by word ("Mary Ann" → "M600 A500"): 100 when every word sounds alike, else 0. */
export function soundexScore(a: string, b: string): FieldScore {
  const code = (value: string) =>
    fold(value)
      .split(' ')
      .map(soundex)
      .filter((c) => c !== '')
      .join(' ');
  const x = code(a);
  const y = code(b);
  if (x === '' || y === '') return null;
  return x === y ? 100 : 0;
}

/**
 * 100 when the normalized addresses are equal, else 0. Deliberately not fuzzy: "jsmith@" and
 * "asmith@" at the same provider are two people, and a Levenshtein score would call them 94.
 * Choose `levenshtein` on the email field for typo-tolerant matching.
 */
export function emailNormalizedScore(a: string, b: string): FieldScore {
  const x = normalizeEmail(a);
  const y = normalizeEmail(b);
  if (x === '' || y === '') return null;
  return x === y ? 100 : 0;
}

/** 100 when the digits are equal (NANP leading 1 ignored, see phoneDigits), else 0. */
export function phoneDigitsScore(a: string, b: string): FieldScore {
  const x = phoneDigits(a);
  const y = phoneDigits(b);
  if (x === '' || y === '') return null;
  return x === y ? 100 : 0;
}

const SCORERS: Record<DedupAlgorithm, (a: string, b: string) => FieldScore> = {
  exact: exactScore,
  levenshtein: levenshteinScore,
  jaro_winkler: jaroWinklerScore,
  soundex: soundexScore,
  email_normalized: emailNormalizedScore,
  phone_digits: phoneDigitsScore,
};

export function fieldSimilarity(algorithm: DedupAlgorithm, a: string, b: string): FieldScore {
  return SCORERS[algorithm](a, b);
}

/**
 * The text a match field reads from a lead: `name` is "first last"; a custom field counts when it
 * is a string, number or boolean (objects and arrays are not compared). `null` when absent or blank.
 */
export function fieldValue(lead: DedupLeadFields, field: DedupMatchFieldName): string | null {
  const text = (value: unknown): string | null => {
    if (typeof value === 'string') return value.trim() === '' ? null : value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return null;
  };
  switch (field) {
    case 'email':
    case 'phone':
    case 'first_name':
    case 'last_name':
      return text(lead[field]);
    case 'name': {
      // Both parts or nothing: "John" against "John Smith" would score 88 and look like a match.
      const first = lead.first_name?.trim() ?? '';
      const last = lead.last_name?.trim() ?? '';
      return first === '' || last === '' ? null : `${first} ${last}`;
    }
    default: {
      const key = field.slice('custom_fields.'.length);
      const custom = lead.custom_fields;
      return custom && Object.prototype.hasOwnProperty.call(custom, key) ? text(custom[key]) : null;
    }
  }
}

/** Score of one match field between two leads; `null` when not comparable. */
export function compareField(
  incoming: DedupLeadFields,
  candidate: DedupLeadFields,
  field: DedupMatchFieldName,
  algorithm: DedupAlgorithm,
): FieldScore {
  const a = fieldValue(incoming, field);
  const b = fieldValue(candidate, field);
  if (a === null || b === null) return null;
  return fieldSimilarity(algorithm, a, b);
}
