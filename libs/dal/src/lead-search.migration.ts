/**
 * The search copies `search_text` and `search_phone` (docs/decisions.md "Lead search") for leads
 * stored before they existed: every lead without `search_text` gets both, computed from its email,
 * names and phone as every write computes them (leadSearchFields). Runs once per store: a record
 * in `migrations` says it finished, so later starts only read that record. Each write is
 * conditional on the lead still having no `search_text`, so a lead changed meanwhile (whose write
 * carried its own copies) is left as that write made it.
 */
import { leadSearchFields, type LeadRecord } from '@leadstream/domain';
import { type BulkWriteOperation, type DocumentStore } from '@leadstream/ports';

/** Store data migrations that have run, by id. */
export const MIGRATIONS_COLLECTION = 'migrations';
export const LEAD_SEARCH_MIGRATION = 'leads.search_copies.v1';

interface MigrationRecord {
  _id: string;
  completed_at: Date;
  changed: number;
}

/** Backfills the search copies once; returns how many leads it changed (0 once it has run). */
export async function migrateLeadSearch(
  store: DocumentStore,
  leadsCollection: string,
  batchSize = 500,
): Promise<number> {
  const migrations = store.collection<MigrationRecord>(MIGRATIONS_COLLECTION);
  if (await migrations.findOne({ _id: LEAD_SEARCH_MIGRATION })) return 0;
  const leads = store.collection<LeadRecord>(leadsCollection);
  let changed = 0;
  let batch: BulkWriteOperation<LeadRecord>[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length > 0) changed += (await leads.bulkWrite(batch)).modifiedCount;
    batch = [];
  };
  for await (const lead of leads.iterate({ search_text: { $exists: false } }, { batchSize })) {
    const { search_text, search_phone } = leadSearchFields(lead);
    batch.push({
      updateOne: {
        filter: { _id: lead._id, search_text: { $exists: false } },
        update: { $set: { search_text, search_phone } },
      },
    });
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  // Processes starting together each run the backfill (idempotent) and record it at once.
  await migrations.updateOne(
    { _id: LEAD_SEARCH_MIGRATION },
    { $set: { completed_at: new Date(), changed } },
    { upsert: true },
  );
  return changed;
}
