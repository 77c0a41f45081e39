/**
 * What each secondary index of `leads` buys a read and costs a write, on the embedded store: for
 * every index LeadRepository.ensureIndexes creates, a fresh store with all the others, N leads, the
 * reads that lean on the leads collection (p50 of each) and 10,000 more inserts in batches of 100
 * (CPU time per lead), against the same with every index in the same run (measured again at the
 * end). An index pays for itself where some read is much slower without it. Single-index insert
 * costs were below this bench's run-to-run spread when it was first run (docs/performance.md).
 *
 *   npx tsx bench/lead-indexes.ts [--leads 100000] [--queries 60] [--only NAME,NAME]
 *
 * Reads timed, each through the repository the service uses: list pages (status and source page 3,
 * one vendor, one status, one source, one program, status and vendor), the unfiltered list newest
 * first, the list sorted by update, email, first name and last name, a text search, a two-letter
 * search (prefix ranges) and a phone search, the dedup candidates of a lead, a vendor report's
 * counts over a month, the first page of a reprocessing job, and counting an organization's leads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LEADS_COLLECTION,
  LeadQueryRepository,
  LeadRepository,
  ReprocessJobRepository,
  VendorReportRepository,
} from '@leadstream/dal';
import type { LeadRecord, TenantContext } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { BaseDocument, Collection, DocumentStore, IndexSpec } from '@leadstream/ports';
import { listLead, listQuery, seedLeads, timeQueries } from './support/list-leads';
import { fixed, option } from './support/service';

const LEADS = option('leads', 100_000);
const QUERIES = option('queries', 60);
const ONLY = process.argv.includes('--only')
  ? new Set((process.argv[process.argv.indexOf('--only') + 1] ?? '').split(','))
  : null;
/** Leads inserted after the seeding, timed, in batches of 100 as the intake commits them: what an insert costs. */
const TIMED_INSERTS = 10_000;
const tenant: TenantContext = { organizationId: 'org_indexes', environment: 'live' };

/** A list lead with the dedup blocking keys the intake stores. */
function indexedLead(at: TenantContext, seed: string, i: number, createdAt: string): LeadRecord {
  const lead = listLead(at, seed, i, createdAt);
  return {
    ...lead,
    bk_email: lead.email,
    bk_phone: lead.phone,
    bk_name: `${String(lead.first_name).toLowerCase()}|${String(lead.last_name).toLowerCase()}`,
    dedup_status: 'unique',
  };
}

/** The store as ensureIndexes sees it, creating every index of `leads` but `skip`; records the names. */
function withoutIndex(store: DocumentStore, skip: string | null, names: string[]): DocumentStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== 'collection') return Reflect.get(target, property, receiver) as unknown;
      return (name: string) => {
        const collection = target.collection(name);
        if (name !== LEADS_COLLECTION) return collection;
        return new Proxy(collection, {
          get(inner: Collection<BaseDocument>, key, innerReceiver) {
            if (key !== 'createIndex') return Reflect.get(inner, key, innerReceiver) as unknown;
            return async (spec: IndexSpec) => {
              if (spec.name) names.push(spec.name);
              if (spec.name !== skip) await inner.createIndex(spec);
            };
          },
        });
      };
    },
  });
}

interface Variant {
  insertUs: number;
  reads: Map<string, number>;
}

