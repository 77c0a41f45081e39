/** What the vendor portal use cases share: whose numbers (the key's vendor in the key's environment) and the rate. */
import type { VendorOutcomeCounts, VendorReportRepository } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';

export const DAY_MS = 86_400_000;

/** The calling API key's tenant and vendor. */
export interface VendorCallerInput {
  tenant: TenantContext;
  vendorId: string;
}

export interface VendorReportDeps {
  reports: Pick<VendorReportRepository, 'countOutcomes'>;
}

/** Decided leads only: in-flight (`new`) leads count as submitted but not in the rate. */
export function acceptanceRate(counts: VendorOutcomeCounts): number {
  const decided = counts.accepted + counts.rejected;
  return decided === 0 ? 0 : Math.round((counts.accepted / decided) * 10_000) / 10_000;
}

export const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

/** A calendar date `YYYY-MM-DD` as the UTC midnight that starts it, or null when it is not a real date. */
export function parseUtcDate(raw: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC, which reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // Date.UTC rolls 2025-02-30 over to March: a date that does not round-trip does not exist.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}
