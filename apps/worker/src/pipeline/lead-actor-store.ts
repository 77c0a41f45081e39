/**
 * How a stage advances a lead's actor exactly once per message (DESIGN.md section 5): load the
 * lead, skip a message already applied, compute the transition, write state and outputs together
 * with a version check, produce the outputs, then mark them produced. A crash between the write
 * and the produce is repaired by the redelivery, which finds the outputs still in the outbox.
 */
import { advanceLead, leadStatusOf, type LeadActorEvent, type LeadRecord, type TenantContext } from '@leadstream/domain';
import { DuplicateKeyError, type EventLog } from '@leadstream/ports';
import type { LeadRepository, OutboxEntry } from '@leadstream/dal';
import type { LeadCommandMessage } from '@leadstream/schemas';

export interface StageDecision {
  event: LeadActorEvent;
  /** Lead fields to set with the transition (status, actor and updated_at are set here). */
  set: Partial<LeadRecord>;
  outputs: OutboxEntry[];
}

export class LeadActorStore {
  constructor(
    private readonly leads: LeadRepository,
    private readonly log: EventLog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The first stage creates the lead with its first transition already applied. */
  async create(message: LeadCommandMessage, lead: LeadRecord): Promise<void> {
    const record: LeadRecord = { ...lead, applied_messages: [message.message_id], version: 1 };
    try {
      await this.leads.insert(record);
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      const existing = await this.leads.findById(tenantOf(message), message.lead_id);
      if (existing?.applied_messages.includes(message.message_id)) {
        await this.flush(existing);
        return;
      }
      throw error;
    }
    await this.flush(record);
  }

  /** Applies one message to an existing lead. */
  async apply(message: LeadCommandMessage, decide: (lead: LeadRecord) => Promise<StageDecision>): Promise<void> {
    const tenant = tenantOf(message);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const lead = await this.leads.findById(tenant, message.lead_id);
      if (!lead) throw new Error(`lead ${message.lead_id} not found (deleted, expired or never created)`);
      if (lead.applied_messages.includes(message.message_id)) {
        await this.flush(lead);
        return;
      }
      const decision = await decide(lead);
      const actor = advanceLead(lead.actor, decision.event);
      const set: Partial<LeadRecord> = { ...decision.set, actor, status: leadStatusOf(actor.state), updated_at: this.now().toISOString() };
      const written = await this.leads.applyStageWrite(tenant, lead._id, lead.version, message.message_id, set, decision.outputs);
      if (written) {
        await this.flush(written);
        return;
      }
      // Someone wrote the lead meanwhile (an update through the API): decide again on fresh state.
    }
    throw new Error(`lead ${message.lead_id}: gave up after repeated concurrent writes`);
  }

  /** Produces what the outbox holds, grouped by topic, then empties it. Safe to repeat. */
  private async flush(lead: LeadRecord): Promise<void> {
    if (lead.outbox.length === 0) return;
    const byTopic = new Map<string, OutboxEntry[]>();
    for (const entry of lead.outbox) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
    for (const [topic, entries] of byTopic) {
      await this.log.produce(topic, entries.map((entry) => ({ key: entry.key, value: entry.value })));
    }
    await this.leads.clearOutbox(lead._id, lead.version);
  }
}

export function tenantOf(message: Pick<LeadCommandMessage, 'organization_id' | 'environment'>): TenantContext {
  return { organizationId: message.organization_id, environment: message.environment };
}
