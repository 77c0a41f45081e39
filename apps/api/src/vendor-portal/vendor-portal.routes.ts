/**
 * Vendor reporting (docs/decisions.md "Vendor portal"), for the calling key's vendor in the key's
 * environment only:
 *   GET /api/vendor-portal/daily-stats[?date=YYYY-MM-DD]
 *   GET /api/vendor-portal/summary/:year/:month
 *   GET /api/vendor-portal/export?start_date&end_date&format=csv
 * and the same under /sandbox. API key with `read` permission; errors in the ingestion convention.
 * Days and months are UTC and bound the lead's `created_at` (when the pipeline stored it).
 */
import Router from '@koa/router';
import type { Dal, VendorReportRepository } from '@leadstream/dal';
import { DomainError, type ErrorDetail } from '@leadstream/domain';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { apiKeyAuth, perApiKey, rateLimit, type ApiKeyAuthState } from '../auth';
import type { CachedConfig } from '../config/cached-config';
import { exportVendorLeads, getDailyVendorStats, getMonthlyVendorSummary, isoDate, parseUtcDate } from './use-cases';

export { EXPORT_COLUMNS, parseUtcDate } from './use-cases';

export interface VendorPortalDependencies {
  dal: Dal;
  /** Keys and vendors of authentication, from the configuration cache. */
  config: CachedConfig;
  reports: VendorReportRepository;
  /** Where authentication reports what it cannot let fail a request (a failed last_used_at write). */
  logger: Logger;
  clock?: () => Date;
}

type PortalContext = Context & { state: ApiKeyAuthState };

function invalid(details: ErrorDetail[]): DomainError {
  return new DomainError('VALIDATION_ERROR', 'Validation failed', details);
}

function queryText(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw invalid([{ field: name, message: `${name} must be given once` }]);
  return value === undefined || value === '' ? undefined : value;
}

function dateParam(ctx: Context, name: string): Date | undefined {
  // Absent means the default; present but empty (`?date=`) is not a date.
  const raw = ctx.query[name] === '' ? '' : queryText(ctx, name);
  if (raw === undefined) return undefined;
  const date = parseUtcDate(raw);
  if (!date) throw invalid([{ field: name, message: `${name} must be a date as YYYY-MM-DD` }]);
  return date;
}

/** The month of the summary path: every problem of the year and month at once. */
function monthParams(ctx: PortalContext): { year: number; month: number } {
  const rawYear = String(ctx.params['year']);
  const rawMonth = String(ctx.params['month']);
  const details: ErrorDetail[] = [];
  if (!/^\d{4}$/.test(rawYear) || Number(rawYear) < 1970)
    details.push({ field: 'year', message: 'year must be a four-digit year from 1970' });
  if (!/^\d{1,2}$/.test(rawMonth) || Number(rawMonth) < 1 || Number(rawMonth) > 12)
    details.push({ field: 'month', message: 'month must be 1-12' });
  if (details.length > 0) throw invalid(details);
  return { year: Number(rawYear), month: Number(rawMonth) };
}

/** The export's start_date, end_date (both required) and format (csv): every problem at once. */
function exportParams(ctx: PortalContext): { start: Date; end: Date } {
  const details: ErrorDetail[] = [];
  const problems = (run: () => void): void => {
    try {
      run();
    } catch (error) {
      if (error instanceof DomainError && error.details) details.push(...error.details);
      else throw error;
    }
  };
  let start: Date | undefined;
  let end: Date | undefined;
  problems(() => (start = dateParam(ctx, 'start_date')));
  problems(() => (end = dateParam(ctx, 'end_date')));
  const format = queryText(ctx, 'format') ?? 'csv';
  if (!start && !details.some((d) => d.field === 'start_date'))
    details.push({ field: 'start_date', message: 'start_date is required (YYYY-MM-DD)' });
  if (!end && !details.some((d) => d.field === 'end_date'))
    details.push({ field: 'end_date', message: 'end_date is required (YYYY-MM-DD)' });
  if (start && end && start > end)
    details.push({ field: 'start_date', message: 'start_date must not be after end_date' });
  if (format !== 'csv') details.push({ field: 'format', message: 'format must be csv' });
  if (details.length > 0 || !start || !end) throw invalid(details);
  return { start, end };
}

export function vendorPortalRouter(deps: VendorPortalDependencies): Router {
  const clock = deps.clock ?? (() => new Date());
  const router = new Router();
  const auth = apiKeyAuth<object>(
    { apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger },
    'read',
  );
  const general = rateLimit<ApiKeyAuthState>('general_api', deps.dal.rateLimiter, perApiKey, { clock });
  const exportLimit = rateLimit<ApiKeyAuthState>('export', deps.dal.rateLimiter, perApiKey, { clock });
  const useCaseDeps = { reports: deps.reports, clock };
  const callerOf = (ctx: PortalContext) => ({ tenant: ctx.state.tenant, vendorId: ctx.state.vendorId });

  const dailyStats = async (ctx: PortalContext): Promise<void> => {
    ctx.body = await getDailyVendorStats(useCaseDeps, { ...callerOf(ctx), day: dateParam(ctx, 'date') });
  };

  const summary = async (ctx: PortalContext): Promise<void> => {
    ctx.body = await getMonthlyVendorSummary(useCaseDeps, { ...callerOf(ctx), ...monthParams(ctx) });
  };

  const exportCsv = async (ctx: PortalContext): Promise<void> => {
    const { start, end } = exportParams(ctx);
    // Koa destroys the body when the client goes away, which tears the export's chain down.
    // A failure mid-stream can no longer change the status: the response ends early instead.
    const csv = exportVendorLeads(useCaseDeps, { ...callerOf(ctx), start, end });
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.attachment(`leads-${isoDate(start)}-to-${isoDate(end)}.csv`);
    ctx.body = csv;
  };

  for (const prefix of ['', '/sandbox']) {
    router.get(`${prefix}/api/vendor-portal/daily-stats`, auth, general, dailyStats);
    router.get(`${prefix}/api/vendor-portal/summary/:year/:month`, auth, general, summary);
    router.get(`${prefix}/api/vendor-portal/export`, auth, exportLimit, exportCsv);
  }
  return router;
}
