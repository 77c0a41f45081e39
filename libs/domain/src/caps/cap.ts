/**
 * Volume caps (docs/caps.md): how many accepted leads an organization, or one vendor of it, may
 * take per period. A cap: `{name, scope: organization|vendor, vendor_id (scope vendor), maximum,
 * duration (whole number >= 1), duration_units: hour|day|week|month, time_zone (IANA; default
 * the organization's or UTC), conditions (optional: the condition groups of enrichment rules;
 * only leads that match count and are capped), reason (default cap_reached), enabled}`.
 * Only live leads the intake would accept count; the periods are in ./cap-period.ts.
 */
import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';
import { evaluateConditions, type ConditionGroup } from '../rules/condition';
import type { RuleSubject } from '../rules/field-path';
import { parseConditionGroup, type KnownNames } from '../rules/enrichment-rule';
import { CAP_DURATION_UNITS, isValidTimeZone, type CapDurationUnit } from './cap-period';

export const CAP_SCOPES = ['organization', 'vendor'] as const;
export type CapScope = (typeof CAP_SCOPES)[number];
export const DEFAULT_CAP_REASON = 'cap_reached';
export const MAX_CAP_MAXIMUM = 100_000;
export const MAX_CAP_DURATION = 1_000;
const MAX_NAME = 200;
const REASON_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;
const CAP_KEYS = [
  'name',
  'scope',
  'vendor_id',
  'maximum',
  'duration',
  'duration_units',
  'time_zone',
  'conditions',
  'reason',
  'enabled',
] as const;

export interface CapSettings {
  name: string;
  scope: CapScope;
  vendor_id: string | null;
  maximum: number;
  duration: number;
  duration_units: CapDurationUnit;
  time_zone: string;
  conditions: ConditionGroup | null;
  reason: string;
  enabled: boolean;
}

export interface Cap extends CapSettings {
  id: string;
  organization_id: string;
  created_at: string;
  updated_at: string;
}

