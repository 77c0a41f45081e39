/**
 * Lead exports (`exportLeads` POST /leads/export, `getExport`, event export.completed): the
 * request, the stored export, and how a lead becomes a CSV row. Pure; the api validates with
 * `parseExportRequest` and the export stage writes rows with `exportRow`.
 */
import type { ErrorDetail } from '../errors';
import { LEAD_STATUSES, type LeadRecord, type LeadStatus } from '../lead/lead';
import { leadFieldsExcept } from '../lead/lead-fields';
import { LEAD_LIST_FIELDS, parseDateBound } from '../lead/lead-list-query';
import type { Environment } from '../tenant';
import type { ExportStatus, PersistedExportActor } from './export.machine';

/** Export download lifetime: 24 hours after completion (410 EXPORT_EXPIRED after). */
export const EXPORT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** What the api promises before it knows the size (the export's `estimated_completion`). */
export const EXPORT_ESTIMATE_MS = 30_000;

export const EXPORT_FORMATS = ['csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Lead fields an export may hold, in the order of the lead resource (`Lead` in the OpenAPI
 * document), then the export-only `rejection_reason` (why a rejected lead was refused, e.g.
 * `suppressed`: docs/suppression-lists.md).
 */
export const EXPORT_FIELDS = [...leadFieldsExcept('vendor_name', 'deleted_at'), 'rejection_reason' as const];
export type ExportField = (typeof EXPORT_FIELDS)[number];

/** Without `fields`, the columns of the list response (`listLeads`; the list omits the rest). */
export const DEFAULT_EXPORT_FIELDS: readonly ExportField[] = LEAD_LIST_FIELDS;

/**
 * The list filters of GET /leads (`listLeads`), same names. Dates are normalized ISO strings:
 * `start_date` an inclusive, `end_date` an exclusive bound on created_at (see parseDateBound in
 * lead-list-query.ts).
 */
export interface ExportFilters {
  status?: LeadStatus;
  source?: string;
  vendor_id?: string;
  program?: string;
  start_date?: string;
  end_date?: string;
  search?: string;
}

const TEXT_FILTERS = ['source', 'vendor_id', 'program', 'search'] as const;
const FILTER_NAMES = ['status', ...TEXT_FILTERS, 'start_date', 'end_date'] as const;
const MAX_TEXT = 200;

export interface ExportRequest {
  format: ExportFormat;
  filters: ExportFilters;
  fields: ExportField[];
}

export type ParsedExportRequest = { ok: true; request: ExportRequest } | { ok: false; details: ErrorDetail[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the body of POST /leads/export; every problem is reported with its field. */
export function parseExportRequest(body: unknown): ParsedExportRequest {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body)) {
    if (!['format', 'filters', 'fields'].includes(key))
      details.push({ field: key, message: `${key} is not a known field` });
  }
  const format = body['format'] ?? 'csv';
  if (!(EXPORT_FORMATS as readonly unknown[]).includes(format))
    details.push({ field: 'format', message: `format must be one of ${EXPORT_FORMATS.join(', ')}` });

  const filters: ExportFilters = {};
  const rawFilters = body['filters'] ?? {};
  if (!isObject(rawFilters)) details.push({ field: 'filters', message: 'filters must be an object' });
  else {
    for (const [name, value] of Object.entries(rawFilters)) {
      const field = `filters.${name}`;
      if (!(FILTER_NAMES as readonly string[]).includes(name)) {
        details.push({ field, message: `${name} is not a known filter (${FILTER_NAMES.join(', ')})` });
        continue;
      }
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_TEXT) {
        details.push({ field, message: `${name} must be a non-empty string of at most ${MAX_TEXT} characters` });
        continue;
      }
      if (name === 'status') {
        if ((LEAD_STATUSES as readonly string[]).includes(value)) filters.status = value as LeadStatus;
        else details.push({ field, message: `status must be one of ${LEAD_STATUSES.join(', ')}` });
      } else if (name === 'start_date' || name === 'end_date') {
        const at = parseDateBound(value, name === 'start_date' ? 'start' : 'end');
        if (at === undefined) details.push({ field, message: `${name} must be an ISO 8601 date or date-time` });
        else filters[name] = at;
      } else {
        filters[name as (typeof TEXT_FILTERS)[number]] = value;
      }
    }
    if (filters.start_date && filters.end_date && filters.start_date >= filters.end_date) {
      details.push({ field: 'filters.start_date', message: 'start_date must be before end_date' });
    }
  }

  let fields: ExportField[] = [...DEFAULT_EXPORT_FIELDS];
  const rawFields = body['fields'];
  if (rawFields !== undefined && rawFields !== null) {
    if (!Array.isArray(rawFields) || rawFields.length === 0)
      details.push({ field: 'fields', message: 'fields must be a non-empty array of field names' });
    else {
      const unknown = rawFields.filter((name) => !(EXPORT_FIELDS as readonly unknown[]).includes(name));
      if (unknown.length > 0)
        details.push({
          field: 'fields',
          message: `unknown fields: ${unknown.map(String).join(', ')}; known: ${EXPORT_FIELDS.join(', ')}`,
        });
      else fields = [...new Set(rawFields as ExportField[])];
    }
  }
  if (details.length > 0) return { ok: false, details };
  return { ok: true, request: { format: format as ExportFormat, filters, fields } };
}

