/**
 * A funnel link (`createFunnelLink`, docs/analytics.md "Funnel"): an inquiry vendor whose leads may
 * turn into applications at an application vendor, within `timeWindowHours` of the inquiry. The
 * request body of `POST /api/vendor-funnel-links`; the vendor types and the pair's uniqueness are
 * checked against the store by the route.
 */
import type { ErrorDetail } from '../errors';

export const DEFAULT_FUNNEL_WINDOW_HOURS = 24;
/** A year: an application later than that is not the inquiry's doing. */
export const MAX_FUNNEL_WINDOW_HOURS = 8_760;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KEYS = ['inquiryVendorId', 'applicationVendorId', 'timeWindowHours'];

export interface FunnelLinkInput {
  inquiryVendorId: string;
  applicationVendorId: string;
  timeWindowHours: number;
}

export interface FunnelLink extends FunnelLinkInput {
  id: string;
  createdAt: string;
}

export function parseFunnelLinkCreate(
  body: unknown,
): { ok: true; value: FunnelLinkInput } | { ok: false; details: ErrorDetail[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, details: [{ field: 'body', message: 'body must be a JSON object' }] };
  const input = body as Record<string, unknown>;
  const details: ErrorDetail[] = Object.keys(input)
    .filter((key) => !KEYS.includes(key))
    .map((key) => ({ field: key, message: `${key} is not a funnel link field (${KEYS.join(', ')})` }));
  for (const field of ['inquiryVendorId', 'applicationVendorId'] as const) {
    const value = input[field];
    if (value === undefined || value === null) details.push({ field, message: `${field} is required` });
    else if (typeof value !== 'string' || !UUID.test(value))
      details.push({ field, message: `${field} must be a UUID` });
  }
  const window = input['timeWindowHours'] ?? DEFAULT_FUNNEL_WINDOW_HOURS;
  if (typeof window !== 'number' || !Number.isInteger(window) || window < 1 || window > MAX_FUNNEL_WINDOW_HOURS) {
    details.push({
      field: 'timeWindowHours',
      message: `timeWindowHours must be a whole number of hours from 1 to ${MAX_FUNNEL_WINDOW_HOURS}`,
    });
  }
  if (details.length > 0) return { ok: false, details };
  return {
    ok: true,
    value: {
      inquiryVendorId: String(input['inquiryVendorId']).toLowerCase(),
      applicationVendorId: String(input['applicationVendorId']).toLowerCase(),
      timeWindowHours: window as number,
    },
  };
}
