import type { LeadRecord } from '@leadstream/domain';
import type { OutputRecord } from '../batch/batch-write';
import { nextMessage } from '../batch/lead-stage';
import { TOPICS } from '@leadstream/runtime';
import type { LeadEventMessage, LeadEventName, LeadCommandMessage, LeadDecisionMessage } from '@leadstream/schemas';
import { newId } from './ids';

/** The topic names (the catalogue, libs/runtime/src/topics.ts). */
export { TOPICS };

/** A domain event on leads.events (the envelope of docs/api-conventions.md "Events"), keyed by lead id. */
export function eventOutput(
  lead: Pick<LeadRecord, '_id' | 'organization_id' | 'environment'>,
  event: LeadEventName,
  data: Record<string, unknown>,
  at: string,
): OutputRecord {
  const message: LeadEventMessage = {
    schema_version: 1,
    id: newId('evt'),
    event,
    timestamp: at,
    organization_id: lead.organization_id,
    environment: lead.environment,
    data,
  };
  return { topic: TOPICS.events, key: lead._id, value: JSON.stringify(message) };
}

/** The decision the waiting api instance answers with, keyed by correlation id. */
export function decisionOutput(decision: Omit<LeadDecisionMessage, 'schema_version'>): OutputRecord {
  const message: LeadDecisionMessage = { schema_version: 1, ...decision };
  return { topic: TOPICS.decisions, key: decision.correlation_id, value: JSON.stringify(message) };
}

/** The message that hands the lead to the next stage, keyed by lead id from here on (docs/pipeline.md). */
export function nextStageOutput(topic: string, key: string, from: LeadCommandMessage, stage: string): OutputRecord {
  return { topic, key, value: JSON.stringify(nextMessage(from, stage)) };
}

/** The key of leads.submitted and leads.validated: tenant and normalized email, so decisions about one person are serialized. */
export function submissionKey(
  message: Pick<LeadCommandMessage, 'organization_id' | 'environment'>,
  lead: Pick<LeadRecord, 'dedup_key'>,
): string {
  return `${message.environment}:${message.organization_id}:${lead.dedup_key}`;
}

/** The lead as lead.created carries it (event-payloads.schema.json), plus vendor_id for receivers that route by vendor. */
export function leadCreatedPayload(lead: LeadRecord): Record<string, unknown> {
  return {
    lead: {
      id: lead._id,
      email: lead.email,
      first_name: lead.first_name,
      last_name: lead.last_name,
      phone: lead.phone,
      program_interest: lead.program_interest,
      source: lead.source,
      utm_source: lead.utm_source,
      utm_medium: lead.utm_medium,
      utm_campaign: lead.utm_campaign,
      custom_fields: lead.custom_fields,
      created_at: lead.created_at,
      vendor_id: lead.vendor_id,
      ip_address: lead.ip_address,
    },
  };
}
