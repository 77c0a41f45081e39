import { normalizeEmail } from '@leadstream/domain';
import type { LeadEventMessage } from '@leadstream/schemas';

/** A row of the analytics table `lead_events`. */
export interface LeadEventRow {
  event_id: string;
  event: string;
  organization_id: string;
  environment: string;
  lead_id: string;
  vendor_id: string;
  occurred_at: string;
  data: string;
  /** lead.created: the submitter's email as deduplication normalizes it, which the funnel matches on; '' otherwise. */
  email_key: string;
}

function field(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const found = (value as Record<string, unknown>)[key];
  return typeof found === 'string' ? found : undefined;
}

/** ClickHouse's basic DateTime64 input format: `YYYY-MM-DD hh:mm:ss.sss` in UTC. */
export function toClickHouseTime(iso: string): string {
  return new Date(iso).toISOString().replace('T', ' ').replace('Z', '');
}

/** Events about a lead carry it as `data.lead` or name it as `data.lead_id` (schemas/messages/event-payloads.schema.json). */
export function toLeadEventRow(message: LeadEventMessage): LeadEventRow {
  const lead = message.data['lead'];
  return {
    event_id: message.id,
    event: message.event,
    organization_id: message.organization_id,
    environment: message.environment,
    lead_id: field(lead, 'id') ?? field(message.data, 'lead_id') ?? '',
    vendor_id: field(lead, 'vendor_id') ?? field(message.data, 'vendor_id') ?? '',
    occurred_at: toClickHouseTime(message.timestamp),
    data: JSON.stringify(message.data),
    email_key: message.event === 'lead.created' ? normalizeEmail(field(lead, 'email') ?? '') : '',
  };
}
