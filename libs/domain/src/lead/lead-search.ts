/**
 * Search copies of a lead (GET /leads `search`, docs/decisions.md "Lead search"), stored beside the
 * fields on every write that changes them (the validate stage, a patch, a merge):
 * - `search_text`: the email and the full name, accents and case dropped (normalizeSearchText), in
 *   which a search of 3 or more characters is found anywhere, from a substring index of the store;
 * - `search_phone`: every digit of the phone as stored (E.164, so with its country code), in which
 *   4 or more digits are found anywhere, from another;
 * - lowercase email and names, which sort the list and answer searches of one or two characters
 *   as prefixes, and the phone's digits (dedup's form), each a prefix range on an index.
 */
import { phoneDigits } from '../dedup/normalize';

export interface LeadSearchFields {
  email_lower: string | null;
  first_name_lower: string | null;
  last_name_lower: string | null;
  /** Digits of the phone; a North American number without its leading 1 (as dedup compares phones). */
  phone_digits: string | null;
  /** Normalized email and full name ("first last"); null when the lead has neither. */
  search_text: string[] | null;
  /** Every digit of the phone; null without one. */
  search_phone: string | null;
}

/** The shortest search found anywhere in an email or name; shorter ones match prefixes. */
export const SEARCH_MIN_TEXT = 3;
/** The fewest digits of a search looked for anywhere in a phone. */
export const SEARCH_MIN_PHONE_DIGITS = 4;

/**
 * Text as search stores and compares it: compatibility forms folded and accents dropped (NFKD,
 * then no combining marks), lowercase, control characters removed, runs of spaces made one.
 */
export function normalizeSearchText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[\p{Cc}\p{Cf}]/gu, (control) => (/\s/.test(control) ? ' ' : ''))
    .replace(/\s+/g, ' ')
    .trim();
}

const lower = (value: string | null | undefined): string | null => (value ? value.trim().toLowerCase() || null : null);

export function leadSearchFields(lead: {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
}): LeadSearchFields {
  const digits = lead.phone ? phoneDigits(lead.phone) : '';
  const allDigits = lead.phone ? lead.phone.replace(/\D/g, '') : '';
  const email = normalizeSearchText(lead.email ?? '');
  const name = normalizeSearchText(`${lead.first_name ?? ''} ${lead.last_name ?? ''}`);
  const text = [...new Set([email, name].filter((term) => term !== ''))];
  return {
    email_lower: lower(lead.email),
    first_name_lower: lower(lead.first_name),
    last_name_lower: lower(lead.last_name),
    phone_digits: digits === '' ? null : digits,
    search_text: text.length > 0 ? text : null,
    search_phone: allDigits === '' ? null : allDigits,
  };
}
