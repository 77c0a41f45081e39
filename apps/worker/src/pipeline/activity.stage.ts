/**
 * Activity stage: consumes leads.events and keeps the lead activity log (spec 2.3). The entry's
 * id is the event's id, so a redelivered event is recorded once.
 */
import { LeadActivityRepository, type LeadActivityEntry } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { parseLeadEvent, type LeadEventMessage } from '@leadstream/schemas';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { type CollectionWrites, emptyBatchWrite } from '../batch/batch-write';
import { deadLetter } from '../batch/lead-stage';
import { TOPICS } from './outputs';

const DESCRIPTIONS: Record<string, string> = {
  'lead.created': 'Lead received',
  'lead.validated': 'Lead passed validation',
  'lead.enriched': 'Enrichment rules applied',
  'lead.routed': 'Lead routed',
  'lead.crm_synced': 'Lead synced to CRM',
  // Not in spec 6.2's list for the log; kept so a user sees why a lead is not in the CRM.
  'lead.crm_sync_failed': 'CRM sync failed',
  'lead.updated': 'Lead updated',
  'lead.deleted': 'Lead deleted',
  'lead.rejected': 'Lead rejected',
  'lead.duplicate': 'Duplicate detected',
};

function leadIdOf(message: LeadEventMessage): string | undefined {
  const lead = message.data['lead'];
  if (typeof lead === 'object' && lead !== null && typeof (lead as { id?: unknown }).id === 'string') return (lead as { id: string }).id;
  const id = message.data['lead_id'];
  return typeof id === 'string' ? id : undefined;
}

/** The metadata of each entry (spec 2.3 names vendor_id, ip_address, validation_rules, rule_id, changes, crm_type, crm_id). */
function metadataOf(message: LeadEventMessage): Record<string, unknown> {
  const data = message.data;
  switch (message.event) {
    case 'lead.created': {
      const lead = (data['lead'] ?? {}) as Record<string, unknown>;
      return { vendor_id: lead['vendor_id'] ?? null, ip_address: lead['ip_address'] ?? null };
    }
    case 'lead.validated':
      return { validation_rules: data['validation_rules'] ?? [], warnings: data['warnings'] ?? [], flags: data['flags'] ?? [] };
    case 'lead.rejected':
      return { rule_id: data['rule_id'] ?? null, rejection_reason: data['rejection_reason'] ?? null };
    case 'lead.duplicate':
      return { duplicate_of: data['duplicate_of'] ?? null, similarity_score: data['similarity_score'] ?? null, action: data['action'] ?? null };
    case 'lead.updated':
      // The changed fields with their old and new values (spec 2.3 names `changes`).
      return { changes: data['changes'] ?? {} };
    default:
      return { ...data };
  }
}

/**
 * Every lead event of the batch as one upsert per entry, keyed by the event id: a redelivered
 * event changes nothing. Committed with the consumer offset (one transaction on the embedded engines).
 */
export function activityStage(): BatchStage {
  return {
    name: 'activity',
    topic: TOPICS.events,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const operations: CollectionWrites['operations'] = [];
      for (const record of records) {
        let message: LeadEventMessage;
        try {
          message = parseLeadEvent(JSON.parse(record.value));
        } catch (error) {
          write.records.push(deadLetter(record, `not a lead event: ${error instanceof Error ? error.message : String(error)}`));
          continue;
        }
        const entry = entryOf(message, record);
        if (entry) operations.push(LeadActivityRepository.recordOperation(entry));
      }
      if (operations.length > 0) write.documents.push({ collection: LeadActivityRepository.COLLECTION, operations });
      return { write, handled: records.length };
    },
  };
}

function entryOf(message: LeadEventMessage, record: Pick<LogRecord, 'offset'>): LeadActivityEntry | undefined {
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
    // Events of one lead share a partition (keyed by lead id): the offset orders entries of one instant.
    sequence: Number(record.offset),
    description,
    metadata: metadataOf(message),
  };
}
