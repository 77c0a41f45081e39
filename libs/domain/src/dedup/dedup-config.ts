import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';

/** Deduplication configuration (docs/decisions.md "Deduplication"), as served by `GET /api/dedup` and changed by `POST /api/dedup`. */

export const DEDUP_WINDOW_HOURS = [1, 24, 168, 720] as const;
/** `null` is "all time"; the API also accepts the string `"all"` for it. */
export type DedupWindowHours = (typeof DEDUP_WINDOW_HOURS)[number] | null;

export const DEDUP_ACTIONS = ['reject', 'merge', 'link-to-existing', 'flag', 'allow'] as const;
export type DedupAction = (typeof DEDUP_ACTIONS)[number];

export const DEDUP_ALGORITHMS = [
  'exact',
  'levenshtein',
  'jaro_winkler',
  'soundex',
  'email_normalized',
  'phone_digits',
] as const;
export type DedupAlgorithm = (typeof DEDUP_ALGORITHMS)[number];

export const DEDUP_COMBINATIONS = ['and', 'or', 'weighted'] as const;
export type DedupCombination = (typeof DEDUP_COMBINATIONS)[number];

export const DEDUP_SCOPES = ['all_vendors', 'within_vendor', 'vendor_group'] as const;
export type DedupScope = (typeof DEDUP_SCOPES)[number];

export const DEDUP_STANDARD_FIELDS = ['email', 'phone', 'first_name', 'last_name', 'name'] as const;
/** `name` is "first last" compared as one string; `custom_fields.<key>` reads a custom field. */
export type DedupMatchFieldName = (typeof DEDUP_STANDARD_FIELDS)[number] | `custom_fields.${string}`;

export interface DedupMatchField {
  field: DedupMatchFieldName;
  algorithm: DedupAlgorithm;
  /** Required for every field when `combination` is `weighted` (weights sum to 1); ignored otherwise. */
  weight?: number;
}

export interface DedupVendorOverride {
  window_hours?: DedupWindowHours;
  threshold?: number;
  action?: DedupAction;
  /**
   * By default a lead is compared only with leads of vendors of the same type (an application with
   * applications, an inquiry with inquiries): a person's application after their inquiry is the
   * conversion the funnel measures, not a duplicate. `true` compares this vendor's leads with leads of
   * every vendor type.
   */
  compare_across_types?: boolean;
}

export interface DedupConfig {
  enabled: boolean;
  /** 0-100; a candidate whose final score is >= threshold is a duplicate. */
  threshold: number;
  window_hours: DedupWindowHours;
  action: DedupAction;
  match_fields: DedupMatchField[];
  combination: DedupCombination;
  scope: DedupScope;
  /** Keyed by vendor id. */
  vendor_overrides: Record<string, DedupVendorOverride>;
}

/**
 * Default: the same normalized email, or the same phone digits, is a duplicate (`or`).
 * - `or` because users expect "same email = duplicate" on its own: under `and` a changed phone number
 *   hides a resubmission, under `weighted` the other fields dilute the email below the threshold.
 * - No name rule by default: under `or` a name decides alone, and Jaro-Winkler scores distinct people
 *   above 85 ("John Smith"/"Jane Smith" 88, "Maria Garcia"/"Mario Garcia" 90.3); with `reject` as the
 *   default action that loses real leads. Add `{ field: 'name', algorithm: 'jaro_winkler' }` (or use
 *   `weighted`) to match on names.
 */
export const DEFAULT_DEDUP_CONFIG: DedupConfig = {
  enabled: true,
  threshold: 85,
  window_hours: 24,
  action: 'reject',
  match_fields: [
    { field: 'email', algorithm: 'email_normalized' },
    { field: 'phone', algorithm: 'phone_digits' },
  ],
  combination: 'or',
  scope: 'all_vendors',
  vendor_overrides: {},
};

/** Tolerance on "weights sum to 1" (floating point: 0.1 + 0.2 !== 0.3). */
export const DEDUP_WEIGHT_SUM_TOLERANCE = 1e-9;
/** More fields than this is a configuration mistake, not a use case. */
export const DEDUP_MAX_MATCH_FIELDS = 20;

const CONFIG_KEYS = [
  'enabled',
  'threshold',
  'window_hours',
  'action',
  'match_fields',
  'combination',
  'scope',
  'vendor_overrides',
] as const;
const MATCH_FIELD_KEYS = ['field', 'algorithm', 'weight'] as const;
const OVERRIDE_KEYS = ['window_hours', 'threshold', 'action', 'compare_across_types'] as const;
const STORABLE_KEY = /^(?!\$)[^.]*$/;
const CUSTOM_FIELD_PATTERN = /^custom_fields\.[A-Za-z0-9_-]+$/;

export type DedupConfigParseResult = { ok: true; config: DedupConfig } | { ok: false; details: ErrorDetail[] };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function includes<T extends string | number>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

function rejectUnknownKeys(
  obj: Record<string, unknown>,
  allowed: readonly string[],
  prefix: string,
  details: ErrorDetail[],
): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) details.push({ field: `${prefix}${key}`, message: 'is not a known field' });
  }
}

