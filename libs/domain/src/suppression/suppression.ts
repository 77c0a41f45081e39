/**
 * Suppression lists (docs/suppression-lists.md): people and domains an organization must not
 * receive leads for. A list holds only SHA-256 hashes of normalized values, so a list of existing
 * students can be uploaded without keeping their contact data in plain text. Values are normalized
 * the way deduplication normalizes them (`normalizeEmail`, the phone blocking key), a domain is its
 * lower-case registrable domain.
 */
import { createHash } from 'node:crypto';
import { randomBase62 } from '../api-keys/api-key';
import { MIN_PHONE_KEY_DIGITS, normalizeEmail, phoneDigits } from '../dedup/normalize';
import type { ErrorDetail } from '../errors';
import type { ReviewFlag } from '../rules/review-flag';

export const SUPPRESSION_KINDS = ['email', 'phone', 'domain'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];
export const SUPPRESSION_ACTIONS = ['reject', 'flag'] as const;
export type SuppressionAction = (typeof SUPPRESSION_ACTIONS)[number];

/** Values of one `POST /api/suppression-lists/:id/entries` (or DELETE) call. */
export const MAX_SUPPRESSION_VALUES_PER_CALL = 10_000;
/** Rows of one CSV import. */
export const MAX_SUPPRESSION_IMPORT_ROWS = 1_000_000;
/** The most days an entry may be kept (100 years: longer is "never", null). */
export const MAX_SUPPRESSION_EXPIRY_DAYS = 36_500;

export interface SuppressionList {
  id: string;
  organization_id: string;
  name: string;
  kind: SuppressionKind;
  action: SuppressionAction;
  /** Days an entry stays on the list after it was added; null keeps it for ever. */
  expires_after_days: number | null;
  /** Checked only on sandbox submissions (vk_test_ keys); otherwise on both environments. */
  sandbox_only: boolean;
  enabled: boolean;
  entry_count: number;
  created_at: string;
  updated_at: string;
}

export const newSuppressionListId = (): string => `supl_${randomBase62(24)}`;
export const newSuppressionImportId = (): string => `supimp_${randomBase62(24)}`;

const DAY_MS = 86_400_000;

/** When an entry added at `addedAt` leaves the list, or null. */
export function suppressionExpiry(list: Pick<SuppressionList, 'expires_after_days'>, addedAt: Date): Date | null {
  return list.expires_after_days === null ? null : new Date(addedAt.getTime() + list.expires_after_days * DAY_MS);
}

/**
 * Second-level labels under which registrations are made in common country domains (co.uk,
 * com.au, ...): `mail.example.co.uk` has the registrable domain `example.co.uk`. Other names keep
 * their last two labels.
 */
const SECOND_LEVEL_SUFFIXES = new Set([
  'co',
  'com',
  'net',
  'org',
  'ac',
  'edu',
  'gov',
  'ltd',
  'plc',
  'sch',
  'nhs',
  'me',
  'gob',
  'or',
  'ne',
  'go',
]);

/** The lower-case registrable domain of a host name (or of an address's domain); null when it has no dot. */
export function registrableDomain(host: string): string | null {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  const at = name.lastIndexOf('@');
  const domain = at >= 0 ? name.slice(at + 1) : name;
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain)) return null;
  const labels = domain.split('.');
  const tld = labels[labels.length - 1]!;
  const second = labels[labels.length - 2]!;
  const keep = tld.length === 2 && labels.length >= 3 && SECOND_LEVEL_SUFFIXES.has(second) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** The normalized value of a list's kind, or null when the value cannot be one (no `@`, too few digits). */
