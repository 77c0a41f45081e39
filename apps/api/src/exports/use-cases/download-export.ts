/**
 * GET /api/exports/:export_id/download: the CSV of a completed export, with vendor_name beside
 * vendor_id (vendor-names.ts). EXPORT_NOT_READY while processing or after a failure,
 * EXPORT_EXPIRED once the 24 h are over or the file is gone.
 */
import type { Readable } from 'node:stream';
import type { ExportRepository, VendorRepository } from '@leadstream/dal';
import { DomainError, effectiveExportStatus, type TenantContext } from '@leadstream/domain';
import type { ExportFileStore } from '@leadstream/ports';
import { withVendorNames } from '../vendor-names';
import { findExport } from './export-access';

export interface DownloadExportDeps {
  exports: Pick<ExportRepository, 'findById'>;
  files: Pick<ExportFileStore, 'get'>;
  /** The organization's vendors: a download names each vendor beside its id. */
  vendors: Pick<VendorRepository, 'list'>;
  clock: () => Date;
}

export interface DownloadExportInput {
  tenant: TenantContext;
  exportId: string;
}

export interface DownloadExportResult {
  /** The file's name: `<export id>.csv`. */
  filename: string;
  csv: Readable;
}

export async function downloadExport(
  deps: DownloadExportDeps,
  input: DownloadExportInput,
): Promise<DownloadExportResult> {
  const record = await findExport(deps, input.tenant, input.exportId);
  const status = effectiveExportStatus(record, deps.clock());
  if (status === 'expired')
    throw new DomainError(
      'EXPORT_EXPIRED',
      'The export download has expired (24 hours after completion); request a new export',
    );
  if (status === 'processing')
    throw new DomainError('EXPORT_NOT_READY', 'The export is still processing; poll GET /api/exports/:export_id');
  if (status === 'failed') throw new DomainError('EXPORT_NOT_READY', 'The export failed; request a new export');
  const file = await deps.files.get(record.file_id ?? record._id);
  if (!file) throw new DomainError('EXPORT_EXPIRED', 'The export file is no longer available; request a new export');
  const names = new Map((await deps.vendors.list(input.tenant)).map((vendor) => [vendor.id, vendor.name] as const));
  return { filename: `${record._id}.csv`, csv: withVendorNames(file, names) };
}
