/**
 * Asynchronous lead exports of the user API (docs/decisions.md "Exports"):
 *   POST /api/leads/export                      store the export (requested), ask the export stage for it
 *   GET  /api/exports/:export_id                the export object (`Export`)
 *   GET  /api/exports/:export_id/download       the CSV (also at /exports/:export_id/download), with
 *                                               vendor_name beside vendor_id (vendor-names.ts)
 *
 * Exports belong to an organization: another organization's export is 404. A download answers
 * 409 EXPORT_NOT_READY while processing or after a failure and 410 EXPORT_EXPIRED once the 24 h
 * are over. docs/decisions.md "Exports" has the reasons.
 */
import { randomUUID } from 'node:crypto';
import type { ExportRepository, RateLimiter, VendorRepository } from '@leadstream/dal';
import {
  advanceExport,
  DomainError,
  effectiveExportStatus,
  EXPORT_ESTIMATE_MS,
  exportStatusOf,
  exportView,
  parseExportRequest,
  RATE_LIMITS,
  startExport,
  type ExportRecord,
} from '@leadstream/domain';
import type { EventLog, ExportFileStore } from '@leadstream/ports';
import { TOPICS } from '@leadstream/runtime';
import { parseExportRequestMessage, type ExportRequestMessage } from '@leadstream/schemas';
import type { ParameterizedContext } from 'koa';
import { defineRoute, rateLimit, UserRouter, type SessionGuard, type UserSessionState } from '../auth';
import { withVendorNames } from './vendor-names';

export const EXPORT_REQUESTS_TOPIC = TOPICS.exportRequests;

export interface ExportRoutesDependencies {
  guard: SessionGuard;
  exports: Pick<ExportRepository, 'insert' | 'findById' | 'applyTransition'>;
  files: Pick<ExportFileStore, 'get'>;
  /** The organization's vendors: a download names each vendor beside its id (vendor-names.ts). */
  vendors: Pick<VendorRepository, 'list'>;
  log: Pick<EventLog, 'produce'>;
  limiter: Pick<RateLimiter, 'consume'>;
  /** Export requests per minute per user (default 10). */
  exportLimit?: number;
  clock?: () => Date;
}

const newExportId = (): string => `export_${randomUUID().replace(/-/g, '')}`;

export function exportsRouter(deps: ExportRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const exportLimit = rateLimit<UserSessionState>(
    'export',
    deps.limiter,
    (ctx) => ({ subject: ctx.state.user.id, limit: deps.exportLimit ?? RATE_LIMITS.export }),
    { clock },
  );

  const load = async (ctx: ParameterizedContext<UserSessionState>): Promise<ExportRecord> => {
    const id = String(ctx.params['export_id']);
    const record = /^export_[A-Za-z0-9]{1,64}$/.test(id) ? await deps.exports.findById(ctx.state.tenant, id) : null;
    if (!record) throw new DomainError('NOT_FOUND', 'Export not found');
    return record;
  };

  defineRoute(router, { method: 'POST', path: '/api/leads/export', permission: 'leads:read' }, exportLimit, async (ctx) => {
    const parsed = parseExportRequest(ctx.request.body);
    if (!parsed.ok) throw new DomainError('VALIDATION_ERROR', 'Invalid export request', parsed.details);
    const now = clock();
    const id = newExportId();
    const tenant = ctx.state.tenant;
    const actor = startExport(id);
    const record: ExportRecord = {
      _id: id,
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      user_id: ctx.state.user.id,
      format: parsed.request.format,
      filters: parsed.request.filters,
      fields: parsed.request.fields,
      status: exportStatusOf(actor.state),
      actor,
      row_count: null,
      file_id: null,
      base_url: ctx.origin,
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
      message_id: `msg_${randomUUID().replace(/-/g, '')}`,
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
      await deps.exports.applyTransition(tenant, id, record.version, { actor: failed, status: exportStatusOf(failed.state), error: 'The export could not be queued' }, []).catch(() => null);
      throw new DomainError('SERVICE_UNAVAILABLE', `Exports are unavailable right now; try again (${error instanceof Error ? error.name : 'error'})`);
    }
    // 200 with the export's id and status (not 202), as `exportLeads` documents it and clients
    // expect.
    ctx.status = 200;
    ctx.body = { export_id: id, status: 'processing', download_url: null, estimated_completion: record.estimated_completion };
  });

  defineRoute(router, { method: 'GET', path: '/api/exports/:export_id', permission: 'leads:read' }, async (ctx) => {
    ctx.body = exportView(await load(ctx), clock());
  });

  const download = async (ctx: ParameterizedContext<UserSessionState>): Promise<void> => {
    const record = await load(ctx);
    const status = effectiveExportStatus(record, clock());
    if (status === 'expired') throw new DomainError('EXPORT_EXPIRED', 'The export download has expired (24 hours after completion); request a new export');
    if (status === 'processing') throw new DomainError('EXPORT_NOT_READY', 'The export is still processing; poll GET /api/exports/:export_id');
    if (status === 'failed') throw new DomainError('EXPORT_NOT_READY', 'The export failed; request a new export');
    const file = await deps.files.get(record.file_id ?? record._id);
    if (!file) throw new DomainError('EXPORT_EXPIRED', 'The export file is no longer available; request a new export');
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(`${record._id}.csv`);
    ctx.set('Cache-Control', 'private, no-store');
    const names = new Map((await deps.vendors.list(ctx.state.tenant)).map((vendor) => [vendor.id, vendor.name] as const));
    ctx.body = withVendorNames(file, names);
  };
  for (const path of ['/api/exports/:export_id/download', '/exports/:export_id/download']) {
    defineRoute(router, { method: 'GET', path, permission: 'leads:read' }, download);
  }
  return router;
}
