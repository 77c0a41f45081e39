/**
 * The clock volume caps count periods by: the system clock, shifted by `CAPS_CLOCK_OFFSET_MS`
 * when that is set (a whole number of milliseconds, may be negative). Tests set it to put a running
 * service just before or after a period boundary in a cap's zone without waiting for it
 * (docs/caps.md "Testing"); a deployment leaves it unset.
 */
export function capsClock(env: Readonly<Record<string, string | undefined>>): () => Date {
  const raw = env['CAPS_CLOCK_OFFSET_MS'];
  const offset = raw !== undefined && /^-?\d{1,15}$/.test(raw) ? Number(raw) : 0;
  return offset === 0 ? () => new Date() : () => new Date(Date.now() + offset);
}
