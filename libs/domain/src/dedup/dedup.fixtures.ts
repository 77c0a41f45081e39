import type { DedupLead } from './dedup.types';

/** Builds a candidate lead for the spec files. */
export function candidateLead(overrides: Partial<DedupLead> & { id: string }): DedupLead {
  return {
    email: null,
    phone: null,
    first_name: null,
    last_name: null,
    custom_fields: {},
    vendor_id: 'vendor_a',
    vendor_group: null,
    source: 'vendor_api',
    created_at: '2025-01-10T10:00:00.000Z',
    updated_at: '2025-01-10T10:00:00.000Z',
    ...overrides,
  };
}
