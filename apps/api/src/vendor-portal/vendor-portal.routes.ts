/**
 * Vendor reporting (docs/decisions.md "Vendor portal"), for the calling key's vendor in the key's
 * environment only:
 *   GET /api/vendor-portal/daily-stats[?date=YYYY-MM-DD]
 *   GET /api/vendor-portal/summary/:year/:month
 *   GET /api/vendor-portal/export?start_date&end_date&format=csv
 * and the same under /sandbox. API key with `read` permission; errors in the ingestion convention.
 * Days and months are UTC and bound the lead's `created_at` (when the pipeline stored it).
 */
import { pipeline, Readable, Transform } from 'node:stream';
import Router from '@koa/router';
import type { Dal, VendorOutcomeCounts, VendorReportRepository } from '@leadstream/dal';
import { DomainError, startsLikeFormula, type ErrorDetail } from '@leadstream/domain';
import { stringify } from 'csv-stringify';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { apiKeyAuth, perApiKey, rateLimit, type ApiKeyAuthState } from '../auth';
import type { CachedConfig } from '../config/cached-config';

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

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const EXPORT_COLUMNS = ['id', 'email', 'status', 'submitted_at', 'rejection_reason'] as const;

function invalid(details: ErrorDetail[]): DomainError {
  return new DomainError('VALIDATION_ERROR', 'Validation failed', details);
}

/** A calendar date `YYYY-MM-DD` as the UTC midnight that starts it, or null when it is not a real date. */
export function parseUtcDate(raw: string): Date | null {
  const match = DATE.exec(raw);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC, which reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  // Date.UTC rolls 2025-02-30 over to March: a date that does not round-trip does not exist.
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}

const isoDate = (date: Date): string => date.toISOString().slice(0, 10);

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

/** Decided leads only: in-flight (`new`) leads count as submitted but not in the rate. */
function acceptanceRate(counts: VendorOutcomeCounts): number {
  const decided = counts.accepted + counts.rejected;
  return decided === 0 ? 0 : Math.round((counts.accepted / decided) * 10_000) / 10_000;
}

/** Guards spreadsheet users against formula injection from submitted text (OWASP "CSV injection"). */
function cell(value: string | null): string {
  if (value === null) return '';
  return startsLikeFormula(value) ? `'${value}` : value;
}

export function vendorPortalRouter(deps: VendorPortalDependencies): Router {
  const clock = deps.clock ?? (() => new Date());
  const router = new Router();
  const auth = apiKeyAuth<object>({ apiKeys: deps.config.apiKeys, vendors: deps.config.vendors, clock, logger: deps.logger }, 'read');
  const general = rateLimit<ApiKeyAuthState>('general_api', deps.dal.rateLimiter, perApiKey, { clock });
  const exportLimit = rateLimit<ApiKeyAuthState>('export', deps.dal.rateLimiter, perApiKey, { clock });

  const dailyStats = async (ctx: PortalContext): Promise<void> => {
    const day = dateParam(ctx, 'date') ?? parseUtcDate(isoDate(clock()));
    if (!day) throw new Error('clock gave an invalid date');
    const counts = await deps.reports.countOutcomes(ctx.state.tenant, ctx.state.vendorId, {
      from: day.toISOString(),
      to: new Date(day.getTime() + DAY_MS).toISOString(),
    });
    ctx.body = {
      date: isoDate(day),
      submitted: counts.submitted,
      accepted: counts.accepted,
      rejected: counts.rejected,
      pending: counts.pending,
      acceptance_rate: acceptanceRate(counts),
    };
  };

  const summary = async (ctx: PortalContext): Promise<void> => {
    const rawYear = String(ctx.params['year']);
    const rawMonth = String(ctx.params['month']);
    const details: ErrorDetail[] = [];
    if (!/^\d{4}$/.test(rawYear) || Number(rawYear) < 1970) details.push({ field: 'year', message: 'year must be a four-digit year from 1970' });
    if (!/^\d{1,2}$/.test(rawMonth) || Number(rawMonth) < 1 || Number(rawMonth) > 12) details.push({ field: 'month', message: 'month must be 1-12' });
    if (details.length > 0) throw invalid(details);
    const year = Number(rawYear);
    const month = Number(rawMonth);
    const counts = await deps.reports.countOutcomes(ctx.state.tenant, ctx.state.vendorId, {
      from: new Date(Date.UTC(year, month - 1, 1)).toISOString(),
      to: new Date(Date.UTC(year, month, 1)).toISOString(),
    });
    ctx.body = {
      year,
      month,
      submitted: counts.submitted,
      accepted: counts.accepted,
      rejected: counts.rejected,
      pending: counts.pending,
      acceptance_rate: acceptanceRate(counts),
      rejection_breakdown: counts.rejection_breakdown,
    };
  };

  const exportCsv = async (ctx: PortalContext): Promise<void> => {
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
    if (!start && !details.some((d) => d.field === 'start_date')) details.push({ field: 'start_date', message: 'start_date is required (YYYY-MM-DD)' });
    if (!end && !details.some((d) => d.field === 'end_date')) details.push({ field: 'end_date', message: 'end_date is required (YYYY-MM-DD)' });
    if (start && end && start > end) details.push({ field: 'start_date', message: 'start_date must not be after end_date' });
    if (format !== 'csv') details.push({ field: 'format', message: 'format must be csv' });
    if (details.length > 0 || !start || !end) throw invalid(details);

    // Both dates are inclusive whole UTC days.
    const range = { from: start.toISOString(), to: new Date(end.getTime() + DAY_MS).toISOString() };
    const rows = deps.reports.iterateForExport(ctx.state.tenant, ctx.state.vendorId, range);
    const toRecord = new Transform({
      objectMode: true,
      transform(lead: { _id: string; email: string; status: string; submitted_at: string; rejection_reason: string | null }, _encoding, done) {
        const reason = lead.rejection_reason ?? (lead.status === 'duplicate' ? 'duplicate' : null);
        done(null, [lead._id, cell(lead.email), lead.status, lead.submitted_at, reason ?? '']);
      },
    });
    const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS] });
    // pipeline() tears the chain down when the client goes away (Koa destroys the body), which
    // ends the store's iterator and frees its read connection. A failure mid-stream can no longer
    // change the status: the response ends early instead.
    pipeline(Readable.from(rows), toRecord, csv, () => undefined);
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
