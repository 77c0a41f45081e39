/**
 * Rule actions (docs/enrichment-rules.md) and the field transformations. Actions change a copy of
 * the subject; the run (run-rules.ts) records what each did.
 */
import { normalizePhone } from '../validation/phone';
import { emailDomain } from '../validation/email-syntax';

export const TRANSFORMATIONS = ['uppercase', 'lowercase', 'titlecase', 'trim', 'phone_format', 'email_domain'] as const;
export type Transformation = (typeof TRANSFORMATIONS)[number];

export const FLAG_SEVERITIES = ['low', 'medium', 'high'] as const;
export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH', 'GET'] as const;

export type RuleAction =
  | { type: 'set_field'; field: string; value: unknown }
  | { type: 'transform'; field: string; transformation: Transformation }
  | { type: 'calculate'; field: string; formula: string }
  | { type: 'reject'; reason: string }
  | { type: 'flag'; reason: string; severity: (typeof FLAG_SEVERITIES)[number] }
  | {
      type: 'webhook';
      url: string;
      method: (typeof WEBHOOK_METHODS)[number];
      payload?: Record<string, unknown>;
      headers?: Record<string, string>;
    }
  | { type: 'lookup'; target_field: string; table_name: string; lookup_field: string }
  | { type: 'stop_processing' };

export const ACTION_TYPES = [
  'set_field',
  'transform',
  'calculate',
  'reject',
  'flag',
  'webhook',
  'lookup',
  'stop_processing',
] as const;

/**
 * Title case word by word, keeping the separators: "mary-jane o'neil" → "Mary-Jane O'Neil".
 * A letter after a space, hyphen, apostrophe or period starts a word.
 */
export function titleCase(value: string): string {
  return value
    .toLowerCase()
    .replace(
      /(^|[\s\-'’.])(\p{L})/gu,
      (_match, separator: string, letter: string) => `${separator}${letter.toUpperCase()}`,
    );
}

/** The transformed value, or undefined when the transformation does not apply (not text, not a phone...). */
export function transformValue(
  value: unknown,
  transformation: Transformation,
  defaultPhoneCountry = 'US',
): string | undefined {
  if (typeof value !== 'string') return undefined;
  switch (transformation) {
    case 'uppercase':
      return value.toUpperCase();
    case 'lowercase':
      return value.toLowerCase();
    case 'titlecase':
      return titleCase(value);
    case 'trim':
      return value.trim().replace(/\s+/g, ' ');
    case 'phone_format': {
      const phone = normalizePhone(value, defaultPhoneCountry);
      return phone.ok ? phone.e164 : undefined;
    }
    case 'email_domain':
      return emailDomain(value) ?? undefined;
    default:
      return undefined;
  }
}
