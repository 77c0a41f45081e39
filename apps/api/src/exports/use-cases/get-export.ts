/** GET /api/exports/:export_id: the export of the organization. */
import type { ExportRepository } from '@leadstream/dal';
import type { ExportRecord, TenantContext } from '@leadstream/domain';
import { findExport } from './export-access';

export interface GetExportDeps {
  exports: Pick<ExportRepository, 'findById'>;
}

export interface GetExportInput {
  tenant: TenantContext;
  exportId: string;
}

export async function getExport(deps: GetExportDeps, input: GetExportInput): Promise<ExportRecord> {
  return findExport(deps, input.tenant, input.exportId);
}
