/**
 * Domain events of user changes to a lead (docs/api-conventions.md "Events"): lead.updated with the
 * changed fields' old and new values, lead.deleted. They go to leads.events keyed by lead id, like
 * the pipeline's, so webhooks, analytics and the activity log see them in order with the lead's
 * other events.
 */
import type { FieldChange, LeadRecord } from '@leadstream/domain';
import type { OutboxEntry } from '@leadstream/dal';
import { newId, TOPICS } from '@leadstream/runtime';
import type { LeadEventMessage, LeadEventName } from '@leadstream/schemas';

export const EVENTS_TOPIC = TOPICS.events;

function eventEntry(lead: LeadRecord, event: LeadEventName, data: Record<string, unknown>, at: string): OutboxEntry {
  const message: LeadEventMessage = {
    schema_version: 1,
    id: newId('evt'),
    event,
    timestamp: at,
    organization_id: lead.organization_id,
    environment: lead.environment,
    data,
  };
  return { topic: EVENTS_TOPIC, key: lead._id, value: JSON.stringify(message) };
}

/** lead.updated: `{lead:{id,email,phone,updated_at,...}, changes:{field:{old,new}}}`. */
export function leadUpdatedEvent(updated: LeadRecord, changes: Record<string, FieldChange>, at: string): OutboxEntry {
  return eventEntry(
    updated,
    'lead.updated',
    {
      // `?? null`: the payload names every field (schemas/messages/event-payloads.schema.json), and
      // a lead stored on FerretDB before the MongoDB engine restored upserts' null fields may lack
      // them (docs/decisions.md, "FerretDB drops null fields").
      lead: {
        id: updated._id,
        email: updated.email ?? null,
        phone: updated.phone ?? null,
        first_name: updated.first_name ?? null,
        last_name: updated.last_name ?? null,
        status: updated.status,
        vendor_id: updated.vendor_id ?? null,
        updated_at: at,
      },
      changes,
    },
    at,
  );
}

/** lead.deleted (a payload of ours): the lead's id and email and when it was deleted. */
export function leadDeletedEvent(lead: LeadRecord, at: string): OutboxEntry {
  return eventEntry(
    lead,
    'lead.deleted',
    { lead_id: lead._id, lead: { id: lead._id, email: lead.email ?? null, deleted_at: at }, deleted_at: at },
    at,
  );
}
