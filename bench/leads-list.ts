/**
 * Lead list and search at scale (issue "Leads API"): p50/p99 of a filtered, sorted list page and
 * of a search, with 10 k and with 1 M leads in one organization, through the same repository and
 * query parser GET /api/leads uses. The baseline is the same query at 10 k in the same run.
 *
 *   npx tsx bench/leads-list.ts [--engines embedded|kafka] [--small 10000] [--large 1000000] [--queries 300] [--warmup 20]
 *
 * Target: list-page p99 at 1 M <= 1.5 x at 10 k. `--engines kafka` uses the MongoDB-protocol
 * server of `npm run infra:up` (FerretDB) for the store.
 */
import { randomUUID } from 'node:crypto';
import { LeadQueryRepository, LeadRepository, LEADS_COLLECTION } from '@leadstream/dal';
import { leadSearchFields, parseLeadListQuery, type LeadListQuery, type LeadRecord, type TenantContext } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { deployment, enginesOption, option, percentile } from './support/service';

const SMALL = option('small', 10_000);
const LARGE = option('large', 1_000_000);
const QUERIES = option('queries', 300);
const WARMUP = option('warmup', 20);
const CHUNK = 10_000;
const STATUSES = ['active', 'active', 'active', 'contacted', 'qualified', 'rejected', 'duplicate', 'converted'] as const;
const SOURCES = ['search', 'social', 'fair', 'referral', 'email'];
const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'Wei', 'Priya', 'Mohammed', 'Sofia'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Nguyen', 'Patel', 'Kim', 'Okafor'];

function lead(tenant: TenantContext, seed: string, i: number, createdAt: string): LeadRecord {
  const first = FIRST[i % FIRST.length] ?? 'Ann';
  const last = `${LAST[(i >> 4) % LAST.length] ?? 'Lee'}${i % 97}`;
  const email = `${first.toLowerCase()}.${last.toLowerCase()}.${seed}${i}@example.edu`;
  const phone = `+1617${String(2_000_000 + ((i * 7919) % 7_999_999)).padStart(7, '0')}`;
  return {
    _id: `lead_${seed}_${i}`,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    vendor_id: `vendor_${i % 5}`,
    status: STATUSES[i % STATUSES.length] ?? 'active',
    email,
    first_name: first,
    last_name: last,
    phone,
    source: SOURCES[i % SOURCES.length] ?? null,
    program: i % 3 === 0 ? 'MBA' : 'BSc Computer Science',
    custom_fields: {},
    ...leadSearchFields({ email, first_name: first, last_name: last, phone }),
    submitted_at: createdAt,
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
    expires_at: null,
    version: 1,
  } as unknown as LeadRecord;
}

async function seed(store: DocumentStore, tenant: TenantContext, seedId: string, count: number): Promise<number> {
  const collection = store.collection<LeadRecord>(LEADS_COLLECTION);
  const started = performance.now();
  const now = Date.now();
  for (let offset = 0; offset < count; offset += CHUNK) {
    const docs: LeadRecord[] = [];
    for (let i = offset; i < Math.min(count, offset + CHUNK); i++) {
      docs.push(lead(tenant, seedId, i, new Date(now - 90 * 86_400_000 + Math.floor((i / count) * 90 * 86_400_000)).toISOString()));
    }
    await collection.insertMany(docs);
    if ((offset / CHUNK) % 20 === 19) console.log(`  seeded ${offset + CHUNK} leads, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return (performance.now() - started) / 1000;
}

function query(raw: Record<string, string>): LeadListQuery {
  const parsed = parseLeadListQuery(raw);
  if (!parsed.ok) throw new Error(`bad bench query ${JSON.stringify(raw)}: ${JSON.stringify(parsed.details)}`);
  return parsed.query;
}

interface Figures {
  p50: number;
  p99: number;
}

async function time(run: (n: number) => Promise<unknown>): Promise<Figures> {
  for (let n = 0; n < WARMUP; n++) await run(n);
  const latencies: number[] = [];
  for (let n = 0; n < QUERIES; n++) {
    const started = performance.now();
    await run(n);
    latencies.push(performance.now() - started);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function measure(store: DocumentStore, size: number): Promise<{ list: Figures; search: Figures; plan: string[] }> {
  const seedId = randomUUID().slice(0, 6);
  const tenant: TenantContext = { organizationId: `org_list_${seedId}`, environment: 'live' };
  console.log(`seeding ${size} leads`);
  const seconds = await seed(store, tenant, seedId, size);
  const leads = new LeadQueryRepository(store);
  // A filtered, sorted page users open all day: active leads of one source, newest first, page 3.
  const listQuery = query({ status: 'active', source: 'search', sortBy: 'created_at', sortOrder: 'desc', page: '3', limit: '20' });
  const list = await time(() => leads.list(tenant, listQuery));
  const search = await time((n) => leads.list(tenant, query({ search: `${(FIRST[n % FIRST.length] ?? 'ann').toLowerCase()}.${(LAST[n % LAST.length] ?? 'lee').toLowerCase()}${n % 97}` })));
  const plan = await leads.explainList(tenant, listQuery);
  console.log(
    `${String(size).padStart(8)} leads (seeded in ${seconds.toFixed(1)} s): list p50 ${list.p50.toFixed(2)} ms p99 ${list.p99.toFixed(2)} ms; search p50 ${search.p50.toFixed(2)} ms p99 ${search.p99.toFixed(2)} ms; list index ${plan.join(', ')}`,
  );
  return { list, search, plan };
}

async function main(): Promise<void> {
  const engines = enginesOption();
  const target = deployment(engines);
  console.log(`lead list and search, ${engines === 'kafka' ? 'MongoDB-protocol server' : 'embedded'} store, ${QUERIES} queries each`);
  try {
    const store = await target.openStore();
    try {
      await LeadRepository.ensureIndexes(store);
      const small = await measure(store, SMALL);
      const large = await measure(store, LARGE);
      const ratio = large.list.p99 / small.list.p99;
      console.log(`list p99 ${LARGE} / ${SMALL} = ${ratio.toFixed(2)} (target <= 1.5); search p99 ratio ${(large.search.p99 / small.search.p99).toFixed(2)}`);
    } finally {
      await store.close();
    }
  } finally {
    await target.cleanup();
  }
}

await main();
