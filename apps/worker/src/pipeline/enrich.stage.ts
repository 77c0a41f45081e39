/**
 * Enrich stage: consumes leads.unique. Enrichment rules arrive with their own issue; until then
 * the stage applies none and completes the lead: status active, lead.accepted, and the decision
 * the waiting request answers 201 with.
 */
import type { LogRecord } from '@leadstream/ports';
import { parseLeadCommand } from '@leadstream/schemas';
import type { LeadActorStore } from './lead-actor-store';
import { decisionOutput, eventOutput, nextStageOutput, TOPICS } from './outputs';

export function enrichHandler(actors: LeadActorStore, now: () => Date = () => new Date()) {
  return async (record: Pick<LogRecord, 'value'>): Promise<void> => {
    const message = parseLeadCommand(JSON.parse(record.value));
    await actors.apply(message, async (lead) => {
      const at = now().toISOString();
      return {
        event: { type: 'ENRICHED' },
        set: { enrichment_status: 'completed', processed_at: at },
        outputs: [
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
        ],
      };
    });
  };
}
