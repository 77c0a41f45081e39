/**
 * Per-organization settings of validation (docs/decisions.md "Validation"). Deduplication settings
 * live in the dedup configuration (`getDedupConfig`). Defaults are what a new organization gets.
 */
export interface ValidationSettings {
  /** Disposable-domain blocking is on unless the organization allows them. */
  allow_disposable_emails: boolean;
  /** MX lookup of the email's domain. */
  mx_check: boolean;
  /** ISO 3166 alpha-2 country for national phone numbers, e.g. "US". */
  default_phone_country: string;
  /** Fields that must be present besides email (always required). */
  required_fields: string[];
  bot_detection: {
    honeypot: boolean;
    /** Submissions faster than this reject; up to `flag_below_ms` flag for review. */
    reject_below_ms: number;
    flag_below_ms: number;
    high_risk_ips: string[];
    high_risk_ip_action: 'reject' | 'flag' | 'allow';
  };
}

export const DEFAULT_VALIDATION_SETTINGS: ValidationSettings = {
  allow_disposable_emails: false,
  mx_check: true,
  default_phone_country: 'US',
  required_fields: [],
  bot_detection: {
    honeypot: true,
    reject_below_ms: 1_000,
    flag_below_ms: 3_000,
    high_risk_ips: [],
    high_risk_ip_action: 'flag',
  },
};
