/**
 * Deduplication candidates come from indexed blocking keys inside the window, never from a scan
 * of the tenant's leads, and an exact email match is found however crowded the other keys are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeadRepository } from '@leadstream/dal';
import { buildCandidateQuery, DEFAULT_DEDUP_CONFIG, startLead, type LeadRecord } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore } from '@leadstream/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
let store: DocumentStore;
const tenant = { organizationId: 'org_candidates', environment: 'live' as const };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'candidates-'));
  store = await openEmbeddedStore({ dataDir: dir });
  await LeadRepository.ensureIndexes(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function stored(i: number, fields: Partial<LeadRecord>, createdAt: Date): LeadRecord {
  const at = createdAt.toISOString();
  return {
    _id: `lead_${String(i).padStart(6, '0')}`,
    organization_id: tenant.organizationId,
    environment: 'live',
    vendor_id: 'v',
    status: 'active',
    email: `person${i}@example.edu`,
    first_name: 'Sam',
    last_name: 'Smith',
    phone: null,
    source: null,
    program: null,
    program_interest: null,
    ip_address: null,
    user_agent: null,
    landing_page: null,
    referrer: null,
    utm_source: null,
    utm_medium: null,
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    custom_fields: {},
    enrichment_data: {},
    validation_status: 'passed',
    enrichment_status: 'completed',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: `person${i}@example.edu`,
    bk_email: `person${i}@example.edu`,
    bk_phone: '4155552671',
    bk_name: 'S530s',
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(`lead_${i}`),
    version: 1,
    applied_messages: [],
    outbox: [],
    ...fields,
  };
}

describe('LeadRepository.findDedupCandidates', () => {
  it('uses one blocking-key index per key (no scan) and finds an exact email behind a crowded phone', async () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    const leads = new LeadRepository(store);
    // 200 leads share one phone; the person we look for is the newest of them.
    const crowd = Array.from({ length: 200 }, (_, i) => stored(i, {}, new Date(now.getTime() - 3_600_000 + i * 1_000)));
    await store.collection<LeadRecord>('leads').insertMany(crowd);
    const query = buildCandidateQuery({
      incoming: { email: 'Person199@example.edu', phone: '+1 415 555 2671', first_name: 'Sam', last_name: 'Smith' },
      config: DEFAULT_DEDUP_CONFIG,
      vendorId: 'v',
      now,
    });
    if (!query) throw new Error('expected a candidate query');
    expect(await leads.explainDedupCandidates(tenant, query)).toEqual([
      ['tenant_bk_email_created_at'],
      ['tenant_bk_phone_created_at'],
    ]);
    const candidates = await leads.findDedupCandidates(tenant, query);
    expect(candidates.map((lead) => lead._id)).toContain('lead_000199');
  });

  it('looks only inside the window and only at leads that passed deduplication', async () => {
    const now = new Date('2026-11-22T12:00:00.000Z');
    const leads = new LeadRepository(store);
    await store
      .collection<LeadRecord>('leads')
      .insertMany([
        stored(1, { bk_email: 'x@example.edu' }, new Date(now.getTime() - 25 * 3_600_000)),
        stored(2, { bk_email: 'x@example.edu', dedup_status: 'pending' }, new Date(now.getTime() - 3_600_000)),
        stored(3, { bk_email: 'x@example.edu' }, new Date(now.getTime() - 3_600_000)),
      ]);
    const query = buildCandidateQuery({
      incoming: { email: 'x@example.edu' },
      config: DEFAULT_DEDUP_CONFIG,
      vendorId: 'v',
      now,
    });
    if (!query) throw new Error('expected a candidate query');
    expect((await leads.findDedupCandidates(tenant, query)).map((lead) => lead._id)).toEqual(['lead_000003']);
  });
});

describe('LeadRepository.findManyById (a stage batch prefetch)', () => {
  it('reads by primary key and returns only the tenant\u2019s leads, whatever ids are asked for', async () => {
    const leads = new LeadRepository(store);
    const now = new Date();
    await store
      .collection<LeadRecord>('leads')
      .insertMany([
        stored(1, {}, now),
        stored(2, {}, now),
        stored(3, { organization_id: 'org_other' }, now),
        stored(4, { environment: 'sandbox' }, now),
      ]);
    const found = await leads.findManyById(tenant, [
      'lead_000001',
      'lead_000002',
      'lead_000003',
      'lead_000004',
      'lead_missing',
    ]);
    expect(found.map((lead) => lead._id).sort()).toEqual(['lead_000001', 'lead_000002']);
    // The filter the repository sends is answered from the primary key, not a tenant index.
    expect(await store.collection('leads').explainIndexes({ _id: { $in: ['lead_000001', 'lead_000002'] } })).toEqual([
      '_id_',
    ]);
  });
});
