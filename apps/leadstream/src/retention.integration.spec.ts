/**
 * Retention of activity entries, dedup log entries and webhook deliveries (libs/dal/src/retention.ts)
 * on both document-store engines: each document's `expires_at` is set at its first write from the
 * policy (24 h in the sandbox), and the TTL index on it lets the store's sweep delete it. The clock
 * is driven through the write times: documents are written as of days ago and swept now, so no
 * test waits. MongoDB's own TTL monitor (every 60 s) is not waited for: the index definition is
 * checked instead, and the store's sweep does the deleting on every server.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  configureRetention,
  DEDUP_LOG_COLLECTION,
  DedupRepository,
  DEFAULT_RETENTION,
  ensureIndexes,
  LEAD_ACTIVITY_COLLECTION,
  LeadActivityRepository,
  WEBHOOK_DELIVERIES_COLLECTION,
  WebhookDeliveryRepository,
  type LeadActivityEntry,
  type WebhookDeliveryRecord,
} from '@leadstream/dal';
import type { DedupLogEntry, TenantContext } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { BaseDocument, BulkWriteOperation, DocumentStore } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Harness {
  store: DocumentStore;
  /** The TTL index definitions of a collection as the engine keeps them: [name, field, expireAfterSeconds]. */
  ttlIndexes(collection: string): Promise<Array<[string, string, number]>>;
  cleanup(): Promise<void>;
}

const ago = (ms: number): string => new Date(Date.now() - ms).toISOString();

function activity(tenant: TenantContext, id: string, timestamp: string): LeadActivityEntry {
  return {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    lead_id: `lead_${id}`,
    event: 'lead.created',
    timestamp,
    sequence: 0,
    description: 'Lead created',
    metadata: {},
  };
}

function dedupEntry(timestamp: string): DedupLogEntry {
  return {
    timestamp,
    incoming_lead: { id: null, email: 'a@example.edu', first_name: null, last_name: null },
    matched_lead_id: null,
    match_fields: {},
    final_score: null,
  } as unknown as DedupLogEntry;
}

function delivery(tenant: TenantContext, id: string, createdAt: string): WebhookDeliveryRecord {
  return {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    webhook_id: 'wh_1',
    event_id: `evt_${id}`,
    event_type: 'lead.created',
    body: '{}',
    created_at: createdAt,
    status: 'delivered',
    finished_at: createdAt,
    failure_kind: null,
    actor: { state: 'delivered', context: {} } as unknown as WebhookDeliveryRecord['actor'],
    attempt_log: [],
    resend_ids: [],
    version: 1,
  };
}

