/**
 * The webhook retry schedule (docs/webhooks.md: by default after 1 min, 5 min, 30 min, 2 h, 24 h),
 * as WEBHOOK_RETRY_SCHEDULE writes it: comma-separated durations (`500ms`, `1s`, `5m`, `2h`, `1d`).
 * Each distinct delay is one delay topic, named by the duration (`webhooks.retry.5m`).
 */

const UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = '1m,5m,30m,2h,24h';
/** The longest schedule (and delay) accepted: beyond them a delivery would outlive any receiver's patience. */
export const MAX_WEBHOOK_RETRIES = 20;
const MAX_DELAY_MS = 7 * 86_400_000;

/** Milliseconds of one duration; throws a message naming the problem. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a duration (a whole number with ms, s, m, h or d, e.g. 5m)`);
  const ms = Number(match[1]) * UNITS[match[2]!]!;
  if (ms < 1 || ms > MAX_DELAY_MS) throw new Error(`"${text}" must be between 1ms and 7d`);
  return ms;
}

/** The schedule as delays in milliseconds; an empty text means no retry at all. */
export function parseRetrySchedule(text: string): number[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const delays = trimmed.split(',').map(parseDuration);
  if (delays.length > MAX_WEBHOOK_RETRIES)
    throw new Error(`at most ${MAX_WEBHOOK_RETRIES} retries, got ${delays.length}`);
  return delays;
}

/** The shortest spelling of a delay in the largest whole unit (300000 → `5m`, 86400000 → `24h`). */
export function formatRetryDelay(ms: number): string {
  for (const [unit, size] of [
    ['h', UNITS['h']!],
    ['m', UNITS['m']!],
    ['s', UNITS['s']!],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS: readonly number[] = parseRetrySchedule(DEFAULT_WEBHOOK_RETRY_SCHEDULE);
