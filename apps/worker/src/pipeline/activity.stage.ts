/**
 * The lead activity log (`leadActivity`). A stage batch records the entries of the events it
 * produces in its own commit (`recordActivity`, called by BatchStageHandler) and marks those
 * events; the activity stage consumes leads.events for the events nobody recorded yet (those the
 * API produces). The entry's id is the event's id, so an event recorded twice is one entry.
 */
import { LeadActivityRepository, type LeadActivityEntry } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { parseLeadEvents, type LeadEventMessage } from '@leadstream/schemas';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { ACTIVITY_RECORDED_HEADER, entryOf, eventSequence } from '../batch/activity-entries';
import { type CollectionWrites, emptyBatchWrite } from '../batch/batch-write';
import { deadLetter } from '../batch/lead-stage';
import { TOPICS } from './outputs';

export interface ActivityStageDependencies {
  /**
   * Empties the metadata of a lead's recorded entries (docs/consent.md): called on lead.erased for
   * the entries recorded before it; entries of the same batch before it are recorded empty.
   */
  scrubErased?: (tenant: TenantContext, leadId: string) => Promise<void>;
}

export function activityStage(deps: ActivityStageDependencies = {}): BatchStage {
  return {
    name: 'activity',
    topic: TOPICS.events,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const operations: CollectionWrites['operations'] = [];
      const entries: LeadActivityEntry[] = [];
      const erased: LeadEventMessage[] = [];
      for (const record of records) {
        if (record.headers[ACTIVITY_RECORDED_HEADER] === 'recorded') continue;
        let messages: LeadEventMessage[];
        try {
          messages = parseLeadEvents(record.value);
        } catch (error) {
          write.records.push(
            deadLetter(record, `not a lead event: ${error instanceof Error ? error.message : String(error)}`),
          );
          continue;
        }
        for (const [index, message] of messages.entries()) {
          const entry = entryOf(message, eventSequence(record, index));
          if (entry) entries.push(entry);
          if (message.event === 'lead.erased') {
            erased.push(message);
            for (const earlier of entries)
              if (earlier.lead_id === entry?.lead_id && earlier.organization_id === message.organization_id)
                earlier.metadata = { erased: true };
          }
        }
      }
      for (const entry of entries) operations.push(LeadActivityRepository.recordOperation(entry));
      for (const message of erased) {
        const leadId = message.data['lead_id'];
        if (deps.scrubErased && typeof leadId === 'string')
          await deps.scrubErased({ organizationId: message.organization_id, environment: message.environment }, leadId);
      }
      if (operations.length > 0) write.documents.push({ collection: LeadActivityRepository.COLLECTION, operations });
      return { write, handled: records.length };
    },
  };
}
