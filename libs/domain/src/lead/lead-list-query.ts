/**
 * The query of GET /leads (`listLeads`) and the two views of a lead: the list omits landing_page,
 * referrer, utm_term, utm_content, vendor_name, validation_status, duplicate_of, the crm fields and
 * deleted_at; get-by-id (`getLead`) shows every field of the lead. Pipeline bookkeeping (actor,
 * outbox, version, blocking keys, search copies...) appears in neither.
 */
import type { ErrorDetail } from '../errors';
import { normalizeSearchText, SEARCH_MIN_PHONE_DIGITS, SEARCH_MIN_TEXT } from './lead-search';
import { LEAD_STATUSES, type LeadStatus } from './lead';
import { leadFields, leadFieldsExcept } from './lead-fields';

/** Fields of a lead in the list response, in the order they are shown. */
export const LEAD_LIST_FIELDS = leadFieldsExcept(
  'vendor_name',
  'landing_page',
  'referrer',
  'utm_term',
  'utm_content',
  'validation_status',
  'duplicate_of',
  'crm_sync_status',
  'crm_id',
  'crm_synced_at',
  'deleted_at',
);

/** Every field of the lead resource (get-by-id). `vendor_name` is looked up from the vendor. */
export const LEAD_DETAIL_FIELDS = [
  ...LEAD_LIST_FIELDS,
  ...leadFields(
    'vendor_name',
    'landing_page',
    'referrer',
    'utm_term',
    'utm_content',
    'validation_status',
    'duplicate_of',
    'crm_sync_status',
    'crm_id',
    'crm_synced_at',
    'deleted_at',
  ),
] as const;

/** Any scalar field of the list can sort it (objects cannot). */
export const LEAD_SORT_FIELDS = LEAD_LIST_FIELDS.filter(
  (field) => field !== 'custom_fields' && field !== 'enrichment_data',
);
export type LeadSortField = (typeof LEAD_SORT_FIELDS)[number];

export const LEAD_LIST_DEFAULT_LIMIT = 20;
export const LEAD_LIST_MAX_LIMIT = 100;
const MAX_SEARCH = 200;

/**
 * How `search` is matched (docs/decisions.md "Lead search"): 3 or more characters anywhere in the
 * email or the full name, accents and case dropped, and 4 or more digits of a phone-like search
 * anywhere in the phone; one or two characters at the start of the email, first or last name.
 */
export interface LeadSearch {
  mode: 'contains' | 'prefix';
  /** contains: normalized (normalizeSearchText); prefix: lowercase, as the lowercase copies. */
  text: string;
  /** The digits to find in the phone (contains only): the search has phone characters only and 4+ digits. */
  phoneDigits: string | null;
}

export interface LeadListQuery {
  page: number;
  limit: number;
  sortBy: LeadSortField;
  sortOrder: 'asc' | 'desc';
  status?: LeadStatus;
  source?: string;
  vendor_id?: string;
  program?: string;
  /** ISO timestamps, inclusive: created_at >= createdFrom. */
  createdFrom?: string;
  /** Exclusive upper bound: created_at < createdBefore. */
  createdBefore?: string;
  search?: LeadSearch;
}

const KNOWN = [
  'page',
  'limit',
  'sortBy',
  'sortOrder',
  'status',
  'source',
  'vendor_id',
  'program',
  'start_date',
  'end_date',
  'search',
] as const;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const PHONE_TEXT = /^[\d\s().+\-/]+$/;

export type LeadListQueryParse = { ok: true; query: LeadListQuery } | { ok: false; details: ErrorDetail[] };

/**
 * Parses the query string. Unknown or repeated parameters are refused (400), like unknown body
 * fields, so a misspelt filter is reported rather than silently ignored.
 */
