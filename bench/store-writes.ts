/**
 * What one lead write costs in the embedded store with every index of the leads collection,
 * against the same writes on a collection without indexes (baseline, same run): an insert, an
 * update that changes no indexed field (an outbox), and a compare-and-set that changes the status.
 *
 *   npx tsx bench/store-writes.ts [--writes 5000]
 *
 * The pipeline writes each lead about seven times (insert, three stage writes, three outbox
 * clears), so these figures bound how fast the embedded pipeline can go (docs/performance.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeadRepository, LEADS_COLLECTION } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { BaseDocument } from '@leadstream/ports';
import { option } from './support/service';

const WRITES = option('writes', 5000);

function lead(i: number): BaseDocument {
  const email = `ann.lee${i}@example.edu`;
  return {
    _id: `lead_${i}`,
    organization_id: 'org_bench',
    environment: 'live',
    deleted_at: null,
    status: 'processing',
    source: 'search',
    vendor_id: 'vendor_1',
    program: 'MBA',
    email,
    email_lower: email,
    first_name: 'Ann',
    first_name_lower: 'ann',
    last_name: 'Lee',
    last_name_lower: 'lee',
    phone: '+14155550100',
    phone_digits: '14155550100',
    bk_email: email,
    bk_phone: '14155550100',
    bk_name: 'ann|lee',
    created_at: new Date(1_700_000_000_000 + i).toISOString(),
    updated_at: new Date(1_700_000_000_000 + i).toISOString(),
    expires_at: null,
    custom_fields: {},
    enrichment_data: {},
    notes: 'x'.repeat(2000),
    outbox: [],
    version: 1,
  };
}

async function measure(indexed: boolean): Promise<{ insert: number; outbox: number; cas: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-store-writes-'));
  const store = await openEmbeddedStore({ dataDir });
  try {
    if (indexed) await LeadRepository.ensureIndexes(store);
    const leads = store.collection(LEADS_COLLECTION);
    for (let i = 0; i < WRITES; i++) await leads.insertOne(lead(i)); // warm: the table is not empty
    const time = async (run: (i: number) => Promise<unknown>): Promise<number> => {
      const started = performance.now();
      for (let i = 0; i < WRITES; i++) await run(i);
      return (performance.now() - started) / WRITES;
    };
    const insert = await time((i) => leads.insertOne(lead(WRITES + i)));
    const outbox = await time((i) =>
      leads.updateOne({ _id: `lead_${i}` }, { $set: { outbox: [{ topic: 'leads.validated', key: `lead_${i}` }] } }),
    );
    const cas = await time((i) =>
      leads.findOneAndUpdate(
        { _id: `lead_${i}`, version: 1 },
        { $set: { status: 'active', updated_at: new Date().toISOString() }, $inc: { version: 1 } },
      ),
    );
    return { insert, outbox, cas };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bare = await measure(false);
const indexed = await measure(true);
const row = (name: string, r: typeof bare): string =>
  `${name.padEnd(28)} insert ${r.insert.toFixed(3)} ms   outbox update ${r.outbox.toFixed(3)} ms   status CAS ${r.cas.toFixed(3)} ms`;
console.log(`embedded store, ${WRITES} writes of each kind on a ~3 KB lead`);
console.log(row('no indexes (baseline)', bare));
console.log(row('every leads index', indexed));
console.log(
  `ratio indexed / baseline: insert ${(indexed.insert / bare.insert).toFixed(2)}, outbox update ${(indexed.outbox / bare.outbox).toFixed(2)}, status CAS ${(indexed.cas / bare.cas).toFixed(2)}`,
);
