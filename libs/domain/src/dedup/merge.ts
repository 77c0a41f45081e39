/**
 * Action `merge`: fills empty or older fields and keeps the original source.
 *
 * - Identity and bookkeeping fields are never touched: id, source, vendor, status, timestamps,
 *   duplicate_of, CRM and validation fields, enrichment data (MERGE_NEVER: anything not listed in
 *   the two lists below is ignored).
 * - Empty fields of the original (null, undefined, blank string) are filled from the incoming lead.
 * - A non-empty field is "older" when the original was last updated before the incoming lead was
 *   submitted; then the incoming value, being newer, replaces it, for profile fields only
 *   (MERGE_NEWER_WINS). Attribution and identity fields (MERGE_FILL_ONLY: email, utm_*, landing page,
 *   referrer, ip, user agent) belong to the original submission and are only filled when empty.
 * - An empty incoming value never erases anything.
 * - custom_fields are merged key by key with the newer-wins rule.
 */

export const MERGE_NEWER_WINS = ['first_name', 'last_name', 'phone', 'program', 'program_interest'] as const;
export const MERGE_FILL_ONLY = [
  'email',
  'ip_address',
  'user_agent',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;

export type MergeTextField = (typeof MERGE_NEWER_WINS)[number] | (typeof MERGE_FILL_ONLY)[number];

export type MergeableLead = { [K in MergeTextField]?: string | null } & {
  source?: string | null;
  custom_fields?: Record<string, unknown> | null;
  created_at?: string | null;
  updated_at?: string | null;
};

export type LeadMergePatch = { [K in MergeTextField]?: string } & { custom_fields?: Record<string, unknown> };

export interface LeadMergeResult {
  /** Only changed fields; `custom_fields`, when present, is the complete merged object. */
  patch: LeadMergePatch;
  /** Keyed by field, `custom_fields.<key>` for custom fields. */
  changes: Record<string, { old: unknown; new: unknown }>;
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** True when the incoming lead is newer than the original's last update; unknown times count as newer. */
function incomingIsNewer(original: MergeableLead, incoming: MergeableLead): boolean {
  const originalTime = Date.parse(original.updated_at ?? original.created_at ?? '');
  const incomingTime = Date.parse(incoming.created_at ?? '');
  if (Number.isNaN(originalTime) || Number.isNaN(incomingTime)) return true;
  return incomingTime > originalTime;
}

/**
 * The patch to apply to `original` for action `merge`. `incoming.created_at` is the submission time
 * (absent = now); `source` is never part of the patch.
 */
export function mergeLeads(original: MergeableLead, incoming: MergeableLead): LeadMergeResult {
  const patch: LeadMergePatch = {};
  const changes: LeadMergeResult['changes'] = {};
  const newer = incomingIsNewer(original, incoming);

  const take = (current: unknown, next: unknown, newerWins: boolean): boolean =>
    !isEmpty(next) && !sameValue(current, next) && (isEmpty(current) || (newerWins && newer));

  const consider = (field: MergeTextField, newerWins: boolean) => {
    const next = incoming[field];
    if (typeof next === 'string' && take(original[field], next, newerWins)) {
      patch[field] = next;
      changes[field] = { old: original[field] ?? null, new: next };
    }
  };
  MERGE_NEWER_WINS.forEach((field) => consider(field, true));
  MERGE_FILL_ONLY.forEach((field) => consider(field, false));

  const originalCustom = original.custom_fields ?? {};
  const merged: Record<string, unknown> = { ...originalCustom };
  let customChanged = false;
  for (const [key, next] of Object.entries(incoming.custom_fields ?? {})) {
    const current = Object.prototype.hasOwnProperty.call(originalCustom, key) ? originalCustom[key] : undefined;
    if (take(current, next, true)) {
      merged[key] = next;
      changes[`custom_fields.${key}`] = { old: current ?? null, new: next };
      customChanged = true;
    }
  }
  if (customChanged) patch.custom_fields = merged;

  return { patch, changes };
}
