import { describeDetail, type ErrorCode } from '@leadstream/domain';

/** The one table from error code to HTTP status (docs/api-conventions.md "Errors"). */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  INVALID_CREDENTIALS: 401,
  TOKEN_EXPIRED: 401,
  TOKEN_INVALID: 401,
  API_KEY_INVALID: 401,
  API_KEY_REVOKED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  IP_RESTRICTED: 403,
  RATE_LIMIT_EXCEEDED: 429,
  EMAIL_ALREADY_REGISTERED: 409,
  WEAK_PASSWORD: 400,
  INVALID_RESET_TOKEN: 400,
  LEAD_NOT_FOUND: 404,
  VALIDATION_ERROR: 400,
  DUPLICATE_LEAD: 409,
  NOT_FOUND: 404,
  LEAD_REJECTED: 422,
  METHOD_NOT_ALLOWED: 405,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  EXPORT_EXPIRED: 410,
  EXPORT_NOT_READY: 409,
  ALREADY_EXISTS: 409,
  LEAD_PROCESSING: 409,
  PLAN_LIMIT_REACHED: 422,
  LEAD_NOT_IN_REVIEW: 409,
};

/** Texts the funnel API uses for its fixed errors (401, 403, 404). */
const FUNNEL_TEXT: Partial<Record<number, string>> = {
  401: 'Authentication required',
  403: 'Insufficient permissions',
  404: 'Resource not found',
};

/** Which of the three response conventions a path answers in (docs/api-conventions.md). */
export type Convention = 'user' | 'ingestion' | 'funnel';

/** Vendor (API key) paths: ingestion, the vendor portal, and a submission's status under /api/leads. */
const INGESTION_PATH = /^(\/sandbox)?\/api\/(v1\/|leads\/inbound(\/|$)|vendor-portal\/|leads\/[^/]+\/status\/?$)/;
const FUNNEL_PATH = /^(\/sandbox)?\/api\/(vendor-funnel-links|analytics\/funnel)(\/|$)/;

export function conventionFor(path: string): Convention {
  if (FUNNEL_PATH.test(path)) return 'funnel';
  if (INGESTION_PATH.test(path)) return 'ingestion';
  return 'user';
}

export interface ErrorBodyInput {
  status: number;
  code: ErrorCode;
  message: string;
  details?: Array<{ field: string; message: string }>;
  requestId: string;
  extra?: Record<string, unknown>;
}

/** The user API's error object has `retry_after` as its only optional key besides details. */
function userExtra(extra: Record<string, unknown> | undefined): Record<string, unknown> {
  return extra && 'retry_after' in extra ? { retry_after: extra['retry_after'] } : {};
}

/** Builds the error body of the path's convention. */
export function errorBody(convention: Convention, input: ErrorBodyInput): Record<string, unknown> {
  const { status, code, message, requestId, extra } = input;
  const details = input.details?.map(describeDetail);
  switch (convention) {
    case 'user':
      return { error: { code, message, ...(details ? { details } : {}), ...userExtra(extra) } };
    case 'ingestion':
      return { success: false, error: message, code, ...(details ? { details } : {}), ...extra };
    case 'funnel': {
      const body: Record<string, unknown> = { success: false, error: FUNNEL_TEXT[status] ?? message };
      if (details) body['details'] = Object.fromEntries(details.map((detail) => [detail.field, detail.message]));
      if (status >= 500) body['requestId'] = requestId;
      return { ...body, ...extra };
    }
  }
}
