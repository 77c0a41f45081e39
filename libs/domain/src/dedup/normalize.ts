import type { DedupLeadFields } from './dedup.types';
import { soundex } from './string-metrics';

/**
 * How a mailbox provider treats the local part. Only providers listed here are normalized beyond
 * lowercasing: elsewhere a dot or a `+` may be significant, and merging two people is worse than
 * missing one duplicate.
 *
 * | domains | dots | `+tag` |
 * |---|---|---|
 * | gmail.com, googlemail.com (→ gmail.com) | removed | removed |
 * | outlook.com, hotmail.com, live.com, msn.com (+ common country variants) | kept | removed |
 * | icloud.com, me.com, mac.com | kept | removed |
 * | protonmail.com, protonmail.ch, proton.me, pm.me | kept | removed |
 * | fastmail.com, fastmail.fm | kept | removed |
 * | yahoo.* (not listed) | kept | kept: Yahoo has no plus addressing; its disposable `base-keyword` addresses cannot be told from a real hyphen |
 */
interface EmailProviderRule {
  removeDots: boolean;
  removePlusTag: boolean;
  canonicalDomain?: string;
}

const GMAIL: EmailProviderRule = { removeDots: true, removePlusTag: true, canonicalDomain: 'gmail.com' };
const PLUS_ONLY: EmailProviderRule = { removeDots: false, removePlusTag: true };

export const EMAIL_PROVIDER_RULES: Readonly<Record<string, EmailProviderRule>> = {
  'gmail.com': GMAIL,
  'googlemail.com': GMAIL,
  'outlook.com': PLUS_ONLY,
  'hotmail.com': PLUS_ONLY,
  'hotmail.co.uk': PLUS_ONLY,
  'hotmail.fr': PLUS_ONLY,
  'live.com': PLUS_ONLY,
  'live.co.uk': PLUS_ONLY,
  'msn.com': PLUS_ONLY,
  'icloud.com': PLUS_ONLY,
  'me.com': PLUS_ONLY,
  'mac.com': PLUS_ONLY,
  'protonmail.com': PLUS_ONLY,
  'protonmail.ch': PLUS_ONLY,
  'proton.me': PLUS_ONLY,
  'pm.me': PLUS_ONLY,
  'fastmail.com': PLUS_ONLY,
  'fastmail.fm': PLUS_ONLY,
};

/** Lowercased, trimmed; dots and `+tag` removed only for the providers of EMAIL_PROVIDER_RULES. */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0 || at === trimmed.length - 1) return trimmed;
  let local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1);
  const rule = EMAIL_PROVIDER_RULES[domain];
  if (rule === undefined) return trimmed;
  if (rule.removePlusTag) {
    const plus = local.indexOf('+');
    // "+tag@" with nothing before the plus is not a tagged address; leave it alone.
    if (plus > 0) local = local.slice(0, plus);
  }
  if (rule.removeDots) local = local.replace(/\./g, '');
  return `${local}@${rule.canonicalDomain ?? domain}`;
}

/**
 * Digits only. A North American number written with its country code (11 digits starting with 1)
 * equals the same number without it: "+1 (555) 123-4567" and "5551234567" both give "5551234567".
 * Other country codes are kept as written (stored leads hold phones in E.164).
 */
export function phoneDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

/** Fewer digits than this make a blocking key that matches far too many leads. */
export const MIN_PHONE_KEY_DIGITS = 7;

/**
 * Phonetic key of a person: Soundex of the last name + first initial, e.g. "John Smith" → "S530j".
 * Catches "Jon"/"John" and "Smith"/"Smyth". `null` unless both names have a letter: a last name
 * alone (all the Smiths) is too broad a block.
 */
export function nameKey(firstName: string | null | undefined, lastName: string | null | undefined): string | null {
  const last = soundex(lastName ?? '');
  const initial = soundex(firstName ?? '')
    .charAt(0)
    .toLowerCase();
  if (last === '' || initial === '') return null;
  return `${last}${initial}`;
}

/**
 * The blocking keys of a lead, one per kind, unprefixed: normalized email, last 10 phone digits,
 * name key; null when the lead has none of that kind. Stored as indexed scalars
 * (LeadRecord.bk_email / bk_phone / bk_name) and queried with `$or` of equalities inside the window,
 * so a dedup check never scans all leads.
 */
export interface BlockingKeyFields {
  email: string | null;
  phone: string | null;
  name: string | null;
}

export function blockingKeyFields(lead: DedupLeadFields): BlockingKeyFields {
  const email = lead.email?.trim() ? normalizeEmail(lead.email) : '';
  const digits = lead.phone ? phoneDigits(lead.phone) : '';
  return {
    email: email === '' ? null : email,
    phone: digits.length >= MIN_PHONE_KEY_DIGITS ? digits.slice(-10) : null,
    name: nameKey(lead.first_name, lead.last_name),
  };
}

/**
 * The same keys as one prefixed list, `e:<email>`, `p:<phone>`, `n:<name key>`, for a store that
 * indexes a single multikey field and queries it with `$in`.
 */
export function blockingKeys(lead: DedupLeadFields): string[] {
  const { email, phone, name } = blockingKeyFields(lead);
  const keys: string[] = [];
  if (email !== null) keys.push(`e:${email}`);
  if (phone !== null) keys.push(`p:${phone}`);
  if (name !== null) keys.push(`n:${name}`);
  return keys;
}
