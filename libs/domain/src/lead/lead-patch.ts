/**
 * A partial update of a lead (PATCH /leads/:id, POST /leads/bulk-update: `updateLead`,
 * `bulkUpdateLeads`). The body is parsed once (`parseLeadPatch`: field names, types, email and
 * phone re-validated with the same rules as ingestion, custom fields against their definitions) and
 * then applied to each lead (`applyLeadPatch`: what changes, with old and new values for the
 * lead.updated event).
 */
import type { ErrorDetail } from '../errors';
import { blockingKeyFields, normalizeEmail } from '../dedup/normalize';
import { checkCustomFields, type CustomFieldDefinition } from '../validation/custom-fields';
import { parseEmail } from '../validation/email-syntax';
import { normalizePhone } from '../validation/phone';
import { customFieldsLimitProblems } from '../validation/json-nesting';
import type { CustomFieldValue } from './lead-submission';
import { LEAD_STATUSES, type LeadRecord, type LeadStatus } from './lead';
import type { LeadField } from './lead-fields';
import { leadSearchFields } from './lead-search';
import { withFields } from './with-fields';
import { LEAD_NAME_FIELDS, stripBidiControls } from '../accounts/input';

/** Text fields a user may change, with their longest value (the ingestion schema's limits). */
/** The longest text a user may write into each lead text field (the published schemas use it too). */
export const TEXT_FIELDS = {
  first_name: 100,
  last_name: 100,
  source: 200,
  program: 200,
  program_interest: 200,
  ip_address: 64,
  user_agent: 1000,
  landing_page: 2000,
  referrer: 2000,
  utm_source: 200,
  utm_medium: 200,
  utm_campaign: 200,
  utm_term: 200,
  utm_content: 200,
} as const satisfies Partial<Record<LeadField, number>>;
type TextField = keyof typeof TEXT_FIELDS;

export const LEAD_WRITABLE_FIELDS = [
  'email',
  'phone',
  'status',
  'custom_fields',
  ...(Object.keys(TEXT_FIELDS) as TextField[]),
] as const;

/** A checked update: only the fields given, normalized. `null` clears a text field or a custom field. */
export interface LeadPatch {
  email?: string;
  phone?: string | null;
  status?: LeadStatus;
  text: Partial<Record<TextField, string | null>>;
  /** Custom field values to set; null removes the key. Merged into the lead's custom_fields. */
  custom_fields?: Record<string, CustomFieldValue>;
}

export interface LeadPatchContext {
  customFields: readonly CustomFieldDefinition[];
  /** The organization's default country for national phone numbers (docs/decisions.md "Validation"). */
  defaultPhoneCountry: string;
}

