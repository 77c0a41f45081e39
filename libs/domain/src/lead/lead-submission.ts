import type { ConsentEvidence } from '../consent/consent';
import { leadFields } from './lead-fields';

/** Custom field values of a submission: string, number, boolean, date (ISO 8601 string), array, object. */
export type CustomFieldValue =
  string | number | boolean | null | CustomFieldValue[] | { [key: string]: CustomFieldValue };

/**
 * An inbound lead submission (the body of `ingestLead`), plus the two bot-detection inputs
 * validation needs (docs/decisions.md "Validation"): the honeypot `website` and `form_started_at`,
 * when the form was loaded.
 */
export interface LeadSubmission {
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  program_interest?: string;
  source?: string;
  ip_address?: string;
  user_agent?: string;
  landing_page?: string;
  referrer?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  utm_term?: string;
  utm_content?: string;
  custom_fields?: Record<string, CustomFieldValue>;
  /** Honeypot: a human never fills it in. */
  website?: string;
  /** ISO 8601 time the form was loaded; the gap to submission tells a bot from a person. */
  form_started_at?: string;
  /** Consent evidence (docs/consent.md), stored with the lead as given. */
  consent?: ConsentEvidence;
}

/** The text fields of a submission (the lead fields a vendor sends, in the ingestion schema's order). */
export const SUBMISSION_TEXT_FIELDS = leadFields(
  'email',
  'first_name',
  'last_name',
  'phone',
  'program_interest',
  'source',
  'ip_address',
  'user_agent',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
);