function retentionSuite(engine: string, open: (() => Promise<Harness>) | undefined): void {
  describe.skipIf(!open)(`retention on ${engine}`, () => {
    let harness: Harness;
    const live: TenantContext = { organizationId: `org_${randomUUID().slice(0, 8)}`, environment: 'live' };
    const sandbox: TenantContext = { organizationId: live.organizationId, environment: 'sandbox' };

    beforeAll(async () => {
      harness = await open!();
      await ensureIndexes(harness.store);
      await LeadActivityRepository.ensureIndexes(harness.store);
      await DedupRepository.ensureIndexes(harness.store);
    });
    afterEach(() => configureRetention(DEFAULT_RETENTION));
    afterAll(async () => {
      await harness?.cleanup();
    });

    const ids = async (collection: string): Promise<string[]> =>
      (
        await harness.store.collection(collection).find({ organization_id: live.organizationId }, { sort: { _id: 1 } })
      ).map((d) => String(d._id));

    it('defines a TTL index on expires_at (expiring at the stored time) in the three collections', async () => {
      for (const collection of [LEAD_ACTIVITY_COLLECTION, DEDUP_LOG_COLLECTION, WEBHOOK_DELIVERIES_COLLECTION]) {
        expect(await harness.ttlIndexes(collection)).toContainEqual(['expires_at_ttl', 'expires_at', 0]);
      }
    });

    it('deletes live documents past their retention and sandbox ones after 24 h, keeping the rest', async () => {
      configureRetention({ activityDays: 365, dedupLogDays: 90, webhookDeliveryDays: 30 });
      const activities = harness.store.collection<BaseDocument>(LEAD_ACTIVITY_COLLECTION);
      await activities.bulkWrite([
        LeadActivityRepository.recordOperation(activity(live, 'act_live_old', ago(366 * DAY))),
        LeadActivityRepository.recordOperation(activity(live, 'act_live_fresh', ago(364 * DAY))),
        LeadActivityRepository.recordOperation(activity(sandbox, 'act_sbx_old', ago(25 * HOUR))),
        LeadActivityRepository.recordOperation(activity(sandbox, 'act_sbx_fresh', ago(23 * HOUR))),
      ]);
      // The API's own writes (insertOne) get the expiry too.
      const repository = new LeadActivityRepository(harness.store);
      await repository.record(activity(live, 'act_api_old', ago(400 * DAY)));
      await repository.record(activity(live, 'act_api_fresh', ago(DAY)));

      await harness.store
        .collection<BaseDocument>(DEDUP_LOG_COLLECTION)
        .bulkWrite([
          DedupRepository.recordOperation(live, 'lead_dd_old', dedupEntry(ago(91 * DAY))),
          DedupRepository.recordOperation(live, 'lead_dd_fresh', dedupEntry(ago(89 * DAY))),
          DedupRepository.recordOperation(sandbox, 'lead_dd_sbx_old', dedupEntry(ago(25 * HOUR))),
          DedupRepository.recordOperation(sandbox, 'lead_dd_sbx_fresh', dedupEntry(ago(23 * HOUR))),
        ]);
      await harness.store
        .collection<WebhookDeliveryRecord>(WEBHOOK_DELIVERIES_COLLECTION)
        .bulkWrite([
          WebhookDeliveryRepository.createOperation(delivery(live, 'del_old', ago(31 * DAY))),
          WebhookDeliveryRepository.createOperation(delivery(live, 'del_fresh', ago(29 * DAY))),
          WebhookDeliveryRepository.createOperation(delivery(sandbox, 'del_sbx_old', ago(25 * HOUR))),
          WebhookDeliveryRepository.createOperation(delivery(sandbox, 'del_sbx_fresh', ago(23 * HOUR))),
        ] as BulkWriteOperation<WebhookDeliveryRecord>[]);

      const stored = await harness.store
        .collection<LeadActivityEntry>(LEAD_ACTIVITY_COLLECTION)
        .findOne({ _id: 'act_live_fresh' });
      expect(stored?.expires_at).toEqual(new Date(Date.parse(stored!.timestamp) + 365 * DAY));
      expect(await ids(LEAD_ACTIVITY_COLLECTION)).toHaveLength(6);

      expect(await harness.store.sweepExpired()).toBeGreaterThanOrEqual(6);

      expect(await ids(LEAD_ACTIVITY_COLLECTION)).toEqual(['act_api_fresh', 'act_live_fresh', 'act_sbx_fresh']);
      expect(await ids(DEDUP_LOG_COLLECTION)).toEqual(['dedup_lead_dd_fresh', 'dedup_lead_dd_sbx_fresh']);
      expect(await ids(WEBHOOK_DELIVERIES_COLLECTION)).toEqual(['del_fresh', 'del_sbx_fresh']);
    });

    it('takes a changed period at the next write without an index change, and 0 keeps live documents', async () => {
      configureRetention({ activityDays: 10, dedupLogDays: 0, webhookDeliveryDays: 30 });
      await ensureIndexes(harness.store); // a restart with the new settings: the indexes are the same
      await LeadActivityRepository.ensureIndexes(harness.store);
      await DedupRepository.ensureIndexes(harness.store);
      const activities = harness.store.collection<BaseDocument>(LEAD_ACTIVITY_COLLECTION);
      await activities.bulkWrite([
        LeadActivityRepository.recordOperation(activity(live, 'act_ten_old', ago(11 * DAY))),
        LeadActivityRepository.recordOperation(activity(live, 'act_ten_fresh', ago(9 * DAY))),
      ]);
      await harness.store
        .collection<BaseDocument>(DEDUP_LOG_COLLECTION)
        .bulkWrite([DedupRepository.recordOperation(live, 'lead_forever', dedupEntry(ago(5_000 * DAY)))]);
      expect(
        (await harness.store.collection(DEDUP_LOG_COLLECTION).findOne({ _id: 'dedup_lead_forever' }))?.['expires_at'],
      ).toBeUndefined();

      await harness.store.sweepExpired();
      expect(
        await harness.store
          .collection(LEAD_ACTIVITY_COLLECTION)
          .countDocuments({ _id: { $in: ['act_ten_old', 'act_ten_fresh'] } }),
      ).toBe(1);
      expect(await harness.store.collection(LEAD_ACTIVITY_COLLECTION).findOne({ _id: 'act_ten_fresh' })).toMatchObject({
        _id: 'act_ten_fresh',
      });
      expect(await harness.store.collection(DEDUP_LOG_COLLECTION).findOne({ _id: 'dedup_lead_forever' })).toMatchObject(
        { lead_id: 'lead_forever' },
      );
    });
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

retentionSuite('the embedded store', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-retention-'));
  dirs.push(dir);
  const store = await openEmbeddedStore({ dataDir: dir });
  return {
    store,
    ttlIndexes: async (collection) => {
      const db = new Database(join(dir, 'documents.sqlite'), { readonly: true });
      try {
        const rows = db
          .prepare('SELECT name, spec FROM _leadstream_indexes WHERE collection = ?')
          .all(collection) as Array<{ name: string; spec: string }>;
        return rows.flatMap(({ name, spec }) => {
          const parsed = JSON.parse(spec) as { keys: Record<string, number>; expireAfterSeconds?: number };
          return parsed.expireAfterSeconds === undefined
            ? []
            : [[name, Object.keys(parsed.keys)[0]!, parsed.expireAfterSeconds] as [string, string, number]];
        });
      } finally {
        db.close();
      }
    },
    cleanup: () => store.close(),
  };
});

const { value: mongoUri } = lookupInfra('MONGODB_URI');

retentionSuite(
  'a MongoDB-protocol server',
  mongoUri
    ? async () => {
        const dbName = `leadstream_retention_${randomUUID().slice(0, 8)}`;
        const store = await openMongoStore({ uri: mongoUri, dbName });
        const client = new MongoClient(mongoUri);
        await client.connect();
        return {
          store,
          // MongoDB keeps expireAfterSeconds on the index (its TTL monitor); FerretDB 1.x has no TTL
          // indexes, and the store records every TTL index for its own sweep on both: read that record,
          // and the server's index where it has the option.
          ttlIndexes: async (collection) => {
            const db = client.db(dbName);
            const server = (await db.collection(collection).listIndexes().toArray()) as Array<{
              name: string;
              key: Record<string, number>;
              expireAfterSeconds?: number;
            }>;
            const recorded = await db.collection('_leadstream_ttl').find({ collection }).toArray();
            const out: Array<[string, string, number]> = recorded.map((r) => [
              String(r['_id']).slice(collection.length + 1),
              String(r['field']),
              Number(r['expireAfterSeconds']),
            ]);
            for (const index of server) {
              if (index.expireAfterSeconds === undefined) continue;
              expect(out).toContainEqual([index.name, Object.keys(index.key)[0]!, index.expireAfterSeconds]);
            }
            expect(server.map((index) => index.name)).toContain('expires_at_ttl');
            return out;
          },
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