async function measure(skip: string | null, names: string[]): Promise<Variant> {
  const dir = mkdtempSync(join(tmpdir(), 'lead-indexes-'));
  const store = await openEmbeddedStore({ dataDir: dir });
  try {
    await LeadRepository.ensureIndexes(withoutIndex(store, skip, names));
    await seedLeads(store, tenant, 's', LEADS, indexedLead);
    const collection = store.collection<LeadRecord>(LEADS_COLLECTION);
    const now = new Date().toISOString();
    // CPU time (user + system) of this process, not wall time: waits on the disk drift by more than
    // one index costs, and maintaining an index is CPU work.
    const batches = Array.from({ length: TIMED_INSERTS / 100 }, (_, b) =>
      Array.from({ length: 100 }, (_, j) => indexedLead(tenant, 'timed', b * 100 + j, now)),
    );
    const started = process.cpuUsage();
    for (const batch of batches) await collection.insertMany(batch);
    const used = process.cpuUsage(started);
    const insertUs = (used.user + used.system) / TIMED_INSERTS;

    const queries = new LeadQueryRepository(store);
    const leads = new LeadRepository(store);
    const reports = new VendorReportRepository(store);
    const jobs = new ReprocessJobRepository(store);
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const sample = (n: number) => indexedLead(tenant, 's', (n * 7_919) % LEADS, now);
    const reads: Array<[string, (n: number) => Promise<unknown>]> = [
      [
        'list: status+source, page 3',
        () => queries.list(tenant, listQuery({ status: 'active', source: 'search', page: '3', limit: '20' })),
      ],
      ['list: one vendor', (n) => queries.list(tenant, listQuery({ vendor_id: `vendor_${n % 5}`, limit: '20' }))],
      ['list: one status', () => queries.list(tenant, listQuery({ status: 'qualified', limit: '20' }))],
      ['list: one source', () => queries.list(tenant, listQuery({ source: 'fair', limit: '20' }))],
      ['list: one program', () => queries.list(tenant, listQuery({ program: 'MBA', limit: '20' }))],
      [
        'list: status+vendor',
        (n) => queries.list(tenant, listQuery({ status: 'active', vendor_id: `vendor_${n % 5}`, limit: '20' })),
      ],
      ['list: newest first', () => queries.list(tenant, listQuery({ limit: '20' }))],
      ['list: by updated_at', () => queries.list(tenant, listQuery({ sortBy: 'updated_at', limit: '20' }))],
      [
        'list: by first name',
        () => queries.list(tenant, listQuery({ sortBy: 'first_name', sortOrder: 'asc', limit: '20' })),
      ],
      ['list: by last name', () => queries.list(tenant, listQuery({ sortBy: 'last_name', limit: '20' }))],
      ['search: two letters', (n) => queries.list(tenant, listQuery({ search: ['ma', 'jo', 'ro', 'wi'][n % 4]! }))],
      ['list: by email', () => queries.list(tenant, listQuery({ sortBy: 'email', sortOrder: 'asc', limit: '20' }))],
      ['search: text', (n) => queries.list(tenant, listQuery({ search: String(sample(n).last_name).toLowerCase() }))],
      ['search: phone digits', (n) => queries.list(tenant, listQuery({ search: String(1000 + ((n * 37) % 9000)) }))],
      [
        'dedup candidates',
        (n) => {
          const lead = sample(n);
          return leads.findDedupCandidates(tenant, {
            blocking_keys: [],
            keys: { email: String(lead.bk_email), phone: String(lead.bk_phone), name: String(lead.bk_name) },
            created_after: null,
            vendor_id: null,
            vendor_group: null,
            exclude_lead_id: null,
          });
        },
      ],
      [
        'vendor report counts, a month',
        (n) => reports.countOutcomes(tenant, `vendor_${n % 5}`, { from: monthAgo, to: now }),
      ],
      [
        'reprocess: first page of a vendor',
        async (n) => {
          for await (const lead of jobs.leadsOf(tenant, { vendor_id: `vendor_${n % 5}` }, 50)) return lead;
          return null;
        },
      ],
      [
        "count an organization's leads",
        () => collection.countDocuments({ organization_id: tenant.organizationId, deleted_at: null }),
      ],
    ];
    const timed = new Map<string, number>();
    for (const [name, run] of reads) {
      const many = name.startsWith('count') ? Math.max(3, Math.ceil(QUERIES / 10)) : QUERIES;
      timed.set(name, (await timeQueries(run, many, Math.min(5, many))).p50);
    }
    return { insertUs, reads: timed };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`the indexes of leads on the embedded store: ${LEADS} leads, ${QUERIES} queries per read`);
  const names: string[] = [];
  const all = await measure(null, names);
  // Insert times drift by more than one index costs between stores made minutes apart: every index
  // is measured again at the end, and the savings are against the mean of the two.
  console.log(`every index: insert ${fixed(all.insertUs, 0)} µs a lead`);
  for (const [read, ms] of all.reads) console.log(`  ${read.padEnd(36)} p50 ${fixed(ms, 2)} ms`);
  console.log('\nwithout one index (insert; reads at least 1.5x slower than with every index):');
  const rows: Array<{ name: string; insertUs: number; slower: string[] }> = [];
  for (const name of [...new Set(names)]) {
    if (ONLY && !ONLY.has(name)) continue;
    const without = await measure(name, []);
    const slower = [...without.reads]
      .map(([read, ms]) => [read, ms / Math.max(all.reads.get(read) ?? 0, 0.001)] as const)
      .filter(([, ratio]) => ratio >= 1.5)
      .map(([read, ratio]) => `${read} ${fixed(ratio, 1)}x`);
    rows.push({ name, insertUs: without.insertUs, slower });
    console.log(
      `${name.padEnd(34)} insert ${fixed(without.insertUs, 0).padStart(5)} µs   ${slower.length > 0 ? slower.join(', ') : 'no read slower'}`,
    );
  }
  const again = await measure(null, []);
  const baseline = (all.insertUs + again.insertUs) / 2;
  console.log(
    `\nevery index again: insert ${fixed(again.insertUs, 0)} µs a lead (first ${fixed(all.insertUs, 0)}); savings against the mean, ${fixed(baseline, 0)} µs:`,
  );
  for (const row of rows)
    console.log(`${row.name.padEnd(34)} saves ${fixed(baseline - row.insertUs, 0).padStart(5)} µs a lead`);
}

await main();
