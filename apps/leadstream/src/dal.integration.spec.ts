/**
 * The repositories of @leadstream/dal on both document-store engines: the embedded store (temp
 * dir) and a MongoDB-protocol server (FerretDB from `npm run infra:up`, a database per run). The
 * suite lives in the CLI app because libs/dal may not import engines, not even in tests.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  COLLECTIONS,
  createDal,
  ensureIndexes,
  LEAD_SEARCH_MIGRATION,
  MIGRATIONS_COLLECTION,
  LOOKUP_TABLES_COLLECTION,
  LookupTableRepository,
  type Dal,
} from '@leadstream/dal';
import { checkKeyUsable, hashApiKey, type TenantContext } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openMongoStore } from '@leadstream/engine-mongo';
import { type DocumentStore, DuplicateKeyError } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';

interface Harness {
  store: DocumentStore;
  /** Set when concurrent updates of one document are not atomic (FerretDB 1.24). */
  atomicUpdatesGap?: string;
  cleanup(): Promise<void>;
}

const NOW = new Date('2025-03-01T10:00:30.000Z');
const MINUTE = 60_000;

function repositorySuite(engine: string, open: (() => Promise<Harness>) | undefined): void {
  describe.skipIf(!open)(`repositories on ${engine}`, () => {
    let harness: Harness;
    let dal: Dal;
    let orgA: TenantContext;
    let orgB: TenantContext;

    beforeAll(async () => {
      harness = await open!();
      await ensureIndexes(harness.store);
      await ensureIndexes(harness.store); // idempotent
      dal = createDal(harness.store);
      orgA = { organizationId: (await dal.organizations.create({ name: 'Org A' }, NOW)).id, environment: 'live' };
      orgB = { organizationId: (await dal.organizations.create({ name: 'Org B' }, NOW)).id, environment: 'live' };
    });
    afterAll(async () => {
      await harness?.cleanup();
    });

    it('creates organizations with default settings and finds them by tenant', async () => {
      const organization = await dal.organizations.get(orgA);
      expect(organization).toMatchObject({ name: 'Org A', plan: 'education', created_at: NOW });
      expect(organization?.id).toMatch(/^org_[0-9A-Za-z]{24}$/);
      expect(organization?.settings.validation.allow_disposable_emails).toBe(false);
      const updated = await dal.organizations.updateSettings(
        orgA,
        { validation: { ...organization!.settings.validation, mx_check: false } },
        new Date(NOW.getTime() + 1),
      );
      expect(updated?.settings.validation.mx_check).toBe(false);
      expect(updated?.updated_at).toEqual(new Date(NOW.getTime() + 1));
    });

    it('keeps vendors inside their organization', async () => {
      const vendor = await dal.vendors.create(
        orgA,
        { name: 'Acme Leads', type: 'inquiry', group: 'paid', contact_email: 'ops@acme.test' },
        NOW,
      );
      expect(vendor.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await dal.vendors.findById(orgA, vendor.id)).toEqual(vendor);
      expect(await dal.vendors.findById(orgB, vendor.id)).toBeNull();
      const events = (next: { id: string; enabled: boolean }) => [
        { topic: 'leads.events', key: next.id, value: `enabled=${next.enabled}` },
      ];
      expect(await dal.vendors.setEnabled(orgB, vendor.id, false, NOW, events)).toBeNull();
      expect((await dal.vendors.list(orgB)).map((v) => v.id)).not.toContain(vendor.id);
      const changed = await dal.vendors.setEnabled(orgA, vendor.id, false, NOW, events);
      expect(changed).toMatchObject({
        vendor: { enabled: false },
        outbox: [{ key: vendor.id, value: 'enabled=false' }],
        outboxAt: NOW.toISOString(),
      });
      expect(await dal.vendors.findById(orgA, vendor.id)).not.toHaveProperty('outbox');
      // The same change again is no change, and no event.
      expect(await dal.vendors.setEnabled(orgA, vendor.id, false, NOW, events)).toBeNull();
      expect((await dal.vendors.list(orgA)).map((v) => v.id)).toContain(vendor.id);
      // Until produced and cleared, the outbox is there for the sweeper.
      const later = new Date(NOW.getTime() + 60_000).toISOString();
      expect((await dal.vendors.staleOutboxes(later, 10)).filter((stale) => stale.id === vendor.id)).toEqual([
        { id: vendor.id, organizationId: orgA.organizationId, outbox: changed!.outbox, outboxAt: NOW.toISOString() },
      ]);
      await dal.vendors.clearOutbox(orgA, vendor.id, NOW.toISOString());
      expect((await dal.vendors.staleOutboxes(later, 10)).filter((stale) => stale.id === vendor.id)).toEqual([]);
    });

    it('stores only the hash of a key and finds it by that hash', async () => {
      const sandbox: TenantContext = { ...orgA, environment: 'sandbox' };
      const { apiKey, key } = await dal.apiKeys.create(
        sandbox,
        { vendorId: 'v1', name: 'test key', permissions: ['write'], ipRestrictions: ['10.0.0.0/8'], rateLimit: 20 },
        NOW,
      );
      expect(key).toMatch(/^vk_test_/);
      expect(apiKey).toMatchObject({
        environment: 'sandbox',
        key_hash: hashApiKey(key),
        rate_limit: 20,
        enabled: true,
        revoked_at: null,
      });
      expect(await dal.apiKeys.findByHash(hashApiKey(key))).toEqual(apiKey);
      expect(await dal.apiKeys.findByHash(hashApiKey(`${key}x`))).toBeNull();
      const raw = await harness.store.collection(COLLECTIONS.apiKeys).findOne({ _id: apiKey.id });
      expect(JSON.stringify(raw)).not.toContain(key.slice(8));
      // Tenant scope: other organization, other environment.
      expect(await dal.apiKeys.findById(orgB, apiKey.id)).toBeNull();
      expect(await dal.apiKeys.findById(orgA, apiKey.id)).toBeNull();
      expect((await dal.apiKeys.list(sandbox)).map((k) => k.id)).toContain(apiKey.id);
      expect((await dal.apiKeys.list(orgA)).map((k) => k.id)).not.toContain(apiKey.id);
    });

    it('refuses a second key with the same hash', async () => {
      const { apiKey } = await dal.apiKeys.create(orgA, { vendorId: 'v1', name: 'a', permissions: ['read'] }, NOW);
      await expect(
        harness.store.collection(COLLECTIONS.apiKeys).insertOne({ _id: 'key_copy', key_hash: apiKey.key_hash }),
      ).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('writes last_used_at at most once a minute', async () => {
      const { apiKey } = await dal.apiKeys.create(orgA, { vendorId: 'v1', name: 'b', permissions: ['write'] }, NOW);
      expect(await dal.apiKeys.touchLastUsed(orgA, apiKey, NOW)).toBe(true);
      // A stale in-memory copy (last_used_at null) still does not write twice within the minute.
      expect(await dal.apiKeys.touchLastUsed(orgA, apiKey, new Date(NOW.getTime() + 10_000))).toBe(false);
      const later = new Date(NOW.getTime() + MINUTE + 1);
      expect(await dal.apiKeys.touchLastUsed(orgB, apiKey, later)).toBe(false);
      expect(await dal.apiKeys.touchLastUsed(orgA, apiKey, later)).toBe(true);
      expect((await dal.apiKeys.findById(orgA, apiKey.id))?.last_used_at).toEqual(later);
    });

    it('revokes a key within its tenant only', async () => {
      const { apiKey } = await dal.apiKeys.create(orgA, { vendorId: 'v1', name: 'c', permissions: ['write'] }, NOW);
      expect(await dal.apiKeys.revoke(orgB, apiKey.id, NOW)).toBeNull();
      const revoked = await dal.apiKeys.revoke(orgA, apiKey.id, NOW);
      expect(revoked?.revoked_at).toEqual(NOW);
      expect(checkKeyUsable(revoked!, NOW)?.code).toBe('API_KEY_REVOKED');
      await expect(dal.apiKeys.rotate(orgA, apiKey.id, NOW)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });

    it('rotates: a new key with the same settings, the old one valid for 24 hours', async () => {
      const { apiKey, key } = await dal.apiKeys.create(
        orgA,
        { vendorId: 'v9', name: 'd', permissions: ['read', 'write'], ipRestrictions: ['::1'], rateLimit: 7 },
        NOW,
      );
      const rotated = await dal.apiKeys.rotate(orgA, apiKey.id, NOW);
      expect(rotated?.key).not.toBe(key);
      expect(rotated?.apiKey).toMatchObject({
        vendor_id: 'v9',
        name: 'd',
        permissions: ['read', 'write'],
        ip_restrictions: ['::1'],
        rate_limit: 7,
      });
      const dayLater = new Date(NOW.getTime() + 24 * 60 * MINUTE);
      const old = await dal.apiKeys.findByHash(hashApiKey(key));
      expect(old?.expires_at).toEqual(dayLater);
      expect(rotated?.previous.expires_at).toEqual(dayLater);
      expect(checkKeyUsable(old!, new Date(dayLater.getTime() - 1))).toBeNull();
      expect(checkKeyUsable(old!, dayLater)?.code).toBe('API_KEY_INVALID');
      expect(checkKeyUsable((await dal.apiKeys.findByHash(hashApiKey(rotated!.key)))!, dayLater)).toBeNull();
      // Rotating the old key again never extends its life.
      await dal.apiKeys.rotate(orgA, apiKey.id, new Date(NOW.getTime() + MINUTE));
      expect((await dal.apiKeys.findById(orgA, apiKey.id))?.expires_at).toEqual(dayLater);
      expect(await dal.apiKeys.rotate(orgB, apiKey.id, NOW)).toBeNull();
    });

    it('counts requests in fixed one-minute windows', async () => {
      const subject = `key_${randomUUID()}`;
      const results = [];
      for (let i = 0; i < 4; i++) results.push(await dal.rateLimiter.consume('ingest_single_live', subject, 3, NOW));
      expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      const windowEnd = Date.parse('2025-03-01T10:01:00.000Z');
      expect(results[3]).toMatchObject({ limit: 3, resetAt: windowEnd / 1000, retryAfter: 30 });
      // Another subject and another scope have their own counters; the next window starts afresh.
      expect((await dal.rateLimiter.consume('ingest_single_live', `${subject}-other`, 3, NOW)).remaining).toBe(2);
      expect((await dal.rateLimiter.consume('ingest_bulk_live', subject, 3, NOW)).remaining).toBe(2);
      expect(await dal.rateLimiter.consume('ingest_single_live', subject, 3, new Date(windowEnd))).toMatchObject({
        allowed: true,
        remaining: 2,
        retryAfter: 60,
      });
    });

    it('lets finished windows vanish through the TTL index', async () => {
      const subject = `ttl_${randomUUID()}`;
      await dal.rateLimiter.consume('export', subject, 10, new Date('2020-01-01T00:00:00.000Z'));
      const counters = harness.store.collection(COLLECTIONS.rateLimits);
      expect(await counters.countDocuments({ subject })).toBe(1);
      await harness.store.sweepExpired();
      expect(await counters.countDocuments({ subject })).toBe(0);
    });

    it('holds the limit exactly under concurrent requests', async (context) => {
      if (harness.atomicUpdatesGap) {
        console.warn(`[skip] ${harness.atomicUpdatesGap}`);
        context.skip();
      }
      const subject = `burst_${randomUUID()}`;
      const decisions = await Promise.all(
        Array.from({ length: 25 }, () => dal.rateLimiter.consume('create_lead', subject, 10, NOW)),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    });

    it('keeps free-form JSON of configuration as text, and reads and replaces records written before in the field form', async () => {
      const tables = new LookupTableRepository(harness.store);
      const mappings = { 'St. Louis': 'MO', $x: 'y' };
      const created = await tables.create(
        orgA.organizationId,
        `lt_${randomUUID()}`,
        { name: 'cities', description: null, mappings },
        NOW.toISOString(),
      );
      expect(created.mappings).toEqual(mappings);
      expect(await tables.find(orgA.organizationId, created.id)).toEqual(created);
      expect(
        (await harness.store.collection(LOOKUP_TABLES_COLLECTION).findOne({ _id: created.id }))?.['mappings_json'],
      ).toBe(JSON.stringify(mappings));

      // A wave-1 record: mappings stored as an object.
      const oldId = `lt_${randomUUID()}`;
      const at = NOW.toISOString();
      await harness.store.collection(LOOKUP_TABLES_COLLECTION).insertOne({
        _id: oldId,
        organization_id: orgA.organizationId,
        name: 'zips',
        description: null,
        mappings: { '90210': 'CA' },
        created_at: at,
        updated_at: at,
      });
      expect((await tables.find(orgA.organizationId, oldId))?.mappings).toEqual({ '90210': 'CA' });
      const replaced = await tables.update(orgA.organizationId, oldId, { mappings: { 'Washington D.C.': 'DC' } }, at);
      expect(replaced?.mappings).toEqual({ 'Washington D.C.': 'DC' });
      const stored = await harness.store.collection(LOOKUP_TABLES_COLLECTION).findOne({ _id: oldId });
      expect(stored).not.toHaveProperty('mappings');
      expect((await tables.byName(orgA.organizationId)).get('zips')).toEqual({ 'Washington D.C.': 'DC' });
    });
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

repositorySuite('the embedded store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-dal-'));
  dirs.push(dir);
  const store = await openEmbeddedStore({ dataDir: dir });
  return { store, cleanup: () => store.close() };
});

const { value: mongoUri } = lookupInfra('MONGODB_URI');

repositorySuite(
  'a MongoDB-protocol server',
  mongoUri
    ? async () => {
        const dbName = `leadstream_dal_${randomUUID().slice(0, 8)}`;
        const store = await openMongoStore({ uri: mongoUri, dbName });
        const client = new MongoClient(mongoUri);
        const info = await client.db('admin').command({ buildInfo: 1 });
        const ferret = typeof info['ferretdbVersion'] === 'string';
        return {
          store,
          atomicUpdatesGap: ferret
            ? 'FerretDB 1.24 loses concurrent $inc on one document: rate limits are approximate there'
            : undefined,
          cleanup: async () => {
            await store.close();
            try {
              await client.db(dbName).dropDatabase();
            } finally {
              await client.close();
            }
          },
        };
      }
    : undefined,
);

describe.skipIf(!mongoUri)('processes starting together on a MongoDB-protocol server', () => {
  it('make every index of the service at once, on a database with the retired lead indexes, without an error', async () => {
    const dbName = `leadstream_dal_start_${randomUUID().slice(0, 8)}`;
    const client = new MongoClient(mongoUri!);
    // A database an earlier version made: the retired indexes are there, the search backfill is not recorded.
    await client
      .db(dbName)
      .collection('leads')
      .createIndex({ organization_id: 1, created_at: -1 }, { name: 'tenant_created_at' });
    await client
      .db(dbName)
      .collection('leads')
      .createIndex({ organization_id: 1, phone_digits: 1 }, { name: 'tenant_phone_digits' });
    const stores = await Promise.all(Array.from({ length: 4 }, () => openMongoStore({ uri: mongoUri!, dbName })));
    try {
      // `ensureAllIndexes` of four processes that start at the same moment.
      await Promise.all(stores.map((store) => ensureAllIndexes(store)));
      const names = (await client.db(dbName).collection('leads').indexes()).map((index) => index.name);
      expect(names).not.toContain('tenant_created_at');
      expect(names).not.toContain('tenant_phone_digits');
      expect(await client.db(dbName).collection(MIGRATIONS_COLLECTION).find({}).toArray()).toEqual([
        expect.objectContaining({ _id: LEAD_SEARCH_MIGRATION, changed: 0 }),
      ]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      try {
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    }
  });
});
