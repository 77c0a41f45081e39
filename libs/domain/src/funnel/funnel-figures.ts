/**
 * How the funnel reports present their numbers (docs/analytics.md "Funnel"): rates as fractions,
 * durations in seconds and as text, and the buckets of the time-to-convert and drop-off reports.
 * The counting itself happens in SQL over the analytics projection.
 */

/** `part / whole` rounded to 4 decimals; 0 when there is no whole. */
export function fraction(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0;
}

/** `part / whole` as a percentage rounded to 2 decimals; 0 when there is no whole. */
export function percentage(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;
}

const UNITS: Array<[string, number]> = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/** Whole seconds as its two largest units ("2d 3h", "1h 5m", "45s"); null stays null. */
export function formatDuration(seconds: number | null): string | null {
  if (seconds === null) return null;
  let rest = Math.max(0, Math.round(seconds));
  if (rest === 0) return '0s';
  const parts: string[] = [];
  for (const [unit, size] of UNITS) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    if (parts.length === 2) break;
  }
  return parts.filter((part) => !part.startsWith('0')).join(' ');
}

export interface Bucket {
  bucket: string;
  /** Seconds from (included) and to (excluded; null: no end). */
  from: number;
  to: number | null;
}

const HOUR = 3_600;

/** Time from inquiry to application (`funnelTimeToConvert`). */
export const TIME_TO_CONVERT_BUCKETS: readonly Bucket[] = [
  { bucket: '0-1hr', from: 0, to: HOUR },
  { bucket: '1-6hr', from: HOUR, to: 6 * HOUR },
  { bucket: '6-12hr', from: 6 * HOUR, to: 12 * HOUR },
  { bucket: '12-24hr', from: 12 * HOUR, to: 24 * HOUR },
  { bucket: '24hr+', from: 24 * HOUR, to: null },
];

/**
 * Age of a dropped inquiry (`funnelDropOffs`: 24-48hr, 2-7days, 7days+). With `minAgeHours` under
 * 24 an inquiry can be dropped younger than a day; those are counted in a `0-24hr` bucket shown
 * first.
 */
export function dropOffAgeBuckets(minAgeHours: number): Bucket[] {
  const buckets: Bucket[] = [
    { bucket: '24-48hr', from: 24 * HOUR, to: 48 * HOUR },
    { bucket: '2-7days', from: 48 * HOUR, to: 168 * HOUR },
    { bucket: '7days+', from: 168 * HOUR, to: null },
  ];
  return minAgeHours < 24 ? [{ bucket: '0-24hr', from: 0, to: 24 * HOUR }, ...buckets] : buckets;
}
