/**
 * The BatchWriter where the store and the log are different systems (Kafka and MongoDB, or any
 * mix): a transactional outbox. The batch's lead states are stored with their outputs in one
 * bulkWrite, the outputs are produced (one produce per topic), then the outboxes are cleared in
 * one bulkWrite. A crash after the store write leaves outputs in an outbox: the batch's
 * redelivery produces them (the messages are already applied) without clearing them (the lead's
 * next writer replaces them), and the OutboxSweeper produces and clears those nobody replaces.
 * Outputs may go out twice, with the same ids; consumers are idempotent.
 */
import { LEADS_COLLECTION } from '@leadstream/dal';
import type { LeadRecord } from '@leadstream/domain';
import type { BulkWriteOperation, Collection, DocumentStore, EventLog } from '@leadstream/ports';
import {
  type BatchWrite,
  type BatchWriter,
  documentIds,
  groupByTopic,
  type OutputRecord,
  leadChanges,
  leadFilter,
  withoutId,
  WriteConflictError,
} from './batch-write';

export class OutboxBatchWriter implements BatchWriter {
  readonly atomic = false;
  private readonly leads: Collection<LeadRecord>;

  constructor(
    private readonly store: DocumentStore,
    private readonly log: EventLog,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.leads = store.collection<LeadRecord>(LEADS_COLLECTION);
  }

  async commit(write: BatchWrite): Promise<void> {
    // Documents first: idempotent ones, which a retry after a conflict writes again, changing
    // nothing, and compare-and-set ones, of which one that matched nothing stops the batch here
    // (nothing after it is written or produced) to be decided again on the stored state.
    for (const { collection, operations, compareAndSet } of write.documents) {
      if (operations.length === 0) continue;
      const result = await this.store.collection(collection).bulkWrite(operations);
      if (compareAndSet && result.insertedCount + result.matchedCount < operations.length)
        throw new WriteConflictError(documentIds(operations), collection);
    }
    const stored = await this.writeLeads(write);
    const outputs = [
      ...stored.flatMap((lead) => lead.outbox),
      ...write.pendingOutboxes.flatMap((lead) => lead.outbox),
      ...write.records,
    ];
    await produceByTopic(this.log, outputs);
    // Only the outboxes this batch wrote are cleared. A left-over outbox of a lead this batch did not
    // change (a redelivery after a crash) is produced but left in place: the lead's next stage may be
    // taking it over at this moment, and on a store whose conditional updates are not atomic
    // (FerretDB reads, changes and writes whole documents) a clear running beside that stage's write
    // can undo it. The next writer replaces the outbox; the OutboxSweeper clears one nobody does.
    await clearOutboxes(this.leads, stored);
    if (stored.length < write.leads.length) {
      const storedIds = new Set(stored.map((lead) => lead._id));
      throw new WriteConflictError(
        write.leads.filter(({ lead }) => !storedIds.has(lead._id)).map(({ lead }) => lead._id),
      );
    }
  }

  /** Stores the leads with their outputs in the outbox; returns the ones whose compare-and-set won. */
  private async writeLeads(write: BatchWrite): Promise<LeadRecord[]> {
    if (write.leads.length === 0) return [];
    const at = this.now().toISOString();
    const withOutbox = write.leads.map(({ lead, previous, outputs }) => ({
      previous,
      lead: {
        ...lead,
        outbox: outputs.map(toOutboxEntry),
        outbox_at: outputs.length > 0 ? at : null,
      } satisfies LeadRecord,
    }));
    const operations: BulkWriteOperation<LeadRecord>[] = withOutbox.map(({ lead, previous }) =>
      previous === null
        ? { updateOne: { filter: leadFilter(lead), update: { $setOnInsert: withoutId(lead) }, upsert: true } }
        : { updateOne: { filter: leadFilter(previous, previous.version), update: leadChanges(previous, lead) } },
    );
    const inserts = withOutbox.filter(({ previous }) => previous === null).length;
    const result = await this.leads.bulkWrite(operations);
    if (result.upsertedCount === inserts && result.matchedCount === withOutbox.length - inserts)
      return withOutbox.map(({ lead }) => lead);
    // Some compare-and-set lost (rare): read back which writes are the stored state.
    const byTenant = new Map<string, string[]>();
    for (const { lead } of withOutbox) {
      const key = `${lead.organization_id}\u0000${lead.environment}`;
      byTenant.set(key, [...(byTenant.get(key) ?? []), lead._id]);
    }
    const current = new Map<string, LeadRecord>();
    for (const [key, ids] of byTenant) {
      const [organizationId, environment] = key.split('\u0000') as [string, string];
      for (const lead of await this.leads.find({ _id: { $in: ids }, organization_id: organizationId, environment }))
        current.set(lead._id, lead);
    }
    return withOutbox.filter(({ lead }) => current.get(lead._id)?.write_id === lead.write_id).map(({ lead }) => lead);
  }
}

function toOutboxEntry(record: OutputRecord): LeadRecord['outbox'][number] {
  return {
    topic: record.topic,
    key: record.key ?? '',
    value: record.value,
    ...(record.headers ? { headers: record.headers } : {}),
  };
}

/** One produce per topic, records in their order. */
export async function produceByTopic(log: EventLog, records: Iterable<OutputRecord>): Promise<void> {
  await Promise.all([...groupByTopic(records)].map(([topic, list]) => log.produce(topic, list)));
}

/** Marks the outboxes produced, where the lead still holds the state that filled them. */
export async function clearOutboxes(leads: Collection<LeadRecord>, stored: LeadRecord[]): Promise<void> {
  const operations: BulkWriteOperation<LeadRecord>[] = stored
    .filter((lead) => lead.outbox.length > 0)
    .map((lead) => ({
      updateOne: { filter: leadFilter(lead, lead.version), update: { $set: { outbox: [], outbox_at: null } } },
    }));
  if (operations.length > 0) await leads.bulkWrite(operations);
}
