/**
 * The lead activity log (`leadActivity`). A stage batch records the entries of the events it
 * produces in its own commit (`recordActivity`, called by BatchStageHandler) and marks those
 * events; the activity stage consumes leads.events for the events nobody recorded yet (those the
 * API produces). The entry's id is the event's id, so an event recorded twice is one entry.
 */
import { LeadActivityRepository } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { parseLeadEvent, type LeadEventMessage } from '@leadstream/schemas';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { ACTIVITY_RECORDED_HEADER, entryOf } from '../batch/activity-entries';
import { type CollectionWrites, emptyBatchWrite } from '../batch/batch-write';
import { deadLetter } from '../batch/lead-stage';
import { TOPICS } from './outputs';

export function activityStage(): BatchStage {
  return {
    name: 'activity',
    topic: TOPICS.events,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      const operations: CollectionWrites['operations'] = [];
      for (const record of records) {
        if (record.headers[ACTIVITY_RECORDED_HEADER] === 'recorded') continue;
        let message: LeadEventMessage;
        try {
          message = parseLeadEvent(JSON.parse(record.value));
        } catch (error) {
          write.records.push(
            deadLetter(record, `not a lead event: ${error instanceof Error ? error.message : String(error)}`),
          );
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
