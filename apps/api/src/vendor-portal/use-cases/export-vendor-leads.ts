/** GET /api/vendor-portal/export: the vendor's leads of a range of whole UTC days, as a CSV stream. */
import { pipeline, Readable, Transform } from 'node:stream';
import type { VendorReportRepository } from '@leadstream/dal';
import { startsLikeFormula } from '@leadstream/domain';
import { stringify, type Stringifier } from 'csv-stringify';
import { DAY_MS, type VendorCallerInput } from './vendor-report-access';

export const EXPORT_COLUMNS = ['id', 'email', 'status', 'submitted_at', 'rejection_reason'] as const;

export interface ExportVendorLeadsDeps {
  reports: Pick<VendorReportRepository, 'iterateForExport'>;
}

export interface ExportVendorLeadsInput extends VendorCallerInput {
  /** The UTC midnights of the first and last day, both included. */
  start: Date;
  end: Date;
}

/** Guards spreadsheet users against formula injection from submitted text (OWASP "CSV injection"). */
function cell(value: string | null): string {
  if (value === null) return '';
  return startsLikeFormula(value) ? `'${value}` : value;
}

/**
 * The CSV, header first. pipeline() tears the chain down when the stream is destroyed (the client
 * goes away), which ends the store's iterator and frees its read connection; a failure mid-stream
 * ends the stream early.
 */
export function exportVendorLeads(deps: ExportVendorLeadsDeps, input: ExportVendorLeadsInput): Stringifier {
  // Both dates are inclusive whole UTC days.
  const range = { from: input.start.toISOString(), to: new Date(input.end.getTime() + DAY_MS).toISOString() };
  const rows = deps.reports.iterateForExport(input.tenant, input.vendorId, range);
  const toRecord = new Transform({
    objectMode: true,
    transform(
      lead: { _id: string; email: string; status: string; submitted_at: string; rejection_reason: string | null },
      _encoding,
      done,
    ) {
      const reason = lead.rejection_reason ?? (lead.status === 'duplicate' ? 'duplicate' : null);
      done(null, [lead._id, cell(lead.email), lead.status, lead.submitted_at, reason ?? '']);
    },
  });
  const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS] });
  pipeline(Readable.from(rows), toRecord, csv, () => undefined);
  return csv;
}
