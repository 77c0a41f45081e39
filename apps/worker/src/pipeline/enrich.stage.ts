/**
 * Enrich stage: consumes leads.unique. Enrichment rules arrive with their own issue; until then
 * the stage applies none and completes the lead: status active, lead.accepted, and the decision
 * the waiting request answers 201 with.
 */
import type { LeadRepository } from '@leadstream/dal';
import type { BatchStage } from '../batch/batch-stage';
import { advance, deadLetter, leadStage } from '../batch/lead-stage';
import { decisionOutput, eventOutput, nextStageOutput, TOPICS } from './outputs';

export function enrichStage(leads: Pick<LeadRepository, 'findManyById'>, now: () => Date = () => new Date()): BatchStage {
  return leadStage<undefined>({
    name: 'enrich',
    topic: TOPICS.unique,
    leads,
    prefetch: async () => undefined,
    decide(message, lead, _context, batch, write, record) {
      if (!lead) {
        write.records.push(deadLetter(record, `lead ${message.lead_id} not found (deleted, expired or never created)`));
        return 'decided';
      }
      const at = now().toISOString();
      batch.put(advance(lead, message, { type: 'ENRICHED' }, { enrichment_status: 'completed', processed_at: at }, at), [
        decisionOutput({
          correlation_id: message.correlation_id,
          lead_id: lead._id,
          outcome: 'accepted',
          decided_at: at,
          email: lead.email,
          warnings: lead.warnings,
          flags: lead.flags,
          ...(lead.duplicate_of ? { duplicate_of: lead.duplicate_of } : {}),
        }),
        eventOutput(lead, 'lead.accepted', { lead_id: lead._id, vendor_id: lead.vendor_id, status: 'active', flags: lead.flags, accepted_at: at }, at),
        nextStageOutput(TOPICS.enriched, lead._id, message, 'enrich'),
      ]);
      return 'decided';
    },
  });
}
