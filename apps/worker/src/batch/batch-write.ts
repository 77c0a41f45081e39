/**
 * What one consumer batch of a stage writes (docs/pipeline.md): lead states with their outputs,
 * other documents, records to produce, and the consumer position the batch ends at. A BatchWriter
 * commits it, at once on the embedded engines (one SQLite transaction), or with a transactional
 * outbox where the store and the log are different systems.
 */
import type { LeadRecord, TenantContext } from '@leadstream/domain';
import type { BaseDocument, BulkWriteOperation, ProduceRecord } from '@leadstream/ports';

/** One record to produce (a lead's output, an event, a dead letter). */
export interface OutputRecord {
  topic: string;
  key: string | null;
  value: string;
  headers?: Record<string, string>;
}

/** A lead's new state, written only if nobody wrote the lead since `previous` was read. */
export interface LeadWrite {
  /** The state to store; `version` is one more than the previous state's (1 for a new lead). */
  lead: LeadRecord;
  /** The state as read, or null when the batch creates the lead. */
  previous: LeadRecord | null;
  /** What the lead's transitions in this batch produce, once the state is stored. */
  outputs: OutputRecord[];
}

/**
 * Writes of one collection: idempotent ones (upserts keyed by id), which repeating changes nothing,
 * or, with `compareAndSet`, updates filtered on the state the batch read.
 */
export interface CollectionWrites {
  collection: string;
  operations: BulkWriteOperation<BaseDocument>[];
  /**
   * Every operation is an update whose filter holds the document as the batch read it (its
   * version): one that matches nothing means someone wrote the document meanwhile, and the writer
   * throws WriteConflictError instead of committing the batch (nothing of it on the embedded
   * engines; on the outbox writer the collections before this one and the operations of this one
   * that matched stay written, nothing after it is written or produced). The batch is then decided
   * again on the stored state.
   */
  compareAndSet?: boolean;
}

export interface BatchWrite {
  leads: LeadWrite[];
  documents: CollectionWrites[];
  /** Records that belong to no lead state (activity has none; dead letters; a left-over outbox). */
  records: OutputRecord[];
  /** Leads already stored whose outbox still holds outputs (a crash between store and produce). */
  pendingOutboxes: LeadRecord[];
}

/**
 * Adds idempotent writes of one collection to the batch, to the writes of that collection it
 * already holds: a stage that records something per lead (a dedup log entry, a rule match) then
 * costs the batch one bulk write of the collection, not one a lead.
 */
export function addIdempotentWrites(
  write: Pick<BatchWrite, 'documents'>,
  collection: string,
  operations: BulkWriteOperation<BaseDocument>[],
): void {
  if (operations.length === 0) return;
  const existing = write.documents.find((entry) => entry.collection === collection && !entry.compareAndSet);
  if (existing) existing.operations.push(...operations);
  else write.documents.push({ collection, operations: [...operations] });
}

/** Where the consumer resumes after this batch: the offset after its last record. */
export interface ConsumerPosition {
  groupId: string;
  topic: string;
  partition: number;
  nextOffset: number;
}

/**
 * A lead's version (or that of a compare-and-set document) moved between the batch's read and its
 * write: the batch is decided again.
 */
export class WriteConflictError extends Error {
  readonly code = 'WRITE_CONFLICT' as const;
  constructor(
    readonly leadIds: string[],
    what = 'leads',
  ) {
    super(
      `${what} written meanwhile by someone else: ${leadIds.slice(0, 5).join(', ')}${leadIds.length > 5 ? ', ...' : ''}`,
    );
    this.name = 'WriteConflictError';
  }
}

/** The ids a compare-and-set write names (its operations' `_id` filters), for a conflict's message. */
export function documentIds(operations: readonly BulkWriteOperation<BaseDocument>[]): string[] {
  return operations.map((operation) => {
    const id = 'updateOne' in operation ? operation.updateOne.filter['_id'] : operation.insertOne.document._id;
    return typeof id === 'string' ? id : JSON.stringify(id);
  });
}

export interface BatchWriter {
  /** True when documents, records and the consumer position commit in one transaction. */
  readonly atomic: boolean;
  /** Commits the batch; throws WriteConflictError (nothing of the leads in conflict is stored) or an engine error. */
  commit(write: BatchWrite, position: ConsumerPosition): Promise<void>;
  /**
   * A user's change of one lead with its events as one unit of work; null when the lead moved past
   * `expectedVersion` or is gone. Only where one transaction holds both (the embedded engines);
   * elsewhere the API writes the change with its events in the lead's outbox and produces them.
   */
  commitLeadChange?(change: LeadChange): Promise<LeadRecord | null>;
}

/** Records grouped by topic, in their order: one produce per topic. */
export function groupByTopic(records: Iterable<OutputRecord>): Map<string, ProduceRecord[]> {
  const byTopic = new Map<string, ProduceRecord[]>();
  for (const record of records) {
    let list = byTopic.get(record.topic);
    if (!list) byTopic.set(record.topic, (list = []));
    list.push({ key: record.key, value: record.value, ...(record.headers ? { headers: record.headers } : {}) });
  }
  return byTopic;
}

/**
 * A user's change of one lead (the API's update and delete): `set` written compare-and-set on
 * `expectedVersion`, with the events it announces (and any outputs the lead's outbox still held).
 */
export interface LeadChange {
  tenant: TenantContext;
  id: string;
  expectedVersion: number;
  set: Partial<LeadRecord>;
  outputs: OutputRecord[];
}

export function emptyBatchWrite(): BatchWrite {
  return { leads: [], documents: [], records: [], pendingOutboxes: [] };
}

/** The `$set`/`$unset` that turns `previous` into `next`, top-level fields only. */
export function leadChanges(
  previous: LeadRecord,
  next: LeadRecord,
): { $set: Record<string, never>; $unset?: Record<string, true> } {
  const set: Record<string, unknown> = {};
  const unset: Record<string, true> = {};
  for (const [field, value] of Object.entries(next)) {
    if (field === '_id') continue;
    if (value === undefined) {
      if (previous[field] !== undefined) unset[field] = true;
      continue;
    }
    if (!sameJson(previous[field], value)) set[field] = value;
  }
  for (const field of Object.keys(previous)) if (!(field in next) && field !== '_id') unset[field] = true;
  return Object.keys(unset).length > 0
    ? { $set: set as Record<string, never>, $unset: unset }
    : { $set: set as Record<string, never> };
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The lead without its `_id`, for $setOnInsert. */
export function withoutId(lead: LeadRecord): Record<string, never> {
  const { _id: _ignored, ...rest } = lead;
  return rest as unknown as Record<string, never>;
}

export function leadFilter(
  lead: Pick<LeadRecord, '_id' | 'organization_id' | 'environment'>,
  version?: number,
): Record<string, string | number> {
  const filter: Record<string, string | number> = {
    _id: lead._id,
    organization_id: lead.organization_id,
    environment: lead.environment,
  };
  if (version !== undefined) filter['version'] = version;
  return filter;
}
