/**
 * The lead activity log's entries (`leadActivity`), made from lead events: by a stage batch for the
 * events it produces (`recordActivity`, in the same commit), and by the activity stage for the
 * events nobody recorded yet. The entry's id is the event's id, so recording twice is one entry.
 */
import { LeadActivityRepository, type LeadActivityEntry } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { TOPICS } from '@leadstream/runtime';
import { parseLeadEvents, type LeadEventMessage } from '@leadstream/schemas';
import { type BatchWrite, type CollectionWrites, type OutputRecord } from './batch-write';

const EVENTS_TOPIC = TOPICS.events;

const DESCRIPTIONS: Record<string, string> = {
  'lead.created': 'Lead received',
  'lead.validated': 'Lead passed validation',
  'lead.enriched': 'Enrichment rules applied',
  'lead.routed': 'Lead routed',
  'lead.crm_synced': 'Lead synced to CRM',
  // A failure, not a step the lead took; recorded so a user sees why a lead is not in the CRM.
  'lead.crm_sync_failed': 'CRM sync failed',
  'lead.updated': 'Lead updated',
  'lead.deleted': 'Lead deleted',
  'lead.rejected': 'Lead rejected',
  'lead.duplicate': 'Duplicate detected',
  'lead.erased': 'Personal data erased',
  'lead.reviewed': 'Lead reviewed',
};

function leadIdOf(message: LeadEventMessage): string | undefined {
  const lead = message.data['lead'];
  if (typeof lead === 'object' && lead !== null && typeof (lead as { id?: unknown }).id === 'string')
    return (lead as { id: string }).id;
  const id = message.data['lead_id'];
  return typeof id === 'string' ? id : undefined;
}

/** The metadata of each entry (the keys it may hold: vendor_id, ip_address, validation_rules, rule_id, changes, crm_type, crm_id). */
function metadataOf(message: LeadEventMessage): Record<string, unknown> {
  const data = message.data;
  switch (message.event) {
    case 'lead.created': {
      const lead = (data['lead'] ?? {}) as Record<string, unknown>;
      return { vendor_id: lead['vendor_id'] ?? null, ip_address: lead['ip_address'] ?? null };
    }
    case 'lead.validated':
      return {
        validation_rules: data['validation_rules'] ?? [],
        warnings: data['warnings'] ?? [],
        flags: data['flags'] ?? [],
      };
    case 'lead.rejected':
      return { rule_id: data['rule_id'] ?? null, rejection_reason: data['rejection_reason'] ?? null };
    case 'lead.duplicate':
      return {
        duplicate_of: data['duplicate_of'] ?? null,
        similarity_score: data['similarity_score'] ?? null,
        action: data['action'] ?? null,
      };
    case 'lead.updated':
      // The changed fields with their old and new values, under `changes`.
      return { changes: data['changes'] ?? {} };
    default:
      return { ...data };
  }
}

/**
 * Every lead event of the batch as one upsert per entry, keyed by the event id: a redelivered
 * event changes nothing. Committed with the consumer offset (one transaction on the embedded engines).
 */
/** The header that marks an event whose activity entry was written in the batch that produced it. */
export const ACTIVITY_RECORDED_HEADER = 'x-activity';

/**
 * Adds to `write` the activity entries of the lead events it produces, and marks those events so
 * the activity stage skips them. Entries of one batch are ordered by their place in it.
 */
export function recordActivity(write: BatchWrite): void {
  const operations: CollectionWrites['operations'] = [];
  let sequence = 0;
  const mark = (output: OutputRecord): OutputRecord => {
    if (output.topic !== EVENTS_TOPIC || output.headers?.[ACTIVITY_RECORDED_HEADER] === 'recorded') return output;
    let messages: LeadEventMessage[];
    try {
      messages = parseLeadEvents(output.value);
    } catch {
      return output; // the activity stage dead-letters it
    }
    for (const message of messages) {
      const entry = entryOf(message, sequence++);
      if (entry) operations.push(LeadActivityRepository.recordOperation(entry));
    }
    return { ...output, headers: { ...output.headers, [ACTIVITY_RECORDED_HEADER]: 'recorded' } };
  };
  for (const lead of write.leads) lead.outputs = lead.outputs.map(mark);
  write.records = write.records.map(mark);
  if (operations.length > 0) write.documents.push({ collection: LeadActivityRepository.COLLECTION, operations });
}

/**
 * The place of the `index`th event of a record among the entries of one instant: its offset, and
 * the event's place in the record as a fraction (a record holds the events of one lead and batch,
 * far fewer than 1,000), so entries of records of one event keep the offset as their sequence.
 */
export function eventSequence(record: Pick<LogRecord, 'offset'>, index: number): number {
  return Number(record.offset) + index / 1_000;
}

export function entryOf(message: LeadEventMessage, sequence: number): LeadActivityEntry | undefined {
  const description = DESCRIPTIONS[message.event];
  const leadId = leadIdOf(message);
  if (!description || !leadId) return undefined;
  return {
    _id: message.id,
    organization_id: message.organization_id,
    environment: message.environment,
    lead_id: leadId,
    event: message.event,
    timestamp: message.timestamp,
    // Events of one lead share a partition (keyed by lead id): the offset (or the place in the batch
    // that recorded it) orders entries of one instant.
    sequence,
    description,
    metadata: metadataOf(message),
  };
}
