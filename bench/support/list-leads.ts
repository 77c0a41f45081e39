/**
 * Synthetic leads for the list, search and index benches (bench/leads-list.ts,
 * bench/lead-indexes.ts): one organization's leads with varied names, phones, vendors, statuses,
 * sources and programs, and the timing of repeated queries.
 */
import {
  parseLeadListQuery,
  leadSearchFields,
  type LeadListQuery,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import { LEADS_COLLECTION } from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';
import { percentile } from './service';

const CHUNK = 10_000;
export const STATUSES = [
  'active',
  'active',
  'active',
  'contacted',
  'qualified',
  'rejected',
  'duplicate',
  'converted',
] as const;
export const SOURCES = ['search', 'social', 'fair', 'referral', 'email'];
export const FIRST = [
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
export const LAST = [
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

/** The i-th synthetic lead of a seeding (varied names, phones, vendors, statuses, sources, programs). */
export function listLead(tenant: TenantContext, seed: string, i: number, createdAt: string): LeadRecord {
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

/** Inserts `count` leads made by `make` (spread over the last 90 days), 10,000 a call; returns the seconds it took. */
export async function seedLeads(
  store: DocumentStore,
  tenant: TenantContext,
  seedId: string,
  count: number,
  make: typeof listLead = listLead,
): Promise<number> {
  const collection = store.collection<LeadRecord>(LEADS_COLLECTION);
  const started = performance.now();
  const now = Date.now();
  for (let offset = 0; offset < count; offset += CHUNK) {
    const docs: LeadRecord[] = [];
    for (let i = offset; i < Math.min(count, offset + CHUNK); i++) {
      docs.push(
        make(
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

/** A list query as GET /api/leads parses it. */
export function listQuery(raw: Record<string, string>): LeadListQuery {
  const parsed = parseLeadListQuery(raw);
  if (!parsed.ok) throw new Error(`bad bench query ${JSON.stringify(raw)}: ${JSON.stringify(parsed.details)}`);
  return parsed.query;
}

export interface Figures {
  p50: number;
  p99: number;
}

/** p50 and p99 of `queries` runs after `warmup` untimed ones. */
export async function timeQueries(
  run: (n: number) => Promise<unknown>,
  queries: number,
  warmup: number,
): Promise<Figures> {
  for (let n = 0; n < Math.min(warmup, queries); n++) await run(n);
  const latencies: number[] = [];
  for (let n = 0; n < queries; n++) {
    const started = performance.now();
    await run(n);
    latencies.push(performance.now() - started);
  }
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}
