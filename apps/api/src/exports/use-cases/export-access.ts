/** What the export use cases share: finding an export of the organization, and new ids. */
import { randomUUID } from 'node:crypto';
import type { ExportRepository } from '@leadstream/dal';
import { DomainError, type ExportRecord, type TenantContext } from '@leadstream/domain';

export const exportNotFound = (): DomainError => new DomainError('NOT_FOUND', 'Export not found');

export const newExportId = (): string => `export_${randomUUID().replace(/-/g, '')}`;

/** The export `exportId` of the tenant; another organization's export (or a malformed id) is NOT_FOUND. */
export async function findExport(
  deps: { exports: Pick<ExportRepository, 'findById'> },
  tenant: TenantContext,
  exportId: string,
): Promise<ExportRecord> {
  const record = /^export_[A-Za-z0-9]{1,64}$/.test(exportId) ? await deps.exports.findById(tenant, exportId) : null;
  if (!record) throw exportNotFound();
  return record;
}
