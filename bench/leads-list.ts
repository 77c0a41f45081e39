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
import { LeadQueryRepository, LeadRepository } from '@leadstream/dal';
import { type LeadListQuery, type LeadSearch, type TenantContext } from '@leadstream/domain';
import type { DocumentStore } from '@leadstream/ports';
import { FIRST, LAST, listQuery, seedLeads, timeQueries, type Figures } from './support/list-leads';
import { deployment, enginesOption, option, percentile } from './support/service';

const SMALL = option('small', 10_000);
const LARGE = option('large', 1_000_000);
const QUERIES = option('queries', 300);
const WARMUP = option('warmup', 20);
const time = (run: (n: number) => Promise<unknown>, queries = QUERIES): Promise<Figures> =>
  timeQueries(run, queries, WARMUP);
const query = listQuery;

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
  const seconds = await seedLeads(store, tenant, seedId, size);
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