/** One output of the export actor kept with its state until produced (transactional outbox). */
export interface ExportOutboxEntry {
  topic: string;
  key: string;
  value: string;
}

/** An export as stored in the `exports` collection. */
export interface ExportRecord {
  _id: string;
  organization_id: string;
  environment: Environment;
  user_id: string;
  format: ExportFormat;
  filters: ExportFilters;
  fields: ExportField[];
  status: ExportStatus;
  actor: PersistedExportActor;
  row_count: number | null;
  /** Id of the CSV in the export file store; null until completed and again once expired. */
  file_id: string | null;
  /** Origin of the request that asked for it: download_url is `<base_url>/exports/<id>/download`. */
  base_url: string;
  download_url: string | null;
  created_at: string;
  estimated_completion: string;
  completed_at: string | null;
  /** A Date so the expiry sweep can range over it. */
  expires_at: Date | null;
  error: string | null;
  /**
   * While processing: until when the generating process holds the export. It renews the lease as
   * it writes; a sweep restarts an export whose lease ran out (the process died).
   */
  lease_until: Date | null;
  version: number;
  outbox: ExportOutboxEntry[];
}

export function exportDownloadUrl(baseUrl: string, exportId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/exports/${exportId}/download`;
}

/** The status as of `now`: a completed export past its lifetime is expired before the sweep gets to it. */
export function effectiveExportStatus(record: Pick<ExportRecord, 'status' | 'expires_at'>, now: Date): ExportStatus {
  if (record.status === 'completed' && record.expires_at && record.expires_at.getTime() <= now.getTime())
    return 'expired';
  return record.status;
}

/** The export object (`Export` in the OpenAPI document; plus `error` once failed). */
export function exportView(record: ExportRecord, now: Date): Record<string, unknown> {
  const status = effectiveExportStatus(record, now);
  const processing = status === 'processing';
  // A late export keeps promising a few seconds ahead rather than a time already past.
  const estimate = new Date(Math.max(Date.parse(record.estimated_completion), now.getTime() + 5_000)).toISOString();
  return {
    export_id: record._id,
    status,
    format: record.format,
    download_url: status === 'completed' ? record.download_url : null,
    ...(processing ? { estimated_completion: estimate } : {}),
    expires_at: record.expires_at ? record.expires_at.toISOString() : null,
    row_count: record.row_count,
    created_at: record.created_at,
    completed_at: record.completed_at,
    ...(status === 'failed' ? { error: record.error } : {}),
  };
}

/** Numbers (including E.164 phones) cannot be formulas; any other text starting like one is neutralised. */
const NUMBER = /^[+-]?\d+(\.\d+)?$/;
/**
 * What a spreadsheet may read as the start of a formula: = + - @, tab and CR, a pipe (a DDE
 * command in some spreadsheets), and the full-width ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20),
 * which some spreadsheets read as their ASCII forms.
 */
const FORMULA_START = /^[=+\-@\t\r|\uFF1D\uFF0B\uFF0D\uFF20]/;

/** True when a spreadsheet could run this text as a formula (OWASP "CSV injection"). */
export function startsLikeFormula(text: string): boolean {
  return FORMULA_START.test(text);
}

/** Guards spreadsheet users against formula injection (OWASP "CSV injection"), as the vendor portal does. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
  return startsLikeFormula(text) && !NUMBER.test(text) ? `'${text}` : text;
}

/** A lead as one CSV row of the requested fields. */
export function exportRow(lead: LeadRecord, fields: readonly ExportField[]): string[] {
  return fields.map((field) => csvCell(field === 'id' ? lead._id : lead[field]));
}
