/**
 * Deduplication decision time per lead with 10 k and with 1 M stored leads in the window, through
 * the real dedup path: LeadRepository.findDedupCandidates (blocking keys, window) + decideDuplicate
 * with the default configuration. Target: time(1 M) / time(10 k) <= 1.2 (candidates come from
 * indexes, so the window's size should not matter).
 *
 *   npx tsx bench/dedup.ts [--engines embedded|kafka] [--small 10000] [--large 1000000] [--decisions 500] [--budget-seconds 60]
 *
 * The store is seeded directly with insertMany in chunks of 10 000 leads spread over the last
 * 23 hours, with blocking keys computed by the domain's own blockingKeyFields. A third of the timed
 * leads repeat a stored person (email, phone or name). Each size times at most `--decisions`
 * decisions or `--budget-seconds`, whichever comes first, so the run always ends.
 * `--engines kafka` uses the MongoDB-compatible server of the infra (FerretDB) as the store.
 */
import { randomUUID } from 'node:crypto';
import {
  blockingKeyFields,
  buildCandidateQuery,
  DEFAULT_DEDUP_CONFIG,
  decideDuplicate,
  type DedupLead,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import { LeadRepository, LEADS_COLLECTION } from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';
import { deployment, enginesOption, option, percentile, runBenchmark } from './support/service';

const SMALL = option('small', 10_000);
const LARGE = option('large', 1_000_000);
const DECISIONS = option('decisions', 500);
const BUDGET_MS = option('budget-seconds', 60) * 1000;
const CHUNK = 10_000;

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
  'David',
  'Elizabeth',
  'William',
  'Barbara',
  'Wei',
  'Priya',
  'Mohammed',
  'Sofia',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Nguyen',
  'Patel',
  'Kim',
  'Okafor',
];
const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'hotmail.com', 'icloud.com', 'example.edu'];

interface Person {
  email: string;
  phone: string;
  first_name: string;
  last_name: string;
}

/** People drawn from realistic pools: names repeat a lot, emails and phones almost never. */
function person(seed: string, i: number): Person {
  const first = FIRST[i % FIRST.length]!;
  // 16 x 16 x 8 = 2048 name combinations: a name key is shared by about 1 lead in 500 (Soundex
  // folds some surnames together), as common names are in real traffic.
  const last = `${LAST[(i >> 4) % LAST.length]!}${['', 'son', 'er', 'ez', 'ley', 'ton', 'ford', 'well'][(i >> 8) % 8]}`;
  return {
    email: `${first.toLowerCase()}.${last.toLowerCase()}.${seed}${i}@${DOMAINS[i % DOMAINS.length]}`,
    phone: `+1${['617', '212', '415', '312', '646'][i % 5]}${String(2_000_000 + ((i * 7919) % 7_999_999)).padStart(7, '0')}`,
    first_name: first,
    last_name: last,
  };
}

function storedLead(tenant: TenantContext, vendorId: string, p: Person, id: string, createdAt: string): LeadRecord {
  const keys = blockingKeyFields(p);
  return {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    vendor_id: vendorId,
    status: 'active',
    email: p.email,
    first_name: p.first_name,
    last_name: p.last_name,
    phone: p.phone,
    source: 'search',
    custom_fields: {},
    dedup_key: keys.email ?? '',
    bk_email: keys.email,
    bk_phone: keys.phone,
    bk_name: keys.name,
    dedup_status: 'unique',
    submitted_at: createdAt,
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
    expires_at: null,
  } as unknown as LeadRecord;
}

function asDedupLead(
  lead: Pick<
    LeadRecord,
    '_id' | 'email' | 'phone' | 'first_name' | 'last_name' | 'vendor_id' | 'source' | 'created_at' | 'updated_at'
  >,
): DedupLead {
  return {
    id: lead._id,
    email: lead.email,
    phone: lead.phone,
    first_name: lead.first_name,
    last_name: lead.last_name,
    custom_fields: {},
    vendor_id: lead.vendor_id,
    vendor_group: null,
    source: lead.source,
    created_at: lead.created_at,
    updated_at: lead.updated_at,
  };
}

