/**
 * The api serves keys, vendors and settings from the ConfigCache: through HTTP on the API test
 * server, over a store that counts its reads per collection.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS, type Dal } from '@leadstream/dal';
import type { TenantContext } from '@leadstream/domain';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { Collection, DocumentStore, StoredDocument } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { CONFIG_VERSIONS_COLLECTION } from '@leadstream/runtime';
import { parseLeadCommand } from '@leadstream/schemas';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CapturingMailer } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

/** A store whose find/findOne/countDocuments calls are counted per collection. */
function countingStore(inner: DocumentStore): { store: DocumentStore; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const count = (name: string): void => {
    reads.set(name, (reads.get(name) ?? 0) + 1);
  };
  const store: DocumentStore = {
    engine: inner.engine,
    sweepExpired: () => inner.sweepExpired(),
    ping: () => inner.ping(),
    close: () => inner.close(),
    collection<T extends StoredDocument>(name: string): Collection<T> {
      const collection = inner.collection<T>(name);
      return new Proxy(collection, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (typeof value !== 'function') return value;
          if (property === 'findOne' || property === 'find' || property === 'countDocuments') {
            return (...args: unknown[]) => {
              count(name);
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          }
          return (value as (...a: unknown[]) => unknown).bind(target);
        },
      });
    },
  };
  return { store, reads };
}

const CONFIG_COLLECTIONS = [
  COLLECTIONS.apiKeys,
  COLLECTIONS.vendors,
  COLLECTIONS.organizations,
  COLLECTIONS.rateLimits,
  CONFIG_VERSIONS_COLLECTION,
];

let server: ApiTestServer;
let inner: DocumentStore;
let reads: Map<string, number>;
let live: TenantContext;
let vendorId: string;
let dal: Dal;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cached-config-'));
  inner = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  const counting = countingStore(inner);
  reads = counting.reads;
  server = await startApiTestServer({ dir, mailer: new CapturingMailer(), store: counting.store });
  dal = server.dal;
  const org = await dal.organizations.create({ name: 'College' });
  live = { organizationId: org.id, environment: 'live' };
  vendorId = (await dal.vendors.create(live, { name: 'Acme', type: 'application' })).id;
});

afterAll(async () => {
  await server?.close();
  await inner?.close();
});

beforeEach(() => {
  reads.clear();
});

const configReads = (): Record<string, number> =>
  Object.fromEntries(CONFIG_COLLECTIONS.map((name) => [name, reads.get(name) ?? 0]));
const noReads = Object.fromEntries(CONFIG_COLLECTIONS.map((name) => [name, 0]));

const status = (key: string): Promise<Response> =>
  fetch(`${server.url}/api/leads/lead_unknown/status`, { headers: { authorization: `Bearer ${key}` } });
const ingest = (key: string, email: string): Promise<Response> =>
  fetch(`${server.url}/api/v1/leads/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, first_name: 'Ada', last_name: 'Lovelace' }),
  });

describe('keys, vendors and settings from the configuration cache', () => {
  it('authenticates from memory at steady state: no key, vendor, organization, version or rate-limit read', async () => {
    const { key } = await dal.apiKeys.create(live, {
      vendorId,
      name: 'k',
      permissions: ['read', 'write'],
      rateLimit: null,
    });
    expect((await status(key)).status).toBe(404); // first sight of the hash: read from the store
    expect((await status(key)).status).toBe(404); // loaded into the cache
    reads.clear();
    expect((await status(key)).status).toBe(404);
    expect((await status(key)).status).toBe(404);
    expect(configReads()).toEqual(noReads);
    // Ingestion too (rate limit in memory, version known): the pipeline is not running, so 202.
    expect((await ingest(key, 'one@example.edu')).status).toBe(202);
    reads.clear();
    expect((await ingest(key, 'two@example.edu')).status).toBe(202);
    expect(configReads()).toEqual(noReads);
  });

  it('refuses a revoked key on the next request once the change is announced, and only then', async () => {
    const created = await dal.apiKeys.create(live, { vendorId, name: 'k', permissions: ['read'], rateLimit: null });
    for (let i = 0; i < 3; i++) expect((await status(created.key)).status).toBe(404);
    await dal.apiKeys.revoke(live, created.apiKey.id);
    // Written behind the cache's back: still served from memory. That is why every write says so.
    expect((await status(created.key)).status).toBe(404);
    await server.configCache.changed(live.organizationId, 'api_keys');
    const next = await status(created.key);
    expect(next.status).toBe(401);
    expect(await next.json()).toMatchObject({ success: false, code: 'API_KEY_REVOKED' });
  });

  it("refuses a disabled vendor's key on the next request", async () => {
    const vendor = await dal.vendors.create(live, { name: 'Soon off', type: 'inquiry' });
    const { key } = await dal.apiKeys.create(live, {
      vendorId: vendor.id,
      name: 'k',
      permissions: ['read'],
      rateLimit: null,
    });
    for (let i = 0; i < 3; i++) expect((await status(key)).status).toBe(404);
    await dal.vendors.setEnabled(live, vendor.id, false, new Date(), () => []);
    await server.configCache.changed(live.organizationId, 'vendors');
    expect((await status(key)).status).toBe(403);
  });

  it('stamps each lead command with the configuration version the api knows', async () => {
    const { key } = await dal.apiKeys.create(live, { vendorId, name: 'k', permissions: ['write'], rateLimit: null });
    const before = await server.configCache.version(live.organizationId);
    expect((await ingest(key, 'stamped.before@example.edu')).status).toBe(202);
    const after = await server.configCache.changed(live.organizationId, 'settings');
    expect(after).toBe(before + 1);
    expect((await ingest(key, 'stamped.after@example.edu')).status).toBe(202);
    const commands = (await readTopic(server.log, 'leads.submitted')).map((record) =>
      parseLeadCommand(JSON.parse(record.value)),
    );
    const stamp = (email: string) =>
      commands.find((command) => (command.submission as { email?: string }).email === email)?.config_version;
    expect(stamp('stamped.before@example.edu')).toBe(before);
    expect(stamp('stamped.after@example.edu')).toBe(after);
  });
});