function parseThreshold(value: unknown, field: string, details: ErrorDetail[]): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    details.push({ field, message: 'must be a number between 0 and 100' });
    return undefined;
  }
  return value;
}

/** `undefined` means invalid (a detail was pushed); `null` is "all time". */
function parseWindow(value: unknown, field: string, details: ErrorDetail[]): DedupWindowHours | undefined {
  if (value === null || value === 'all') return null;
  if (includes(DEDUP_WINDOW_HOURS, value)) return value;
  details.push({ field, message: `must be one of ${DEDUP_WINDOW_HOURS.join(', ')} or "all"` });
  return undefined;
}

function parseAction(value: unknown, field: string, details: ErrorDetail[]): DedupAction | undefined {
  if (includes(DEDUP_ACTIONS, value)) return value;
  details.push({ field, message: `must be one of ${DEDUP_ACTIONS.join(', ')}` });
  return undefined;
}

function isMatchFieldName(value: unknown): value is DedupMatchFieldName {
  return includes(DEDUP_STANDARD_FIELDS, value) || (typeof value === 'string' && CUSTOM_FIELD_PATTERN.test(value));
}

function parseMatchFields(value: unknown, details: ErrorDetail[]): DedupMatchField[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    details.push({ field: 'match_fields', message: 'must be a non-empty array' });
    return undefined;
  }
  if (value.length > DEDUP_MAX_MATCH_FIELDS) {
    details.push({ field: 'match_fields', message: `must have at most ${DEDUP_MAX_MATCH_FIELDS} entries` });
    return undefined;
  }
  const before = details.length;
  const fields: DedupMatchField[] = [];
  const seen = new Set<string>();
  value.forEach((item: unknown, index) => {
    const at = `match_fields[${index}]`;
    if (!isPlainObject(item)) {
      details.push({ field: at, message: 'must be an object with field and algorithm' });
      return;
    }
    rejectUnknownKeys(item, MATCH_FIELD_KEYS, `${at}.`, details);
    const { field, algorithm, weight } = item;
    let ok = true;
    if (!isMatchFieldName(field)) {
      details.push({
        field: `${at}.field`,
        message: `must be one of ${DEDUP_STANDARD_FIELDS.join(', ')} or custom_fields.<key>`,
      });
      ok = false;
    } else if (seen.has(field)) {
      // Each field is reported once in the log's match_fields{<field>:{score,method}}.
      details.push({ field: `${at}.field`, message: `${field} is listed more than once` });
      ok = false;
    } else {
      seen.add(field);
    }
    if (!includes(DEDUP_ALGORITHMS, algorithm)) {
      details.push({ field: `${at}.algorithm`, message: `must be one of ${DEDUP_ALGORITHMS.join(', ')}` });
      ok = false;
    } else if (typeof field === 'string' && !algorithmFitsField(algorithm, field)) {
      details.push({ field: `${at}.algorithm`, message: `${algorithm} does not apply to ${field}` });
      ok = false;
    }
    if (weight !== undefined && (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0 || weight > 1)) {
      details.push({ field: `${at}.weight`, message: 'must be a number between 0 and 1' });
      ok = false;
    }
    if (ok && isMatchFieldName(field) && includes(DEDUP_ALGORITHMS, algorithm)) {
      fields.push(typeof weight === 'number' ? { field, algorithm, weight } : { field, algorithm });
    }
  });
  return details.length === before ? fields : undefined;
}

/** email_normalized only on email (or a custom field holding one); phone_digits likewise for phones. */
function algorithmFitsField(algorithm: DedupAlgorithm, field: string): boolean {
  if (algorithm === 'email_normalized') return field === 'email' || field.startsWith('custom_fields.');
  if (algorithm === 'phone_digits') return field === 'phone' || field.startsWith('custom_fields.');
  return true;
}

function parseVendorOverrides(value: unknown, details: ErrorDetail[]): Record<string, DedupVendorOverride> | undefined {
  if (!isPlainObject(value)) {
    details.push({ field: 'vendor_overrides', message: 'must be an object keyed by vendor id' });
    return undefined;
  }
  const before = details.length;
  const overrides: Record<string, DedupVendorOverride> = {};
  for (const [vendorId, raw] of Object.entries(value)) {
    const at = `vendor_overrides.${vendorId}`;
    if (trimBlank(vendorId) === '') {
      details.push({ field: 'vendor_overrides', message: 'vendor id must not be empty' });
      continue;
    }
    // Keys are stored as keys: no '.' and no leading '$' (MongoDB-protocol servers refuse them).
    if (!STORABLE_KEY.test(vendorId)) {
      details.push({
        field: 'vendor_overrides',
        message: `vendor id ${JSON.stringify(vendorId)} may not contain '.' or start with '$'`,
      });
      continue;
    }
    if (!isPlainObject(raw)) {
      details.push({
        field: at,
        message: 'must be an object with window_hours, threshold, action and/or compare_across_types',
      });
      continue;
    }
    rejectUnknownKeys(raw, OVERRIDE_KEYS, `${at}.`, details);
    const override: DedupVendorOverride = {};
    if ('window_hours' in raw) {
      const w = parseWindow(raw.window_hours, `${at}.window_hours`, details);
      if (w !== undefined) override.window_hours = w;
    }
    if ('threshold' in raw) {
      const t = parseThreshold(raw.threshold, `${at}.threshold`, details);
      if (t !== undefined) override.threshold = t;
    }
    if ('action' in raw) {
      const a = parseAction(raw.action, `${at}.action`, details);
      if (a !== undefined) override.action = a;
    }
    if ('compare_across_types' in raw) {
      if (typeof raw.compare_across_types === 'boolean') override.compare_across_types = raw.compare_across_types;
      else details.push({ field: `${at}.compare_across_types`, message: 'must be true or false' });
    }
    overrides[vendorId] = override;
  }
  return details.length === before ? overrides : undefined;
}

