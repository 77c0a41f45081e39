/**
 * The one way the user API changes a lead: a compare-and-set write of the change with its event.
 * Where the engines commit a write and its records in one unit of work (the embedded engines:
 * `commitLeadChange`, run by the thread that owns the database), that is all; elsewhere the event
 * goes in the lead's outbox, which is then produced and cleared. Shared by update, delete and
 * their bulk forms.
 */
import type { LeadQueryRepository, OutboxEntry } from '@leadstream/dal';
import { DomainError, type LeadRecord, type TenantContext } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';

/** Writes a user's change of a lead and produces its outputs as one unit of work (docs/pipeline.md). */
export interface LeadChangeCommitter {
  /** The written lead; null when it moved past `expectedVersion` or is gone. */
  commitLeadChange(change: {
    tenant: TenantContext;
    id: string;
    expectedVersion: number;
    set: Partial<LeadRecord>;
    outputs: OutboxEntry[];
  }): Promise<LeadRecord | null>;
}

export interface LeadWriterDeps {
  queries: Pick<LeadQueryRepository, 'findVisible' | 'writeIfUnchanged' | 'clearOutbox'>;
  log: Pick<EventLog, 'produce'>;
  clock: () => Date;
  /** The engines' unit of work for lead changes, where they have one (else the outbox). */
  changes?: LeadChangeCommitter;
}

/** What a change sets on the lead and the event it announces; null when there is nothing to change. */
export type LeadChange = (
  lead: LeadRecord,
  at: string,
) => { set: Partial<LeadRecord>; event: (written: LeadRecord) => OutboxEntry } | null;

export interface LeadWriteResult {
  lead: LeadRecord;
  changed: boolean;
}

const MAX_ATTEMPTS = 5;

/** Produces what a write put in the lead's outbox, then marks it produced. */
async function flushOutbox(deps: LeadWriterDeps, lead: LeadRecord): Promise<void> {
  if (lead.outbox.length === 0) return;
  const byTopic = new Map<string, OutboxEntry[]>();
  for (const entry of lead.outbox) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
  for (const [topic, records] of byTopic)
    await deps.log.produce(
      topic,
      records.map(({ key, value }) => ({ key, value })),
    );
  await deps.queries.clearOutbox(
    { organizationId: lead.organization_id, environment: lead.environment },
    lead._id,
    lead.version,
  );
}

/**
 * A compare-and-set write of a user change with its event. The event joins whatever the lead's
 * outbox still holds (a stage's outputs not yet confirmed), so nothing queued there is lost;
 * producing those again is harmless, since every output has a stable id. Null: no visible lead.
 */
export async function writeLead(
  deps: LeadWriterDeps,
  tenant: TenantContext,
  id: string,
  change: LeadChange,
): Promise<LeadWriteResult | null> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const lead = await deps.queries.findVisible(tenant, id);
    if (!lead) return null;
    const at = deps.clock().toISOString();
    const planned = change(lead, at);
    if (!planned) return { lead, changed: false };
    const next = { ...lead, ...planned.set };
    const outputs = [...lead.outbox, planned.event(next)];
    if (deps.changes) {
      const written = await deps.changes.commitLeadChange({
        tenant,
        id,
        expectedVersion: lead.version,
        set: planned.set,
        outputs,
      });
      if (written) return { lead: written, changed: true };
      continue;
    }
    const written = await deps.queries.writeIfUnchanged(tenant, id, lead.version, planned.set, outputs);
    if (written) {
      await flushOutbox(deps, written);
      return { lead: written, changed: true };
    }
  }
  throw new DomainError('SERVICE_UNAVAILABLE', 'The lead is being changed by others; try again');
}
