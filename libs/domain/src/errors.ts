/**
 * Error codes of the API (docs/api-conventions.md "Errors"): the documented authentication, lead
 * and validation codes plus the few the service needs to answer every other case cleanly. Libraries
 * throw `DomainError` with one of these; only libs/http maps them to HTTP statuses and response
 * bodies.
 */
export const ERROR_CODES = [
  'INVALID_CREDENTIALS',
  'TOKEN_EXPIRED',
  'TOKEN_INVALID',
  'API_KEY_INVALID',
  'API_KEY_REVOKED',
  'INSUFFICIENT_PERMISSIONS',
  'IP_RESTRICTED',
  'RATE_LIMIT_EXCEEDED',
  'EMAIL_ALREADY_REGISTERED',
  'WEAK_PASSWORD',
  'INVALID_RESET_TOKEN',
  'LEAD_NOT_FOUND',
  'VALIDATION_ERROR',
  'DUPLICATE_LEAD',
  // Codes for the cases the codes above do not cover; see docs/decisions.md "HTTP".
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  'EXPORT_EXPIRED',
  'EXPORT_NOT_READY',
  'LEAD_REJECTED',
  'ALREADY_EXISTS',
  'LEAD_PROCESSING',
  'PLAN_LIMIT_REACHED',
  'LEAD_NOT_IN_REVIEW',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorDetail {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /**
     * Keys the response body carries beside the message, e.g. `retry_after`, `limit` and `window`
     * of RATE_LIMIT_EXCEEDED (docs/api-conventions.md "Rate limits"). Plain JSON values only.
     */
    readonly extra?: Record<string, string | number | boolean | null>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

/**
 * Lower layers describe a problem as a fragment ("is required", "must be text") beside its field;
 * answers name the field first ("email is required"), so every detail reads alone and in one
 * style. Messages that already start with a name are left as they are.
 */
const FRAGMENT = /^(is|are|must|has|have|needs|cannot|should|was|may|does) /;

export function describeDetail(detail: ErrorDetail): ErrorDetail {
  return FRAGMENT.test(detail.message) ? { field: detail.field, message: `${detail.field} ${detail.message}` } : detail;
}
