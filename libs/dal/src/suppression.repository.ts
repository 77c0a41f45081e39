/**
 * Suppression lists and their entries (docs/suppression-lists.md). Entries hold only the SHA-256 of
 * a normalized value: `{_id: "<list id>:<hash>", organization_id, list_id, hash, added_at}`. The
 * intake looks up every hash of a batch in one query (`findHits`); a list keeps its `entry_count`
 * up to date from the inserts and deletes of its entries. Every query names the organization.
 */
import {
  suppressionExpiry,
  type SuppressionHit,
  type SuppressionList,
  type SuppressionListInput,
} from '@leadstream/domain';
import { DuplicateKeyError, type BulkWriteOperation, type Collection, type DocumentStore } from '@leadstream/ports';

export const SUPPRESSION_LISTS_COLLECTION = 'suppression_lists';
export const SUPPRESSION_ENTRIES_COLLECTION = 'suppression_entries';
export const SUPPRESSION_IMPORTS_COLLECTION = 'suppression_imports';

interface ListDocument extends Omit<SuppressionList, 'id'> {
  _id: string;
}

interface EntryDocument {
  _id: string;
  organization_id: string;
  list_id: string;
  hash: string;
  added_at: Date;
}

/** A CSV import of a list (`POST /api/suppression-lists/:id/entries/import`), polled by its id. */
export interface SuppressionImport {
  id: string;
  organization_id: string;
  list_id: string;
  status: 'running' | 'completed' | 'failed';
  /** Data rows read so far (the header, when there is one, is not counted). */
  rows: number;
  /** Entries new to the list. */
  added: number;
  /** Rows that are no value of the list's kind (skipped). */
  invalid: number;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

interface ImportDocument extends Omit<SuppressionImport, 'id'> {
  _id: string;
}

const toList = (doc: ListDocument): SuppressionList => ({
  id: doc._id,
  organization_id: doc.organization_id,
  name: doc.name,
  kind: doc.kind,
  action: doc.action,
  // FerretDB may drop null fields: absent reads as null.
  expires_after_days: doc.expires_after_days ?? null,
  sandbox_only: doc.sandbox_only,
  enabled: doc.enabled,
  entry_count: Math.max(0, doc.entry_count ?? 0),
  created_at: doc.created_at,
  updated_at: doc.updated_at,
});

const toImport = (doc: ImportDocument): SuppressionImport => ({
  id: doc._id,
  organization_id: doc.organization_id,
  list_id: doc.list_id,
  status: doc.status,
  rows: doc.rows,
  added: doc.added,
  invalid: doc.invalid,
  error: doc.error ?? null,
  created_at: doc.created_at,
  finished_at: doc.finished_at ?? null,
});

/** Entries written per store request. */
const WRITE_CHUNK = 1_000;
/** Hashes asked per look-up request. */
const LOOKUP_CHUNK = 2_000;

export class SuppressionRepository {
  private readonly lists: Collection<ListDocument>;
  private readonly entries: Collection<EntryDocument>;
  private readonly imports: Collection<ImportDocument>;

