/**
 * Dedup stage: consumes leads.validated, keyed by tenant and normalized email, so two identical
 * leads arriving together are decided one after the other and cannot both pass. Candidates come
 * from the indexed blocking keys inside the window (never a scan). Every decision is logged.
 */
import { findDuplicate, toDedupLead, type DedupRepository, type LeadRepository, type VendorRepository } from '@leadstream/dal';
import { mergeLeads, type DedupDecision, type LeadRecord } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { parseLeadCommand, type LeadCommandMessage } from '@leadstream/schemas';
import type { LeadActorStore, StageDecision } from './lead-actor-store';
import { tenantOf } from './lead-actor-store';
import { decisionOutput, eventOutput, nextStageOutput, TOPICS } from './outputs';

export interface DedupStageDependencies {
  actors: LeadActorStore;
  leads: LeadRepository;
  dedup: Pick<DedupRepository, 'getConfig' | 'record'>;
  vendors: Pick<VendorRepository, 'findById'>;
  now?: () => Date;
}

export function dedupHandler(deps: DedupStageDependencies) {
  const now = deps.now ?? (() => new Date());

  return async (record: Pick<LogRecord, 'value'>): Promise<void> => {
    const message = parseLeadCommand(JSON.parse(record.value));
    const tenant = tenantOf(message);
    await deps.actors.apply(message, async (lead) => {
      const at = now();
      const config = await deps.dedup.getConfig(tenant);
      const { decision, original } = await findDuplicate(deps, tenant, toDedupLead(lead, null), config, at);
      await deps.dedup.record(tenant, lead._id, decision.log);
      return transitionFor(message, lead, decision, original, at.toISOString(), deps.leads);
    });
  };
}

async function transitionFor(
  message: LeadCommandMessage,
  lead: LeadRecord,
  decision: DedupDecision,
  original: LeadRecord | undefined,
  at: string,
  leads: LeadRepository,
): Promise<StageDecision> {
  const next = nextStageOutput(TOPICS.unique, lead._id, message, 'dedup');
  if (!decision.duplicate || decision.action === 'allow') {
    return { event: { type: 'UNIQUE' }, set: { dedup_status: 'unique' }, outputs: [next] };
  }
  const match = { duplicateOf: decision.matchedLeadId, similarityScore: decision.similarityScore };
  const duplicateEvent = eventOutput(
    lead,
    'lead.duplicate',
    { lead_id: lead._id, duplicate_of: decision.matchedLeadId, similarity_score: decision.similarityScore, matched_fields: decision.matchedFields, action: decision.action },
    at,
  );
  const linked: Partial<LeadRecord> = { duplicate_of: decision.matchedLeadId, similarity_score: decision.similarityScore };
  switch (decision.action) {
    case 'reject':
      return {
        event: { type: 'DUPLICATE_REJECTED', ...match },
        set: { ...linked, dedup_status: 'duplicate', processed_at: at, rejection_reason: 'duplicate' },
        outputs: [
          duplicateEvent,
          decisionOutput({
            correlation_id: message.correlation_id,
            lead_id: lead._id,
            outcome: 'duplicate',
            decided_at: at,
            email: lead.email,
            duplicate_of: decision.matchedLeadId,
            similarity_score: decision.similarityScore,
            matched_fields: decision.matchedFields,
          }),
        ],
      };
    case 'merge': {
      const outputs = [duplicateEvent];
      if (original) {
        const { patch, changes } = mergeLeads(original, { ...lead, created_at: lead.submitted_at });
        if (Object.keys(changes).length > 0) {
          await leads.mergeInto({ organizationId: lead.organization_id, environment: lead.environment }, original._id, patch, at);
          outputs.push(eventOutput(original, 'lead.updated', { lead: { id: original._id, email: original.email, phone: patch.phone ?? original.phone, updated_at: at }, changes }, at));
        }
      }
      outputs.push(
        decisionOutput({ correlation_id: message.correlation_id, lead_id: decision.matchedLeadId, outcome: 'merged', decided_at: at, email: lead.email, duplicate_of: decision.matchedLeadId }),
      );
      return { event: { type: 'DUPLICATE_MERGED', ...match }, set: { ...linked, dedup_status: 'duplicate', processed_at: at }, outputs };
    }
    case 'link-to-existing':
      return { event: { type: 'DUPLICATE_LINKED', ...match }, set: { ...linked, dedup_status: 'unique' }, outputs: [duplicateEvent, next] };
    case 'flag':
      return { event: { type: 'DUPLICATE_FLAGGED', ...match }, set: { ...linked, dedup_status: 'unique', flags: [...new Set([...lead.flags, 'manual_review' as const, 'possible_duplicate' as const])] }, outputs: [duplicateEvent, next] };
  }
}
