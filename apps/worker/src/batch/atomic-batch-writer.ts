/**
 * The embedded engines' BatchWriter: the log lives in the store's database, so a batch's lead
 * states, documents, output records and consumer offset commit in one SQLite transaction. There
 * is no outbox: either everything of the batch is there after a crash, or nothing is and the
 * batch is consumed again.
 */
import type { EmbeddedLog } from '@leadstream/engine-embedded-log';
import type { EmbeddedStore } from '@leadstream/engine-embedded-store';
import { LEADS_COLLECTION, leadChangeWrite } from '@leadstream/dal';
import { type LeadRecord, withFields } from '@leadstream/domain';
import { type BaseDocument, type BulkWriteOperation, DuplicateKeyError } from '@leadstream/ports';
import type { Metrics } from '@leadstream/runtime';
import {
  type BatchWrite,
  type BatchWriter,
  type ConsumerPosition,
  documentIds,
  groupByTopic,
  type LeadChange,
  leadChanges,
  leadFilter,
  WriteConflictError,
} from './batch-write';

export interface AtomicBatchWriterOptions {
  store: EmbeddedStore;
  /** The raw embedded log, opened on the store's connection (EmbeddedLog.sharesConnection). */
  log: EmbeddedLog;
  /** TOPIC_PREFIX: the raw log sees prefixed topics and groups. */
  topicPrefix: string;
  /** Counts what the batches produce (the instrumented log does it for every other produce). */
  metrics?: Pick<Metrics, 'messagesProduced'>;
  /**
   * Where the records of one topic go instead of the log, once their transaction has committed:
   * `leadstream start` hands the decisions (leads.decisions) straight to its HTTP thread, which
   * answers the waiting requests, since on the embedded engines no other process can be waiting.
   */
  direct?: { topic: string; deliver(values: string[]): void };
}

export class AtomicBatchWriter implements BatchWriter {
  readonly atomic = true;

  constructor(private readonly options: AtomicBatchWriterOptions) {
    if (!options.log.sharesConnection)
      throw new Error('AtomicBatchWriter needs an embedded log opened on the store connection');
  }

  async commit(write: BatchWrite, position: ConsumerPosition): Promise<void> {
    const { store, log, topicPrefix } = this.options;
    if (writesNothing(write)) {
      // A batch that was a no-op for its stage (notify with no webhooks for its events, activity for
      // events already recorded): its offset rides on the next transaction instead of a commit of
      // its own. Handing its records to the stage again after a crash writes nothing again.
      log.commitDeferred(
        topicPrefix + position.groupId,
        topicPrefix + position.topic,
        position.partition,
        position.nextOffset,
      );
      return;
    }
    const transaction = log.beginTransaction();
    const produced: Array<[string, number]> = [];
    const direct: string[] = [];
    store.transaction(() => {
      for (const { collection, operations, compareAndSet } of write.documents) {
        const { matched, failure } = store.embeddedCollection(collection).bulkWriteWithin(operations);
        if (failure !== undefined) throw failure as Error;
        // A compare-and-set that matched nothing: the document changed since the batch read it.
        const missed = compareAndSet ? documentIds(operations).filter((_, index) => !matched[index]) : [];
        if (missed.length > 0) throw new WriteConflictError(missed, collection);
      }
      this.writeLeads(write);
      const outputs = [
        ...write.leads.flatMap((entry) => entry.outputs),
        ...write.records,
        ...write.pendingOutboxes.flatMap((lead) => lead.outbox),
      ];
      for (const [topic, records] of groupByTopic(outputs)) {
        if (topic === this.options.direct?.topic) {
          direct.push(...records.map((record) => record.value));
          continue;
        }
        transaction.produce(topicPrefix + topic, records);
        produced.push([topic, records.length]);
      }
      transaction.commitOffset(
        topicPrefix + position.groupId,
        topicPrefix + position.topic,
        position.partition,
        position.nextOffset,
      );
    });
    transaction.published();
    for (const [topic, count] of produced) this.options.metrics?.messagesProduced.inc({ topic }, count);
    if (direct.length > 0) this.options.direct?.deliver(direct);
  }

  /**
   * A user's change of one lead (the API's update and delete) with its events, as one transaction:
   * the compare-and-set write and the produce of `outputs` commit together, so the lead keeps no
   * outbox. Null when the lead moved past `expectedVersion` or is gone (nothing is produced).
   */
  async commitLeadChange(change: LeadChange): Promise<LeadRecord | null> {
    const { store, log, topicPrefix } = this.options;
    const { filter, update } = leadChangeWrite(change.tenant, change.id, change.expectedVersion, change.set, []);
    const transaction = log.beginTransaction();
    const produced: Array<[string, number]> = [];
    const written = store.transaction(() => {
      const lead = store.embeddedCollection<LeadRecord>(LEADS_COLLECTION).findOneAndUpdateWithin(filter, update);
      if (!lead) return null;
      for (const [topic, records] of groupByTopic(change.outputs)) {
        transaction.produce(topicPrefix + topic, records);
        produced.push([topic, records.length]);
      }
      return lead;
    });
    transaction.published();
    for (const [topic, count] of produced) this.options.metrics?.messagesProduced.inc({ topic }, count);
    return written;
  }

  private writeLeads(write: BatchWrite): void {
    if (write.leads.length === 0 && write.pendingOutboxes.length === 0) return;
    const operations: BulkWriteOperation<BaseDocument>[] = write.leads.map(({ lead, previous }) =>
      previous === null
        ? { insertOne: { document: withFields<LeadRecord>(lead, { outbox: [] }) as unknown as BaseDocument } }
        : {
            updateOne: {
              filter: leadFilter(previous, previous.version),
              update: leadChanges(previous, withFields<LeadRecord>(lead, { outbox: [] })),
            },
          },
    );
    // Leads stored by an outbox writer earlier (the store was shared with Kafka before): their outputs go out now.
    for (const lead of write.pendingOutboxes) {
      operations.push({
        updateOne: { filter: leadFilter(lead, lead.version), update: { $set: { outbox: [], outbox_at: null } } },
      });
    }
    const { matched, failure } = this.options.store.embeddedCollection(LEADS_COLLECTION).bulkWriteWithin(operations);
    // A lead this batch creates exists already: created meanwhile (a redelivery raced this batch).
    if (failure instanceof DuplicateKeyError && failure.index === '_id_' && matched.length < write.leads.length)
      throw new WriteConflictError([write.leads[matched.length]!.lead._id]);
    if (failure !== undefined) throw failure as Error;
    const conflicts = write.leads.filter((_, index) => !matched[index]).map(({ lead }) => lead._id);
    const offset = write.leads.length;
    conflicts.push(...write.pendingOutboxes.filter((_, index) => !matched[offset + index]).map((lead) => lead._id));
    // Throwing rolls the whole transaction back: the batch is read and decided again.
    if (conflicts.length > 0) throw new WriteConflictError(conflicts);
  }
}

function writesNothing(write: BatchWrite): boolean {
  return (
    write.leads.length === 0 &&
    write.records.length === 0 &&
    write.pendingOutboxes.length === 0 &&
    write.documents.every((writes) => writes.operations.length === 0)
  );
}
