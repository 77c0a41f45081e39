/**
 * Every write of the export repository is filtered by the tenant (docs/decisions.md "Request bodies
 * at the edge", export tenancy): a lease renewal or an outbox clear given the right export id and
 * version but another organization's or environment's context changes nothing. On the embedded
 * store, as the export stage uses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportRepository } from '@leadstream/dal';
import { advanceExport, startExport, type ExportRecord, type TenantContext } from '@leadstream/domain';
import { openEmbeddedStore, type EmbeddedStore } from '@leadstream/engine-embedded-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const owner: TenantContext = { organizationId: 'org_owner', environment: 'live' };
const intruders: Array<[string, TenantContext]> = [
  ['another organization', { organizationId: 'org_other', environment: 'live' }],
  ['the same organization in the other environment', { organizationId: 'org_owner', environment: 'sandbox' }],
];
const LEASE = new Date('2030-01-01T00:00:00.000Z');
const OUTBOX = [{ topic: 'leads.events', key: 'org_owner', value: '{"event":"export.completed"}' }];

let dir: string;
let store: EmbeddedStore;
let exports: ExportRepository;

function processingExport(id: string): ExportRecord {
  return {
    _id: id,
    organization_id: owner.organizationId,
    environment: owner.environment,
    user_id: 'user_1',
    format: 'csv',
    filters: {},
    fields: ['email'],
    status: 'processing',
    actor: advanceExport(startExport(id), { type: 'START' }),
    row_count: null,
    file_id: null,
    base_url: 'https://api.test',
    download_url: null,
    created_at: '2030-01-01T00:00:00.000Z',
    estimated_completion: '2030-01-01T00:01:00.000Z',
    completed_at: null,
    expires_at: null,
    error: null,
    lease_until: LEASE,
    version: 3,
    outbox: OUTBOX,
  };
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'leadstream-export-tenancy-'));
  store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  await ExportRepository.ensureIndexes(store);
  exports = new ExportRepository(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('export repository writes take the tenant', () => {
  it.each(intruders)("a lease renewal with %s's context finds nothing and moves no lease", async (_name, intruder) => {
    await exports.insert(processingExport('export_a'));
    expect(await exports.renewLease(intruder, 'export_a', 3, new Date(0))).toBe(false);
    expect((await exports.findById(owner, 'export_a'))?.lease_until).toEqual(LEASE);
    const later = new Date('2030-01-02T00:00:00.000Z');
    expect(await exports.renewLease(owner, 'export_a', 3, later)).toBe(true);
    expect((await exports.findById(owner, 'export_a'))?.lease_until).toEqual(later);
  });

  it.each(intruders)("an outbox clear with %s's context leaves the outbox to be produced", async (_name, intruder) => {
    await exports.insert(processingExport('export_b'));
    await exports.clearOutbox(intruder, 'export_b', 3);
    expect((await exports.findById(owner, 'export_b'))?.outbox).toEqual(OUTBOX);
    await exports.clearOutbox(owner, 'export_b', 3);
    expect((await exports.findById(owner, 'export_b'))?.outbox).toEqual([]);
  });
});