/**
 * Applies a `POST /api/dedup` body to the current configuration. Keys absent from the body keep their
 * current value; `match_fields` and `vendor_overrides`, when given, replace the whole list/map.
 * Weighted-sum rules are checked on the resulting configuration, so switching `combination` to
 * `weighted` without weights on the current fields is an error on `match_fields`.
 */
export function parseDedupConfigUpdate(input: unknown, current: DedupConfig): DedupConfigParseResult {
  const details: ErrorDetail[] = [];
  if (!isPlainObject(input)) {
    return { ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] };
  }
  rejectUnknownKeys(input, CONFIG_KEYS, '', details);

  const next: DedupConfig = {
    ...current,
    match_fields: current.match_fields.map((f) => ({ ...f })),
    vendor_overrides: { ...current.vendor_overrides },
  };

  if ('enabled' in input) {
    if (typeof input.enabled === 'boolean') next.enabled = input.enabled;
    else details.push({ field: 'enabled', message: 'must be a boolean' });
  }
  if ('threshold' in input) {
    const t = parseThreshold(input.threshold, 'threshold', details);
    if (t !== undefined) next.threshold = t;
  }
  if ('window_hours' in input) {
    const w = parseWindow(input.window_hours, 'window_hours', details);
    if (w !== undefined) next.window_hours = w;
  }
  if ('action' in input) {
    const a = parseAction(input.action, 'action', details);
    if (a !== undefined) next.action = a;
  }
  if ('combination' in input) {
    if (includes(DEDUP_COMBINATIONS, input.combination)) next.combination = input.combination;
    else details.push({ field: 'combination', message: `must be one of ${DEDUP_COMBINATIONS.join(', ')}` });
  }
  if ('scope' in input) {
    if (includes(DEDUP_SCOPES, input.scope)) next.scope = input.scope;
    else details.push({ field: 'scope', message: `must be one of ${DEDUP_SCOPES.join(', ')}` });
  }
  let matchFieldsValid = true;
  if ('match_fields' in input) {
    const fields = parseMatchFields(input.match_fields, details);
    if (fields !== undefined) next.match_fields = fields;
    else matchFieldsValid = false;
  }
  if ('vendor_overrides' in input) {
    const overrides = parseVendorOverrides(input.vendor_overrides, details);
    if (overrides !== undefined) next.vendor_overrides = overrides;
  }

  if (next.combination === 'weighted' && matchFieldsValid) {
    const missing = next.match_fields.filter((f) => typeof f.weight !== 'number');
    if (missing.length > 0) {
      details.push({
        field: 'match_fields',
        message: `weighted combination needs a weight on every field (missing on ${missing.map((f) => f.field).join(', ')})`,
      });
    } else {
      const sum = next.match_fields.reduce((acc, f) => acc + (f.weight ?? 0), 0);
      if (Math.abs(sum - 1) > DEDUP_WEIGHT_SUM_TOLERANCE) {
        details.push({
          field: 'match_fields',
          message: `weights must sum to 1 (they sum to ${Number(sum.toFixed(6))})`,
        });
      }
    }
  }

  return details.length > 0 ? { ok: false, details } : { ok: true, config: next };
}

/** The configuration that applies to one vendor's leads: the vendor's overrides win. */
/** Whether a vendor's leads are compared with leads of other vendor types (its override; false by default). */
export function comparesAcrossTypes(config: DedupConfig, vendorId: string | null | undefined): boolean {
  if (vendorId === null || vendorId === undefined) return false;
  if (!Object.prototype.hasOwnProperty.call(config.vendor_overrides, vendorId)) return false;
  return config.vendor_overrides[vendorId]?.compare_across_types === true;
}

export function effectiveConfig(config: DedupConfig, vendorId: string | null | undefined): DedupConfig {
  if (vendorId === null || vendorId === undefined) return config;
  const override = Object.prototype.hasOwnProperty.call(config.vendor_overrides, vendorId)
    ? config.vendor_overrides[vendorId]
    : undefined;
  if (override === undefined) return config;
  return {
    ...config,
    // `window_hours: null` (all time) is a real override, so test presence, not truthiness.
    window_hours: override.window_hours !== undefined ? override.window_hours : config.window_hours,
    threshold: override.threshold ?? config.threshold,
    action: override.action ?? config.action,
  };
}
