/**
 * Search copies of a lead (GET /leads `search`): lowercase email and names, and the phone's digits,
 * stored beside the fields so a search is a prefix range on an index, never an unanchored regex
 * over every lead of the tenant.
 */
import { phoneDigits } from '../dedup/normalize';

export interface LeadSearchFields {
  email_lower: string | null;
  first_name_lower: string | null;
  last_name_lower: string | null;
  /** Digits of the phone; a North American number without its leading 1 (as dedup compares phones). */
  phone_digits: string | null;
}

const lower = (value: string | null | undefined): string | null => (value ? value.trim().toLowerCase() || null : null);

export function leadSearchFields(lead: { email?: string | null; first_name?: string | null; last_name?: string | null; phone?: string | null }): LeadSearchFields {
  const digits = lead.phone ? phoneDigits(lead.phone) : '';
  return {
    email_lower: lower(lead.email),
    first_name_lower: lower(lead.first_name),
    last_name_lower: lower(lead.last_name),
    phone_digits: digits === '' ? null : digits,
  };
}