export function parseLeadListQuery(raw: Readonly<Record<string, string | string[] | undefined>>): LeadListQueryParse {
  const details: ErrorDetail[] = [];
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (!(KNOWN as readonly string[]).includes(key))
      details.push({ field: key, message: `${key} is not a known query parameter` });
    else if (Array.isArray(value)) details.push({ field: key, message: `${key} must be given once` });
    else values[key] = value;
  }

  const integer = (key: string, fallback: number, min: number, max: number): number => {
    const text = values[key];
    if (text === undefined || text === '') return fallback;
    const number = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      details.push({ field: key, message: `${key} must be an integer from ${min} to ${max}` });
      return fallback;
    }
    return number;
  };
  const query: LeadListQuery = {
    page: integer('page', 1, 1, 1_000_000),
    limit: integer('limit', LEAD_LIST_DEFAULT_LIMIT, 1, LEAD_LIST_MAX_LIMIT),
    sortBy: 'created_at',
    sortOrder: 'desc',
  };

  const sortBy = values['sortBy'];
  if (sortBy !== undefined && sortBy !== '') {
    if ((LEAD_SORT_FIELDS as readonly string[]).includes(sortBy)) query.sortBy = sortBy as LeadSortField;
    else details.push({ field: 'sortBy', message: `sortBy must be one of ${LEAD_SORT_FIELDS.join(', ')}` });
  }
  const sortOrder = values['sortOrder'];
  if (sortOrder !== undefined && sortOrder !== '') {
    if (sortOrder === 'asc' || sortOrder === 'desc') query.sortOrder = sortOrder;
    else details.push({ field: 'sortOrder', message: 'sortOrder must be asc or desc' });
  }
  const status = values['status'];
  if (status !== undefined && status !== '') {
    if ((LEAD_STATUSES as readonly string[]).includes(status)) query.status = status as LeadStatus;
    else details.push({ field: 'status', message: `status must be one of ${LEAD_STATUSES.join(', ')}` });
  }
  for (const key of ['source', 'vendor_id', 'program'] as const) {
    const value = values[key];
    if (value !== undefined && value !== '') query[key] = value;
  }

  const start = values['start_date'];
  if (start !== undefined && start !== '') {
    const at = parseDateBound(start, 'start');
    if (at) query.createdFrom = at;
    else details.push({ field: 'start_date', message: 'start_date must be an ISO 8601 date or date-time' });
  }
  const end = values['end_date'];
  if (end !== undefined && end !== '') {
    const at = parseDateBound(end, 'end');
    if (at) query.createdBefore = at;
    else details.push({ field: 'end_date', message: 'end_date must be an ISO 8601 date or date-time' });
  }
  if (query.createdFrom && query.createdBefore && query.createdFrom >= query.createdBefore) {
    details.push({ field: 'start_date', message: 'start_date must be before end_date' });
  }

  const search = values['search']?.trim();
  if (search !== undefined && search !== '') {
    if ((values['search'] ?? '').length > MAX_SEARCH)
      details.push({ field: 'search', message: `search must be at most ${MAX_SEARCH} characters` });
    else query.search = parseLeadSearch(search);
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, query };
}

/**
 * A date-only `start_date` starts at 00:00 UTC of that day; a date-only `end_date` includes the
 * whole day (the bound is the next midnight, exclusive). A date-time is taken as given (an
 * `end_date` date-time is inclusive: the bound is one millisecond later).
 */
export function parseDateBound(text: string, side: 'start' | 'end'): string | undefined {
  if (DATE_ONLY.test(text)) {
    const day = Date.parse(`${text}T00:00:00.000Z`);
    if (Number.isNaN(day) || new Date(day).toISOString().slice(0, 10) !== text) return undefined;
    return new Date(side === 'start' ? day : day + 86_400_000).toISOString();
  }
  if (!DATE_TIME.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return new Date(side === 'start' ? at : at + 1).toISOString();
}

/** `search` as the list and exports match it (trimmed, non-empty text). */
export function parseLeadSearch(search: string): LeadSearch {
  const text = normalizeSearchText(search);
  if ([...text].length < SEARCH_MIN_TEXT)
    return { mode: 'prefix', text: search.trim().toLowerCase(), phoneDigits: null };
  const digits = PHONE_TEXT.test(search) ? search.replace(/\D/g, '') : '';
  return { mode: 'contains', text, phoneDigits: digits.length >= SEARCH_MIN_PHONE_DIGITS ? digits : null };
}
