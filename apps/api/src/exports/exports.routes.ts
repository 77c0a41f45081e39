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
import type { ExportRepository, RateLimiter, VendorRepository } from '@leadstream/dal';
import { exportView, RATE_LIMITS } from '@leadstream/domain';
import type { EventLog, ExportFileStore } from '@leadstream/ports';
import type { ParameterizedContext } from 'koa';
import { defineRoute, rateLimit, UserRouter, type SessionGuard, type UserSessionState } from '../auth';
import { downloadExport, getExport, requestExport } from './use-cases';

export { EXPORT_REQUESTS_TOPIC } from './use-cases';

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

export function exportsRouter(deps: ExportRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);
  const exportLimit = rateLimit<UserSessionState>(
    'export',
    deps.limiter,
    (ctx) => ({ subject: ctx.state.user.id, limit: deps.exportLimit ?? RATE_LIMITS.export }),
    { clock },
  );
  const useCaseDeps = { exports: deps.exports, files: deps.files, vendors: deps.vendors, log: deps.log, clock };

  defineRoute(
    router,
    { method: 'POST', path: '/api/leads/export', permission: 'leads:read' },
    exportLimit,
    async (ctx) => {
      const record = await requestExport(useCaseDeps, {
        tenant: ctx.state.tenant,
        actor: ctx.state.user,
        body: ctx.request.body,
        baseUrl: ctx.origin,
      });
      // 200 with the export's id and status (not 202), as `exportLeads` documents it and clients
      // expect.
      ctx.status = 200;
      ctx.body = {
        export_id: record._id,
        status: 'processing',
        download_url: null,
        estimated_completion: record.estimated_completion,
      };
    },
  );

  defineRoute(router, { method: 'GET', path: '/api/exports/:export_id', permission: 'leads:read' }, async (ctx) => {
    ctx.body = exportView(
      await getExport(useCaseDeps, { tenant: ctx.state.tenant, exportId: String(ctx.params['export_id']) }),
      clock(),
    );
  });

  const download = async (ctx: ParameterizedContext<UserSessionState>): Promise<void> => {
    const { filename, csv } = await downloadExport(useCaseDeps, {
      tenant: ctx.state.tenant,
      exportId: String(ctx.params['export_id']),
    });
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(filename);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = csv;
  };
  for (const path of ['/api/exports/:export_id/download', '/exports/:export_id/download']) {
    defineRoute(router, { method: 'GET', path, permission: 'leads:read' }, download);
  }
  return router;
}
