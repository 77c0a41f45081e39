/**
 * POST /api/leads/export: the export is stored (requested), then the export stage is asked for it
 * on the export requests topic. If the request cannot be produced the export is marked failed.
 */
import type { ExportRepository } from '@leadstream/dal';
import {
  advanceExport,
  DomainError,
  EXPORT_ESTIMATE_MS,
  exportStatusOf,
  parseExportRequest,
  startExport,
  type ExportRecord,
  type TenantContext,
  type User,
} from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import { newId, TOPICS } from '@leadstream/runtime';
import { parseExportRequestMessage, type ExportRequestMessage } from '@leadstream/schemas';
import { newExportId } from './export-access';

export const EXPORT_REQUESTS_TOPIC = TOPICS.exportRequests;

export interface RequestExportDeps {
  exports: Pick<ExportRepository, 'insert' | 'applyTransition'>;
  log: Pick<EventLog, 'produce'>;
  clock: () => Date;
}

export interface RequestExportInput {
  tenant: TenantContext;
  actor: Pick<User, 'id'>;
  /** The request body, checked here. */
  body: unknown;
  /** The origin the download URL is built on (the request's). */
  baseUrl: string;
}

export async function requestExport(deps: RequestExportDeps, input: RequestExportInput): Promise<ExportRecord> {
  const parsed = parseExportRequest(input.body);
  if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid export request', parsed.details);
  const now = deps.clock();
  const id = newExportId();
  const { tenant } = input;
  const actor = startExport(id);
  const record: ExportRecord = {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    user_id: input.actor.id,
    format: parsed.request.format,
    filters: parsed.request.filters,
    fields: parsed.request.fields,
    status: exportStatusOf(actor.state),
    actor,
    row_count: null,
    file_id: null,
    base_url: input.baseUrl,
    download_url: null,
    created_at: now.toISOString(),
    estimated_completion: new Date(now.getTime() + EXPORT_ESTIMATE_MS).toISOString(),
    completed_at: null,
    expires_at: null,
    error: null,
    lease_until: null,
    version: 1,
    outbox: [],
  };
  // Stored before the command is produced, so the stage always finds what it is asked for.
  await deps.exports.insert(record);
  const message: ExportRequestMessage = parseExportRequestMessage({
    schema_version: 1,
    message_id: newId('msg'),
    export_id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    requested_at: record.created_at,
  });
  try {
    await deps.log.produce(EXPORT_REQUESTS_TOPIC, [{ key: id, value: JSON.stringify(message) }]);
  } catch (error) {
    // Nobody will ever generate it: say so rather than leave it processing forever.
    const failed = advanceExport(actor, { type: 'FAILED', error: 'The export could not be queued' });
    await deps.exports
      .applyTransition(
        tenant,
        id,
        record.version,
        { actor: failed, status: exportStatusOf(failed.state), error: 'The export could not be queued' },
        [],
      )
      .catch(() => null);
    throw new DomainError(
      'SERVICE_UNAVAILABLE',
      `Exports are unavailable right now; try again (${error instanceof Error ? error.name : 'error'})`,
    );
  }
  return record;
}