export type LeadPatchParse = { ok: true; patch: LeadPatch } | { ok: false; details: ErrorDetail[] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseLeadPatch(body: unknown, context: LeadPatchContext): LeadPatchParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details: ErrorDetail[] = [];
  const patch: LeadPatch = { text: {} };
  for (const [field, value] of Object.entries(body)) {
    if (!(LEAD_WRITABLE_FIELDS as readonly string[]).includes(field)) {
      details.push({ field, message: `${field} is not a writable lead field` });
      continue;
    }
    if (field === 'email') {
      const parsed = typeof value === 'string' ? parseEmail(value.trim()) : undefined;
      if (parsed?.ok) patch.email = parsed.email;
      else details.push({ field, message: parsed ? parsed.message : 'email must be a string' });
    } else if (field === 'phone') {
      if (value === null || value === '') patch.phone = null;
      else if (typeof value !== 'string' || value.length > 40)
        details.push({ field, message: 'phone must be a string of at most 40 characters or null' });
      else {
        const phone = normalizePhone(value.trim(), context.defaultPhoneCountry);
        if (phone.ok) patch.phone = phone.e164;
        else details.push({ field, message: phone.message });
      }
    } else if (field === 'status') {
      if (typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value))
        patch.status = value as LeadStatus;
      else details.push({ field, message: `status must be one of ${LEAD_STATUSES.join(', ')}` });
    } else if (field === 'custom_fields') {
      if (!isObject(value)) details.push({ field, message: 'custom_fields must be an object' });
      else {
        const values = value as Record<string, CustomFieldValue>;
        details.push(
          ...checkCustomFields(values, context.customFields, { onlyGiven: true }).map(({ field: name, message }) => ({
            field: name,
            message,
          })),
        );
        details.push(...customFieldsLimitProblems(values));
        patch.custom_fields = values;
      }
    } else {
      const max = TEXT_FIELDS[field as TextField];
      if (value === null || (typeof value === 'string' && value.trim() === '')) patch.text[field as TextField] = null;
      else if (typeof value !== 'string' || value.length > max)
        details.push({ field, message: `${field} must be a string of at most ${max} characters or null` });
      // Names lose their bidirectional-text controls, as at ingestion (docs/console.md, "User text").
      else
        patch.text[field as TextField] = (LEAD_NAME_FIELDS.includes(field) ? stripBidiControls(value) : value).trim();
    }
  }
  if (details.length === 0 && Object.keys(body).length === 0)
    details.push({ field: '(body)', message: 'give at least one field to change' });
  return details.length > 0 ? { ok: false, details } : { ok: true, patch };
}

export interface FieldChange {
  old: unknown;
  new: unknown;
}

export interface AppliedLeadPatch {
  /** Fields to store: the changed ones plus the copies derived from them (search, blocking keys). */
  set: Partial<LeadRecord>;
  /** `{field: {old, new}}`; `custom_fields` old and new as whole objects. Empty when nothing changes. */
  changes: Record<string, FieldChange>;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function applyLeadPatch(lead: LeadRecord, patch: LeadPatch): AppliedLeadPatch {
  const set: Record<string, unknown> = {};
  const changes: Record<string, FieldChange> = {};
  const change = (field: string, next: unknown): void => {
    const old = lead[field] ?? null;
    if (same(old, next)) return;
    set[field] = next;
    changes[field] = { old, new: next };
  };
  if (patch.email !== undefined) change('email', patch.email);
  if (patch.phone !== undefined) change('phone', patch.phone);
  if (patch.status !== undefined) change('status', patch.status);
  for (const [field, value] of Object.entries(patch.text)) change(field, value);
  if (patch.custom_fields) {
    const merged: Record<string, CustomFieldValue> = { ...lead.custom_fields };
    for (const [name, value] of Object.entries(patch.custom_fields)) {
      if (value === null) delete merged[name];
      else merged[name] = value;
    }
    // One change for the object (old and new whole): field names as keys would need dots, which
    // stored documents cannot hold (docs/store.md), and the receiver sees the full state anyway.
    change('custom_fields', merged);
  }
  if ('email' in set || 'phone' in set || 'first_name' in set || 'last_name' in set) {
    const next = { ...lead, ...set };
    const keys = blockingKeyFields(next);
    Object.assign(set, leadSearchFields(next), { bk_email: keys.email, bk_phone: keys.phone, bk_name: keys.name });
    if ('email' in set) set['dedup_key'] = normalizeEmail(next.email);
  }
  return { set: set, changes };
}

/**
 * The lead with the copies derived from its fields recomputed: search copies, blocking keys and
 * the dedup key. Every change of email, phone or names (a patch, a dedup merge) goes through it,
 * so search and deduplication keep finding the lead.
 */
export function withDerivedFields<T extends LeadRecord>(lead: T): T {
  const keys = blockingKeyFields(lead);
  return withFields<T, LeadRecord>(lead, {
    ...leadSearchFields(lead),
    bk_email: keys.email,
    bk_phone: keys.phone,
    bk_name: keys.name,
    dedup_key: lead.email ? normalizeEmail(lead.email) : '',
  });
}
