/** A leads.submitted command as the api produces it, with fresh ids, for stage specs. */
import { randomUUID } from 'node:crypto';
import type { LeadCommandMessage } from '@leadstream/schemas';
import { newId } from '@leadstream/runtime';

export function leadCommand(
  organizationId: string,
  vendorId: string,
  overrides: Partial<LeadCommandMessage> = {},
): LeadCommandMessage {
  return {
    schema_version: 1,
    message_id: newId('msg'),
    correlation_id: newId('corr'),
    lead_id: newId('lead'),
    organization_id: organizationId,
    environment: 'live',
    vendor_id: vendorId,
    submitted_at: new Date().toISOString(),
    submission: { email: `ada.${randomUUID().slice(0, 8)}@example.edu`, first_name: 'Ada', last_name: 'Lovelace' },
    ...overrides,
  };
}
