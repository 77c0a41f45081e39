/**
 * The leads a reprocessing job walks through (ReprocessJobRepository.leadsOf) on the embedded
 * store: every matching lead once, in (created_at, _id) order, also where many leads share a
 * timestamp, and each page read as stored now rather than from one snapshot held for the whole job.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADS_COLLECTION, LeadRepository, ReprocessJobRepository } from '@leadstream/dal';
import { startLead, type LeadRecord } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore } from '@leadstream/ports';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let dir: string;
let store: DocumentStore;
const tenant = { organizationId: 'org_reprocess', environment: 'live' as const };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reprocess-leads-'));
  store = await openEmbeddedStore({ dataDir: dir });
  await LeadRepository.ensureIndexes(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function stored(id: string, createdAt: string, fields: Partial<LeadRecord> = {}): LeadRecord {
  return {
    _id: id,
    organization_id: tenant.organizationId,
    environment: 'live',
    vendor_id: 'vnd_1',
    status: 'active',
    email: `${id}@example.edu`,
    custom_fields: {},
    enrichment_data: {},
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 1,
    applied_messages: [],
    outbox: [],
    ...fields,
  } as unknown as LeadRecord;
}

async function walk(batchSize: number, between?: (seen: number) => Promise<void>): Promise<LeadRecord[]> {
  const seen: LeadRecord[] = [];
  for await (const lead of new ReprocessJobRepository(store).leadsOf(tenant, {}, batchSize)) {
    seen.push(lead);
    if (between && seen.length % batchSize === 0) await between(seen.length);
  }
  return seen;
}

/**
 * Seven matching leads, five of them sharing one millisecond (a bulk submission), plus a deleted
 * lead and another organization's: in (created_at, _id) order a, b, c, d, e, g, f.
 */
async function storeTiedLeads(): Promise<void> {
  const tied = '2026-11-27T10:00:00.000Z';
  await store
    .collection<LeadRecord>(LEADS_COLLECTION)
    .insertMany([
      stored('lead_e', tied),
      stored('lead_a', '2026-11-27T09:00:00.000Z'),
      stored('lead_c', tied),
      stored('lead_b', tied),
      stored('lead_f', '2026-11-27T11:00:00.000Z'),
      stored('lead_d', tied),
      stored('lead_g', tied),
      stored('lead_x', tied, { deleted_at: '2026-11-27T12:00:00.000Z' }),
      stored('lead_o', tied, { organization_id: 'org_other' }),
    ]);
}

describe('ReprocessJobRepository.leadsOf', () => {
  it('visits every matching lead once in (created_at, _id) order, across pages of ties', async () => {
    // Five leads share one millisecond (a bulk submission), more than a page of 2 holds.
    await storeTiedLeads();
    const ids = (await walk(2)).map((lead) => lead._id);
    expect(ids).toEqual(['lead_a', 'lead_b', 'lead_c', 'lead_d', 'lead_e', 'lead_g', 'lead_f']);
  });

  it('reads each page as stored now: a lead changed while the job rests is seen changed', async () => {
    const leads = store.collection<LeadRecord>(LEADS_COLLECTION);
    await leads.insertMany(
      ['lead_1', 'lead_2', 'lead_3', 'lead_4'].map((id, i) => stored(id, `2026-11-27T10:00:0${i}.000Z`)),
    );
    const seen = await walk(2, async (count) => {
      if (count === 2) await leads.updateOne({ _id: 'lead_4' }, { $set: { program: 'changed meanwhile' } });
    });
    expect(seen.map((lead) => lead._id)).toEqual(['lead_1', 'lead_2', 'lead_3', 'lead_4']);
    expect(seen[3]?.program).toBe('changed meanwhile');
  });
});

describe('ReprocessJobRepository.countLeadsInSteps', () => {
  async function steps(step: number): Promise<number[]> {
    const counts: number[] = [];
    for await (const counted of new ReprocessJobRepository(store).countLeadsInSteps(tenant, {}, step))
      counts.push(counted);
    return counts;
  }

  it('counts the matching leads a step at a time, across ties, to the same total as one count', async () => {
    await storeTiedLeads();
    // Seven leads match: steps of 3 count 3, 6, then the last one.
    expect(await steps(3)).toEqual([3, 6, 7]);
    // A step that ends exactly at the last lead: one more (empty) step says nothing is left.
    expect(await steps(7)).toEqual([7, 7]);
    expect(await steps(100)).toEqual([7]);
  });

  it('counts nothing where nothing matches', async () => {
    expect(await steps(5)).toEqual([0]);
  });
});
