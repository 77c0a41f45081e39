/**
 * The leads one stage batch works on, in memory: read once (one `$in` per tenant), advanced by
 * each message in order, written once. A lead changed by several messages of the batch is written
 * once, with all their outputs in order.
 */
import { randomUUID } from 'node:crypto';
import type { LeadRecord, TenantContext } from '@leadstream/domain';
import type { LeadRepository } from '@leadstream/dal';
import type { BatchWrite, LeadWrite, OutputRecord } from './batch-write';

interface Entry {
  previous: LeadRecord | null;
  current: LeadRecord;
  outputs: OutputRecord[];
  changed: boolean;
  /** Outputs a crash left in the stored lead's outbox: produced with this batch. */
  leftover: OutputRecord[];
}

export class LeadBatch {
  /** Stamped on every lead this batch writes, to tell whose compare-and-set won (OutboxBatchWriter). */
  readonly writeId = randomUUID();
  private readonly entries = new Map<string, Entry>();
  /** Topics whose outputs stay in memory for the next stage of a chain instead of being produced. */
  private chained: ReadonlySet<string> = new Set();
  /** Outputs to chained topics, in the order the stages put them. */
  private forwarded: OutputRecord[] = [];
  /** Trace headers stamped on the outputs put from now on (the span of the command being decided). */
  private trace: Record<string, string> | undefined;

  /** Reads the leads of the given ids, grouped by tenant (one query per tenant). */
  static async prefetch(
    leads: Pick<LeadRepository, 'findManyById'>,
    wanted: Array<{ tenant: TenantContext; id: string }>,
  ): Promise<LeadBatch> {
    const batch = new LeadBatch();
    const byTenant = new Map<string, { tenant: TenantContext; ids: Set<string> }>();
    for (const { tenant, id } of wanted) {
      const key = `${tenant.organizationId}\u0000${tenant.environment}`;
      const group = byTenant.get(key) ?? { tenant, ids: new Set<string>() };
      group.ids.add(id);
      byTenant.set(key, group);
    }
    const found = await Promise.all(
      [...byTenant.values()].map(({ tenant, ids }) => leads.findManyById(tenant, [...ids])),
    );
    for (const lead of found.flat()) batch.load(lead);
    return batch;
  }

  /**
   * Ids of leads whose outbox another writer filled moments ago and is still producing (its clear
   * has not landed yet): a stage must not write them now. On a server whose conditional updates
   * are not atomic (FerretDB reads, modifies and writes whole documents) that writer's clear and
   * this batch's write can both apply, and the later one undoes the other. `applied`: the message
   * ids of this batch, whose own left-over outbox (a redelivery after a crash) is not in flight.
   */
  inFlight(now: number, windowMs: number, applied: ReadonlySet<string>): string[] {
    const ids: string[] = [];
    for (const [id, entry] of this.entries) {
      const lead = entry.previous;
      if (!lead || lead.outbox.length === 0 || !lead.outbox_at) continue;
      if (lead.applied_messages.some((messageId) => applied.has(messageId))) continue;
      if (now - Date.parse(lead.outbox_at) < windowMs) ids.push(id);
    }
    return ids;
  }

  /** Replaces leads read before any decision with a fresh read of them (after waiting out an in-flight outbox). */
  refresh(leads: LeadRecord[]): void {
    for (const lead of leads) this.entries.delete(lead._id);
    for (const lead of leads) this.load(lead);
  }

  /** Adds a lead read by the stage (a prefetched lead, or a dedup original found as a candidate). */
  load(lead: LeadRecord): void {
    if (this.entries.has(lead._id)) return;
    this.entries.set(lead._id, {
      previous: lead,
      current: lead,
      outputs: [],
      changed: false,
      leftover: lead.outbox.map((entry) => ({
        topic: entry.topic,
        key: entry.key,
        value: entry.value,
        ...(entry.headers ? { headers: entry.headers } : {}),
      })),
    });
  }

  /** Every lead the batch holds, as read. */
  all(): LeadRecord[] {
    return [...this.entries.values()].flatMap((entry) => (entry.previous ? [entry.previous] : []));
  }

  /** The lead's state as this batch has it so far (null: not stored and not created yet). */
  get(tenant: TenantContext, id: string): LeadRecord | null {
    const lead = this.entries.get(id)?.current;
    // Tenant check: a message never touches another tenant's lead, whatever its id says.
    return lead && lead.organization_id === tenant.organizationId && lead.environment === tenant.environment
      ? lead
      : null;
  }

  /**
   * Keeps outputs to these topics in the batch (stage-chain.ts): the next stage of the chain
   * takes them with `takeForwarded` and decides them in the same batch, so they are never produced.
   */
  chain(topics: ReadonlySet<string>): void {
    this.chained = topics;
  }

  /** The outputs to `topic` put so far, in order, removed from the batch. */
  takeForwarded(topic: string): OutputRecord[] {
    const taken = this.forwarded.filter((output) => output.topic === topic);
    this.forwarded = this.forwarded.filter((output) => output.topic !== topic);
    return taken;
  }

  /**
   * Trace headers for the outputs put from now on that leave the batch (undefined: none). Outputs
   * forwarded inside a chain keep the trace context of the record that started it.
   */
  traceWith(headers: Record<string, string> | undefined): void {
    this.trace = headers;
  }

  /** Records the lead's next state and what that transition produces. */
  put(next: LeadRecord, produced: OutputRecord[]): void {
    const trace = this.trace;
    const leaving = this.chained.size === 0 ? produced : produced.filter((output) => !this.chained.has(output.topic));
    const outputs = trace
      ? leaving.map((output) => ({ ...output, headers: { ...output.headers, ...trace } }))
      : leaving;
    if (leaving.length !== produced.length)
      this.forwarded.push(...produced.filter((output) => this.chained.has(output.topic)));
    const entry = this.entries.get(next._id);
    if (entry) {
      entry.current = next;
      entry.outputs.push(...outputs);
      entry.changed = true;
    } else {
      this.entries.set(next._id, { previous: null, current: next, outputs: [...outputs], changed: true, leftover: [] });
    }
  }

  /** The leads to write and the left-over outboxes to flush, for the batch writer. */
  toWrite(write: BatchWrite): void {
    const leads: LeadWrite[] = [];
    for (const entry of this.entries.values()) {
      if (entry.changed) {
        leads.push({
          lead: {
            ...entry.current,
            version: (entry.previous?.version ?? 0) + 1,
            write_id: this.writeId,
            outbox: [],
            outbox_at: null,
          },
          previous: entry.previous,
          outputs: [...entry.leftover, ...entry.outputs],
        });
      } else if (entry.previous && entry.leftover.length > 0) {
        write.pendingOutboxes.push(entry.previous);
      }
    }
    write.leads.push(...leads);
  }
}