  constructor(store: DocumentStore) {
    this.lists = store.collection<ListDocument>(SUPPRESSION_LISTS_COLLECTION);
    this.entries = store.collection<EntryDocument>(SUPPRESSION_ENTRIES_COLLECTION);
    this.imports = store.collection<ImportDocument>(SUPPRESSION_IMPORTS_COLLECTION);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await store
      .collection(SUPPRESSION_LISTS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, created_at: 1 }, name: 'organization_created_at' });
    // The intake's look-up: every hash of a batch among the enabled lists' ids.
    await store
      .collection(SUPPRESSION_ENTRIES_COLLECTION)
      .createIndex({ keys: { hash: 1, list_id: 1 }, name: 'hash_list' });
    // Deleting a list deletes its entries.
    await store.collection(SUPPRESSION_ENTRIES_COLLECTION).createIndex({ keys: { list_id: 1 }, name: 'list' });
    await store
      .collection(SUPPRESSION_IMPORTS_COLLECTION)
      .createIndex({ keys: { organization_id: 1, list_id: 1, created_at: -1 }, name: 'organization_list_created_at' });
  }

  async create(organizationId: string, id: string, input: SuppressionListInput, at: string): Promise<SuppressionList> {
    const doc: ListDocument = {
      _id: id,
      organization_id: organizationId,
      ...input,
      entry_count: 0,
      created_at: at,
      updated_at: at,
    };
    await this.lists.insertOne(doc);
    return toList(doc);
  }

  /** Oldest first. */
  async list(organizationId: string): Promise<SuppressionList[]> {
    return (await this.lists.find({ organization_id: organizationId }, { sort: { created_at: 1, _id: 1 } })).map(
      toList,
    );
  }

  async get(organizationId: string, id: string): Promise<SuppressionList | null> {
    const doc = await this.lists.findOne({ _id: id, organization_id: organizationId });
    return doc ? toList(doc) : null;
  }

  async update(
    organizationId: string,
    id: string,
    patch: Partial<SuppressionListInput>,
    at: string,
  ): Promise<SuppressionList | null> {
    const doc = await this.lists.findOneAndUpdate(
      { _id: id, organization_id: organizationId },
      { $set: { ...patch, updated_at: at } },
    );
    return doc ? toList(doc) : null;
  }

  /** The list and its entries; false when there is no such list. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.lists.deleteOne({ _id: id, organization_id: organizationId });
    if (deleted === 0) return false;
    await this.entries.deleteMany({ list_id: id, organization_id: organizationId });
    return true;
  }

  /**
   * Adds hashes to a list (one already there is added again: its expiry starts anew). Returns how
   * many were new to the list. Per chunk: one read of the ids already there, one insert of the new
   * ones, one update of the others; a concurrent writer of the same values (a duplicate key) makes
   * the chunk fall back to one upsert per value.
   */
  async addEntries(
    list: Pick<SuppressionList, 'id' | 'organization_id'>,
    hashes: readonly string[],
    at: Date,
  ): Promise<number> {
    let added = 0;
    for (let start = 0; start < hashes.length; start += WRITE_CHUNK) {
      const chunk = [...new Set(hashes.slice(start, start + WRITE_CHUNK))];
      const ids = chunk.map((hash) => `${list.id}:${hash}`);
      const existing = new Set((await this.entries.find({ _id: { $in: ids } })).map((doc) => doc._id));
      if (existing.size > 0) await this.entries.updateMany({ _id: { $in: [...existing] } }, { $set: { added_at: at } });
      const fresh = chunk
        .filter((hash) => !existing.has(`${list.id}:${hash}`))
        .map((hash) => ({
          _id: `${list.id}:${hash}`,
          organization_id: list.organization_id,
          list_id: list.id,
          hash,
          added_at: at,
        }));
      if (fresh.length === 0) continue;
      let inserted = fresh.length;
      try {
        await this.entries.insertMany(fresh);
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error;
        inserted = await this.upsertEntries(list, fresh, at);
      }
      added += inserted;
      if (inserted > 0) await this.countChange(list, inserted);
    }
    return added;
  }

  private async upsertEntries(
    list: Pick<SuppressionList, 'id' | 'organization_id'>,
    docs: readonly EntryDocument[],
    at: Date,
  ): Promise<number> {
    const operations: BulkWriteOperation<EntryDocument>[] = docs.map((doc) => ({
      updateOne: {
        filter: { _id: doc._id },
        update: {
          $set: { added_at: at },
          $setOnInsert: { organization_id: list.organization_id, list_id: list.id, hash: doc.hash },
        },
        upsert: true,
      },
    }));
    return (await this.entries.bulkWrite(operations)).upsertedCount;
  }

  /** Removes hashes from a list; returns how many were on it. */
  async removeEntries(
    list: Pick<SuppressionList, 'id' | 'organization_id'>,
    hashes: readonly string[],
  ): Promise<number> {
    let removed = 0;
    for (let start = 0; start < hashes.length; start += WRITE_CHUNK) {
      const ids = hashes.slice(start, start + WRITE_CHUNK).map((hash) => `${list.id}:${hash}`);
      const count = await this.entries.deleteMany({ _id: { $in: ids }, organization_id: list.organization_id });
      removed += count;
      if (count > 0) await this.countChange(list, -count);
    }
    return removed;
  }

  /** One hash on one list: when it was added and when it leaves the list (null: never), or null. */
  async findEntry(
    list: Pick<SuppressionList, 'id' | 'organization_id' | 'expires_after_days'>,
    hash: string,
  ): Promise<{ added_at: Date; expires_at: Date | null } | null> {
    const doc = await this.entries.findOne({ _id: `${list.id}:${hash}`, organization_id: list.organization_id });
    return doc ? { added_at: doc.added_at, expires_at: suppressionExpiry(list, doc.added_at) } : null;
  }

  /**
   * The entries of these lists that hold any of these hashes: the intake's one look-up per batch
   * (chunked only past LOOKUP_CHUNK hashes). Expiry is the caller's (it depends on the list).
   */
  async findHits(listIds: readonly string[], hashes: readonly string[]): Promise<SuppressionHit[]> {
    if (listIds.length === 0 || hashes.length === 0) return [];
    const unique = [...new Set(hashes)];
    const hits: SuppressionHit[] = [];
    for (let start = 0; start < unique.length; start += LOOKUP_CHUNK) {
      const docs = await this.entries.find({
        hash: { $in: unique.slice(start, start + LOOKUP_CHUNK) },
        list_id: { $in: [...listIds] },
      });
      for (const doc of docs) hits.push({ list_id: doc.list_id, hash: doc.hash, added_at: doc.added_at });
    }
    return hits;
  }

  private async countChange(list: Pick<SuppressionList, 'id' | 'organization_id'>, by: number): Promise<void> {
    await this.lists.updateOne({ _id: list.id, organization_id: list.organization_id }, { $inc: { entry_count: by } });
  }

  async createImport(job: SuppressionImport): Promise<void> {
    const { id, ...rest } = job;
    await this.imports.insertOne({ _id: id, ...rest });
  }

  async updateImport(
    job: Pick<SuppressionImport, 'id' | 'organization_id'>,
    patch: Partial<Omit<SuppressionImport, 'id' | 'organization_id' | 'list_id'>>,
  ): Promise<void> {
    await this.imports.updateOne({ _id: job.id, organization_id: job.organization_id }, { $set: patch });
  }

  async getImport(organizationId: string, listId: string, id: string): Promise<SuppressionImport | null> {
    const doc = await this.imports.findOne({ _id: id, organization_id: organizationId, list_id: listId });
    return doc ? toImport(doc) : null;
  }
}
