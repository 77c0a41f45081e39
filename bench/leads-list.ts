/**
 * Lead list and search at scale (docs/decisions.md "Leads API"): p50/p99 of a filtered, sorted list
 * page and of searches, with 10 k and with 1 M leads in one organization, through the same
 * repository and query parser GET /api/leads uses. The baseline is the same query at 10 k in the
 * same run.
 *
 *   npx tsx bench/leads-list.ts [--engines embedded|kafka] [--small 10000] [--large 1000000] [--queries 300] [--warmup 20]
 *
 * Targets: list-page p99 at 1 M <= 1.5 x at 10 k; search (text anywhere, docs/decisions.md "Lead
 * search") p99 at 1 M <= 1.5 x the prefix search it replaced, measured on the same texts in the
 * same run ("prefix"). Also timed: 4 digits of a phone, and a text nearly every lead holds (the
 * organization's email domain), with fewer queries. `--engines kafka` uses the MongoDB-protocol
 * server of `npm run infra:up` (FerretDB) for the store.
 */
import { randomUUID } from 'node:crypto';
import { LeadQueryRepository, LeadRepository, LEADS_COLLECTION } from '@leadstream/dal';
import {
  leadSearchFields,
  parseLeadListQuery,
  type LeadListQuery,
  type LeadRecord,
  type LeadSearch,
  type TenantContext,
} from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { deployment, enginesOption, option, percentile } from './support/service';

const SMALL = option('small', 10_000);
const LARGE = option('large', 1_000_000);
const QUERIES = option('queries', 300);
const WARMUP = option('warmup', 20);
const CHUNK = 10_000;
const STATUSES = [
  'active',
  'active',
  'active',
  'contacted',
  'qualified',
  'rejected',
  'duplicate',
  'converted',
] as const;
const SOURCES = ['search', 'social', 'fair', 'referral', 'email'];
const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'John',
  'Jennifer',
  'Michael',
  'Linda',
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
  'Nguyen',
  'Patel',
  'Kim',
  'Okafor',
];

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
      docs.push(
        lead(
          tenant,
          seedId,
          i,
          new Date(now - 90 * 86_400_000 + Math.floor((i / count) * 90 * 86_400_000)).toISOString(),
        ),
      );
    }
    await collection.insertMany(docs);
    if ((offset / CHUNK) % 20 === 19)
      console.log(`  seeded ${offset + CHUNK} leads, ${((performance.now() - started) / 1000).toFixed(0)} s`);
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

async function time(run: (n: number) => Promise<unknown>, queries = QUERIES): Promise<Figures> {
  for (let n = 0; n < Math.min(WARMUP, queries); n++) await run(n);
  const latencies: number[] = [];
  for (let n = 0; n < queries; n++) {
    const started = performance.now();
    await run(n);
    latencies.push(performance.now() - started);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** The name-and-number text each search query uses (`james.smith3`: a prefix of some emails, found inside others). */
const nameText = (n: number): string =>
  `${(FIRST[n % FIRST.length] ?? 'ann').toLowerCase()}.${(LAST[n % LAST.length] ?? 'lee').toLowerCase()}${n % 97}`;

/** The search as it was before text anywhere: prefixes of the lowercase email and names. */
function prefixQuery(text: string): LeadListQuery {
  const search: LeadSearch = { mode: 'prefix', text, phoneDigits: null };
  return { ...query({}), search };
}

/** Two kinds of query timed alternately, one of each per round. */
async function timeInTurns(
  first: (n: number) => Promise<unknown>,
  second: (n: number) => Promise<unknown>,
): Promise<[Figures, Figures]> {
  for (let n = 0; n < WARMUP; n++) {
    await first(n);
    await second(n);
  }
  const latencies: [number[], number[]] = [[], []];
  for (let n = 0; n < QUERIES; n++) {
    for (const [index, run] of [first, second].entries()) {
      const started = performance.now();
      await run(n);
      latencies[index]!.push(performance.now() - started);
    }
  }
  const figures = (values: number[]): Figures => {
    const sorted = values.sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  return [figures(latencies[0]), figures(latencies[1])];
}

interface Measured {
  list: Figures;
  search: Figures;
  prefix: Figures;
  phone: Figures;
  broad: Figures;
  plan: string[];
}

const show = (figures: Figures): string => `p50 ${figures.p50.toFixed(2)} ms p99 ${figures.p99.toFixed(2)} ms`;

async function measure(store: DocumentStore, size: number): Promise<Measured> {
  const seedId = randomUUID().slice(0, 6);
  const tenant: TenantContext = { organizationId: `org_list_${seedId}`, environment: 'live' };
  console.log(`seeding ${size} leads`);
  const seconds = await seed(store, tenant, seedId, size);
  const leads = new LeadQueryRepository(store);
  // A filtered, sorted page users open all day: active leads of one source, newest first, page 3.
  const listQuery = query({
    status: 'active',
    source: 'search',
    sortBy: 'created_at',
    sortOrder: 'desc',
    page: '3',
    limit: '20',
  });
  const list = await time(() => leads.list(tenant, listQuery));
  // Taken in turns, query by query, so both see the same pages in memory.
  const [search, prefix] = await timeInTurns(
    (n) => leads.list(tenant, query({ search: nameText(n) })),
    (n) => leads.list(tenant, prefixQuery(nameText(n))),
  );
  // Four digits of a phone ("7919" style), found in the phone or in the email's number.
  const phone = await time((n) => leads.list(tenant, query({ search: String(1000 + ((n * 37) % 9000)) })));
  // Every lead's email holds the domain: the whole organization matches and is counted and sorted.
  const broad = await time(
    () => leads.list(tenant, query({ search: 'example.edu' })),
    Math.max(3, Math.ceil(QUERIES / 30)),
  );
  const plan = await leads.explainList(tenant, listQuery);
  console.log(
    `${String(size).padStart(8)} leads (seeded in ${seconds.toFixed(1)} s): list ${show(list)}; search ${show(search)}; prefix (before) ${show(prefix)}; phone ${show(phone)}; whole-organization text ${show(broad)}; list index ${plan.join(', ')}`,
  );
  return { list, search, prefix, phone, broad, plan };
}

async function main(): Promise<void> {
  const engines = enginesOption();
  const target = deployment(engines);
  console.log(
    `lead list and search, ${engines === 'kafka' ? 'MongoDB-protocol server' : 'embedded'} store, ${QUERIES} queries each`,
  );
  try {
    const store = await target.openStore();
    try {
      await LeadRepository.ensureIndexes(store);
      const small = await measure(store, SMALL);
      const large = await measure(store, LARGE);
      const ratio = large.list.p99 / small.list.p99;
      console.log(
        `list p99 ${LARGE} / ${SMALL} = ${ratio.toFixed(2)} (target <= 1.5); search p99 ratio ${(large.search.p99 / small.search.p99).toFixed(2)}`,
      );
      console.log(
        `search p99 at ${LARGE} / prefix search p99 at ${LARGE} = ${(large.search.p99 / large.prefix.p99).toFixed(2)} (target <= 1.5)`,
      );
    } finally {
      await store.close();
    }
  } finally {
    await target.cleanup();
  }
}

await main();