export type CapParse = { ok: true; value: CapSettings } | { ok: false; details: ErrorDetail[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function wholeNumber(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** POST /api/caps: the cap's fields; `defaultTimeZone` is the organization's zone (or UTC). */
export function parseCapCreate(body: unknown, defaultTimeZone: string, known: KnownNames = {}): CapParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const base: CapSettings = {
    name: '',
    scope: 'organization',
    vendor_id: null,
    maximum: 0,
    duration: 1,
    duration_units: 'day',
    time_zone: defaultTimeZone,
    conditions: null,
    reason: DEFAULT_CAP_REASON,
    enabled: true,
  };
  return parseCap(body, base, known, true);
}

/** PATCH /api/caps/:id: any subset of the fields; the result is checked as a whole. */
export function parseCapPatch(body: unknown, current: CapSettings, known: KnownNames = {}): CapParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  if (Object.keys(body).length === 0)
    return { ok: false, details: [{ field: '(body)', message: 'the body must change at least one field' }] };
  return parseCap(body, current, known, false);
}

function parseCap(body: Record<string, unknown>, base: CapSettings, known: KnownNames, creating: boolean): CapParse {
  const details: ErrorDetail[] = Object.keys(body)
    .filter((key) => !(CAP_KEYS as readonly string[]).includes(key))
    .map((key) => ({ field: key, message: `unknown field ${key}` }));
  const value: CapSettings = { ...base };
  if (creating || 'name' in body) {
    const name = body['name'];
    if (typeof name !== 'string' || trimBlank(name) === '' || name.length > MAX_NAME)
      details.push({ field: 'name', message: `name is required: text of 1-${MAX_NAME} characters` });
    else value.name = trimBlank(name);
  }
  if ('scope' in body) {
    if (!(CAP_SCOPES as readonly unknown[]).includes(body['scope']))
      details.push({ field: 'scope', message: `scope must be one of ${CAP_SCOPES.join(', ')}` });
    else value.scope = body['scope'] as CapScope;
  }
  if ('vendor_id' in body) {
    const vendorId = body['vendor_id'];
    if (vendorId !== null && (typeof vendorId !== 'string' || vendorId.length === 0 || vendorId.length > 100))
      details.push({ field: 'vendor_id', message: 'vendor_id must be a vendor id or null' });
    else value.vendor_id = vendorId;
  }
  if (creating || 'maximum' in body) {
    if (!wholeNumber(body['maximum'], 0, MAX_CAP_MAXIMUM))
      details.push({ field: 'maximum', message: `maximum is required: a whole number from 0 to ${MAX_CAP_MAXIMUM}` });
    else value.maximum = body['maximum'];
  }
  if ('duration' in body) {
    if (!wholeNumber(body['duration'], 1, MAX_CAP_DURATION))
      details.push({ field: 'duration', message: `duration must be a whole number from 1 to ${MAX_CAP_DURATION}` });
    else value.duration = body['duration'];
  }
  if ('duration_units' in body) {
    if (!(CAP_DURATION_UNITS as readonly unknown[]).includes(body['duration_units']))
      details.push({
        field: 'duration_units',
        message: `duration_units must be one of ${CAP_DURATION_UNITS.join(', ')}`,
      });
    else value.duration_units = body['duration_units'] as CapDurationUnit;
  }
  if ('time_zone' in body) {
    if (!isValidTimeZone(body['time_zone']))
      details.push({ field: 'time_zone', message: 'time_zone must be an IANA time zone name, e.g. America/New_York' });
    else value.time_zone = body['time_zone'];
  }
  if ('conditions' in body) {
    if (body['conditions'] === null) value.conditions = null;
    else {
      const parsed = parseConditionGroup(body['conditions'], 'conditions', known);
      if (parsed.ok) value.conditions = parsed.value;
      else details.push(...parsed.details);
    }
  }
  if ('reason' in body) {
    if (typeof body['reason'] !== 'string' || !REASON_PATTERN.test(body['reason']))
      details.push({
        field: 'reason',
        message: 'reason must be 1-64 lower-case letters, digits or underscores, starting with a letter',
      });
    else value.reason = body['reason'];
  }
  if ('enabled' in body) {
    if (typeof body['enabled'] !== 'boolean')
      details.push({ field: 'enabled', message: 'enabled must be true or false' });
    else value.enabled = body['enabled'];
  }
  if (details.length === 0) {
    if (value.scope === 'vendor' && value.vendor_id === null)
      details.push({ field: 'vendor_id', message: 'vendor_id is required when scope is vendor' });
    if (value.scope === 'organization' && value.vendor_id !== null)
      details.push({ field: 'vendor_id', message: 'vendor_id must be null when scope is organization' });
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}

/** Whether a cap applies to a lead of `vendorId` (its scope, and its conditions on the lead as enrichment leaves it). */
export function capApplies(
  cap: Pick<CapSettings, 'enabled' | 'scope' | 'vendor_id' | 'conditions'>,
  vendorId: string | null | undefined,
  subject: Readonly<RuleSubject>,
): boolean {
  if (!cap.enabled) return false;
  if (cap.scope === 'vendor' && cap.vendor_id !== vendorId) return false;
  return cap.conditions === null || evaluateConditions(cap.conditions, subject);
}

/**
 * The order caps are checked in: organization caps before vendor caps, and within each the lowest
 * maximum first (then the oldest), so the cap a refused lead names is the first it runs into.
 */
export function capCheckOrder<T extends Pick<Cap, 'scope' | 'maximum' | 'created_at' | 'id'>>(caps: readonly T[]): T[] {
  const scopeRank = (cap: T): number => (cap.scope === 'organization' ? 0 : 1);
  return [...caps].sort(
    (a, b) =>
      scopeRank(a) - scopeRank(b) ||
      a.maximum - b.maximum ||
      a.created_at.localeCompare(b.created_at) ||
      a.id.localeCompare(b.id),
  );
}