async function seed(
  store: DocumentStore,
  tenant: TenantContext,
  vendorId: string,
  seedId: string,
  count: number,
): Promise<number> {
  const collection = store.collection<LeadRecord>(LEADS_COLLECTION);
  const started = performance.now();
  const now = Date.now();
  for (let offset = 0; offset < count; offset += CHUNK) {
    const docs: LeadRecord[] = [];
    for (let i = offset; i < Math.min(count, offset + CHUNK); i++) {
      // Spread over the last 23 hours, oldest first, all inside the default 24 h window.
      const createdAt = new Date(now - 23 * 3_600_000 + Math.floor((i / count) * 23 * 3_600_000)).toISOString();
      docs.push(storedLead(tenant, vendorId, person(seedId, i), `lead_${seedId}_${i}`, createdAt));
    }
    await collection.insertMany(docs);
    if ((offset / CHUNK) % 20 === 19)
      console.log(`  seeded ${offset + CHUNK} leads, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  return (performance.now() - started) / 1000;
}

interface Timing {
  stored: number;
  seedSeconds: number;
  decisions: number;
  duplicates: number;
  meanMs: number;
  p50: number;
  p99: number;
}

async function time(store: DocumentStore, stored: number): Promise<Timing> {
  const seedId = randomUUID().slice(0, 6);
  const tenant: TenantContext = { organizationId: `org_bench_${seedId}`, environment: 'live' };
  const vendorId = `vendor_${seedId}`;
  console.log(`seeding ${stored} leads`);
  const seedSeconds = await seed(store, tenant, vendorId, seedId, stored);
  const leads = new LeadRepository(store);
  const latencies: number[] = [];
  let duplicates = 0;
  const budgetEnd = performance.now() + BUDGET_MS;
  for (let n = 0; n < DECISIONS && performance.now() < budgetEnd; n++) {
    // One in three repeats a stored person (same email, or same phone with a new email).
    const repeat = n % 3 === 0;
    // New people take indexes past every stored one, so their phones are new too.
    const base = repeat ? person(seedId, (n * 104_729) % stored) : person(`new${seedId}`, 5_000_000 + n);
    const incoming = n % 6 === 3 ? { ...base, email: `other.${n}@example.org` } : base;
    const at = new Date();
    const lead = {
      _id: `lead_new_${seedId}_${n}`,
      ...incoming,
      vendor_id: vendorId,
      source: 'search',
      created_at: at.toISOString(),
      updated_at: at.toISOString(),
    };
    const started = performance.now();
    const query = buildCandidateQuery({ incoming: asDedupLead(lead), config: DEFAULT_DEDUP_CONFIG, vendorId, now: at });
    const candidates = query ? await leads.findDedupCandidates(tenant, query) : [];
    const decision = decideDuplicate({
      incoming: asDedupLead(lead),
      candidates: candidates.map(asDedupLead),
      config: DEFAULT_DEDUP_CONFIG,
      vendorId,
      now: at,
    });
    latencies.push(performance.now() - started);
    if (decision.duplicate) duplicates++;
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const result = {
    stored,
    seedSeconds,
    decisions: latencies.length,
    duplicates,
    meanMs: latencies.reduce((sum, ms) => sum + ms, 0) / latencies.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
  console.log(
    `${String(stored).padStart(8)} stored (seeded in ${seedSeconds.toFixed(1)} s): ${result.decisions} decisions, ${duplicates} duplicates, mean ${result.meanMs.toFixed(3)} ms, p50 ${result.p50.toFixed(3)} ms, p99 ${result.p99.toFixed(3)} ms`,
  );
  const repeats = repeatsExpected(result.decisions);
  if (duplicates !== repeats)
    throw new Error(
      `${repeats} repeated people were submitted but ${duplicates} were found duplicates: dedup misses candidates`,
    );
  return result;
}

const repeatsExpected = (decisions: number): number => Math.ceil(decisions / 3);

async function main(): Promise<void> {
  const engines = enginesOption();
  console.log(
    `dedup decision time, ${engines === 'kafka' ? 'MongoDB-compatible server' : 'embedded'} store, default configuration (email or phone, 24 h window)`,
  );
  const target = deployment(engines);
  try {
    // Smallest first; its leads are removed before the large size is seeded.
    const timings: Timing[] = [];
    for (const size of [SMALL, LARGE]) {
      const store = await target.openStore();
      try {
        await LeadRepository.ensureIndexes(store);
        timings.push(await time(store, size));
        if (size !== LARGE) await store.collection(LEADS_COLLECTION).deleteMany({});
      } finally {
        await store.close();
      }
    }
    const [small, large] = timings as [Timing, Timing];
    console.log(
      `time per decision ${large.stored} / ${small.stored} = ${(large.meanMs / small.meanMs).toFixed(2)} (target <= 1.2)`,
    );
  } finally {
    await target.cleanup();
  }
}

runBenchmark(main);