export function normalizeSuppressionValue(kind: SuppressionKind, value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  switch (kind) {
    case 'email': {
      const at = text.lastIndexOf('@');
      return at > 0 && at < text.length - 1 ? normalizeEmail(text) : null;
    }
    case 'phone': {
      const digits = phoneDigits(text);
      return digits.length >= MIN_PHONE_KEY_DIGITS ? digits.slice(-10) : null;
    }
    case 'domain':
      return registrableDomain(text);
  }
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** The stored hash of one given value: SHA-256 of its normalized form, or the hash itself (`hashed`). */
export function suppressionHash(kind: SuppressionKind, value: string, hashed: boolean): string | null {
  if (hashed) {
    const hex = value.trim().toLowerCase();
    return HEX_SHA256.test(hex) ? hex : null;
  }
  const normalized = normalizeSuppressionValue(kind, value);
  return normalized === null ? null : sha256Hex(normalized);
}

/** The hashes a lead is checked with, one per kind it has. */
export type LeadSuppressionKeys = Partial<Record<SuppressionKind, string>>;

export function leadSuppressionKeys(lead: { email?: unknown; phone?: unknown }): LeadSuppressionKeys {
  const keys: LeadSuppressionKeys = {};
  if (typeof lead.email === 'string') {
    const email = suppressionHash('email', lead.email, false);
    if (email) keys.email = email;
    const domain = suppressionHash('domain', lead.email, false);
    if (domain) keys.domain = domain;
  }
  if (typeof lead.phone === 'string') {
    const phone = suppressionHash('phone', lead.phone, false);
    if (phone) keys.phone = phone;
  }
  return keys;
}

/** One stored entry a look-up found: which list, which hash, when it was added. */
export interface SuppressionHit {
  list_id: string;
  hash: string;
  added_at: Date;
}

/**
 * The list whose action applies to a lead: among the enabled lists of its organization (sandbox-only
 * ones only in the sandbox) holding one of its keys unexpired at `now`, a `reject` list before a
 * `flag` list, then the oldest list (ids break ties), so the answer does not depend on store order.
 */
export function suppressionMatch(
  lists: readonly SuppressionList[],
  keys: LeadSuppressionKeys,
  hits: readonly SuppressionHit[],
  environment: string,
  now: Date,
): SuppressionList | null {
  const candidates: SuppressionList[] = [];
  for (const list of lists) {
    if (!list.enabled || (list.sandbox_only && environment !== 'sandbox')) continue;
    const key = keys[list.kind];
    if (!key) continue;
    const hit = hits.find((entry) => entry.list_id === list.id && entry.hash === key);
    if (!hit) continue;
    const expiry = suppressionExpiry(list, hit.added_at);
    if (expiry !== null && expiry.getTime() <= now.getTime()) continue;
    candidates.push(list);
  }
  candidates.sort(
    (a, b) =>
      (a.action === 'reject' ? 0 : 1) - (b.action === 'reject' ? 0 : 1) ||
      a.created_at.localeCompare(b.created_at) ||
      a.id.localeCompare(b.id),
  );
  return candidates[0] ?? null;
}

/** The review flag of a lead on a `flag` list: it names the list. */
export function suppressionReviewFlag(list: Pick<SuppressionList, 'id' | 'name'>): ReviewFlag {
  return { rule_id: list.id, reason: `on suppression list "${list.name}"`, severity: 'high' };
}

export interface SuppressionListInput {
  name: string;
  kind: SuppressionKind;
  action: SuppressionAction;
  expires_after_days: number | null;
  sandbox_only: boolean;
  enabled: boolean;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

const LIST_FIELDS = ['name', 'kind', 'action', 'expires_after_days', 'sandbox_only', 'enabled'];

/** A list's fields from a create (`partial` false: name and kind required) or update body. */
export function parseSuppressionListInput(body: unknown, partial: boolean): Parsed<Partial<SuppressionListInput>> {
  const details: ErrorDetail[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] };
  }
  const input = body as Record<string, unknown>;
  const value: Partial<SuppressionListInput> = {};
  for (const key of Object.keys(input)) {
    if (!LIST_FIELDS.includes(key)) details.push({ field: key, message: 'is not a field of a suppression list' });
  }
  if (input['name'] !== undefined) {
    const name = typeof input['name'] === 'string' ? input['name'].trim() : '';
    if (name === '' || name.length > 200)
      details.push({ field: 'name', message: 'must be text of 1 to 200 characters' });
    else value.name = name;
  } else if (!partial) details.push({ field: 'name', message: 'is required' });
  if (input['kind'] !== undefined) {
    if (partial) details.push({ field: 'kind', message: 'cannot be changed once the list is made' });
    else if (!(SUPPRESSION_KINDS as readonly unknown[]).includes(input['kind']))
      details.push({ field: 'kind', message: `must be one of ${SUPPRESSION_KINDS.join(', ')}` });
    else value.kind = input['kind'] as SuppressionKind;
  } else if (!partial) details.push({ field: 'kind', message: 'is required' });
  if (input['action'] !== undefined) {
    if (!(SUPPRESSION_ACTIONS as readonly unknown[]).includes(input['action']))
      details.push({ field: 'action', message: `must be one of ${SUPPRESSION_ACTIONS.join(', ')}` });
    else value.action = input['action'] as SuppressionAction;
  }
  if (input['expires_after_days'] !== undefined) {
    const days = input['expires_after_days'];
    if (days === null) value.expires_after_days = null;
    else if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_SUPPRESSION_EXPIRY_DAYS)
      details.push({
        field: 'expires_after_days',
        message: `must be null or a whole number from 1 to ${MAX_SUPPRESSION_EXPIRY_DAYS}`,
      });
    else value.expires_after_days = days;
  }
  for (const flag of ['sandbox_only', 'enabled'] as const) {
    if (input[flag] === undefined) continue;
    if (typeof input[flag] !== 'boolean') details.push({ field: flag, message: 'must be true or false' });
    else value[flag] = input[flag];
  }
  if (partial && details.length === 0 && Object.keys(value).length === 0)
    details.push({ field: 'body', message: 'must change at least one field' });
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}

/** `{values, hashed}` of an entries call: 1 to 10,000 strings; every one must normalize (or be a hex SHA-256). */
export function parseSuppressionValues(kind: SuppressionKind, body: unknown): Parsed<{ hashes: string[] }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, details: [{ field: 'body', message: 'must be a JSON object' }] };
  }
  const input = body as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(input)) {
    if (key !== 'values' && key !== 'hashed') details.push({ field: key, message: 'is not a field of this request' });
  }
  if (input['hashed'] !== undefined && typeof input['hashed'] !== 'boolean')
    details.push({ field: 'hashed', message: 'must be true or false' });
  const values = input['values'];
  if (!Array.isArray(values) || values.length === 0 || values.length > MAX_SUPPRESSION_VALUES_PER_CALL) {
    details.push({ field: 'values', message: `must be a list of 1 to ${MAX_SUPPRESSION_VALUES_PER_CALL} values` });
    return { ok: false, details };
  }
  const hashed = input['hashed'] === true;
  const hashes = new Set<string>();
  values.forEach((item, index) => {
    const hash = typeof item === 'string' && item.length <= 320 ? suppressionHash(kind, item, hashed) : null;
    if (hash === null) {
      if (details.length < 20)
        details.push({
          field: `values[${index}]`,
          message: hashed ? 'must be a SHA-256 in 64 hexadecimal characters' : `must be a valid ${kind}`,
        });
    } else hashes.add(hash);
  });
  return details.length > 0 ? { ok: false, details } : { ok: true, value: { hashes: [...hashes] } };
}
