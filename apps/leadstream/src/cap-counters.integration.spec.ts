/**
 * The volume caps' counters (CapCounterRepository, docs/decisions.md "Volume caps") on both
 * document-store engines: concurrent reservations never count more than the maximum, a batch
 * decided again finds its leads counted and takes no second slot, a released lead's slot is taken
 * by the next reservation, and the period's `reached` marker belongs to one lead.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CapCounterRepository, type CapCounterKey } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface Harness {
  store: DocumentStore;
  cleanup(): Promise<void>;
}

async function embedded(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'cap-counters-'));
  const store = await openEmbeddedStore({ dataDir: dir });
  return {
    store,
    cleanup: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const mongoUri = lookupInfra('MONGODB_URI').value;
async function ferret(): Promise<Harness> {
  const dbName = `cap_counters_${randomUUID().slice(0, 8)}`;
  const store = await openMongoStore({ uri: mongoUri!, dbName });
  return {
    store,
    cleanup: async () => {
      await store.close();
      const client = new MongoClient(mongoUri!);
      try {
        await client.connect();
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

const AT = '2026-11-27T12:00:00.000Z';
const leads = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);

describe.each([['the embedded store', embedded], ...(mongoUri ? [['FerretDB', ferret] as const] : [])] as Array<
  [string, () => Promise<Harness>]
>)('cap counters on %s', (_name, open) => {
  let harness: Harness;
  let counters: CapCounterRepository;
  const key = (capId: string): CapCounterKey => ({
    organizationId: 'org_1',
    capId,
    period: { start: '2026-11-27T05:00:00.000Z', end: '2026-11-28T05:00:00.000Z' },
  });

  beforeAll(async () => {
    harness = await open();
    await CapCounterRepository.ensureIndexes(harness.store);
    counters = new CapCounterRepository(harness.store);
  });
  afterAll(async () => harness?.cleanup());

  it('8 concurrent batches of 25 leads against a maximum of 50 count exactly 50, each lead once', async () => {
    const batches = Array.from({ length: 8 }, (_, batch) => leads(`b${batch}-`, 25));
    const reservations = await Promise.all(batches.map((ids) => counters.reserve(key('cap_a'), 50, ids, AT)));
    const counted = reservations.flatMap((reservation) => [...reservation.counted]);
    expect(counted).toHaveLength(50);
    expect(new Set(counted).size).toBe(50);
    expect(await counters.count(key('cap_a'))).toBe(50);
    // Another period of the same cap counts from zero.
    const next = { ...key('cap_a'), period: { start: '2026-11-28T05:00:00.000Z', end: '2026-11-29T05:00:00.000Z' } };
    expect(await counters.count(next)).toBe(0);
  });

  it('a batch decided again keeps its slots and takes no new one', async () => {
    const first = await counters.reserve(key('cap_b'), 3, ['l1', 'l2'], AT);
    expect([...first.counted]).toEqual(['l1', 'l2']);
    const again = await counters.reserve(key('cap_b'), 3, ['l1', 'l2', 'l3', 'l4'], AT);
    expect([...again.counted].sort()).toEqual(['l1', 'l2', 'l3']);
    expect(again.count).toBe(3);
    expect(await counters.count(key('cap_b'))).toBe(3);
  });

  it("a released lead's slot is free again", async () => {
    await counters.reserve(key('cap_c'), 2, ['x1', 'x2'], AT);
    await counters.release(key('cap_c'), ['x1']);
    expect(await counters.count(key('cap_c'))).toBe(1);
    const refill = await counters.reserve(key('cap_c'), 2, ['x3', 'x4'], AT);
    expect([...refill.counted]).toEqual(['x3']);
    expect(await counters.count(key('cap_c'))).toBe(2);
  });

  it('a batch that another batch raced for slots still sees the cap full when it is (so cap.reached goes out)', async () => {
    // Another batch counts 5 leads after this one read the count and before it looks for free slots.
    const other = new CapCounterRepository(harness.store);
    let interleaved = false;
    const store = new Proxy(harness.store, {
      get(target, property) {
        if (property !== 'collection') return Reflect.get(target, property, target) as unknown;
        return (name: string) => {
          const collection = target.collection(name);
          return new Proxy(collection, {
            get(inner, method) {
              const value = Reflect.get(inner, method, inner) as unknown;
              if (typeof value !== 'function') return value;
              const bound = (value as (...args: unknown[]) => unknown).bind(inner);
              if (method !== 'findOne' || interleaved) return bound;
              return async (...args: unknown[]) => {
                interleaved = true;
                await other.reserve(key('cap_e'), 10, leads('o', 5), AT);
                return bound(...args);
              };
            },
          });
        };
      },
    });
    const racing = await new CapCounterRepository(store).reserve(key('cap_e'), 10, leads('r', 5), AT);
    expect(interleaved).toBe(true);
    expect([...racing.counted].sort()).toEqual(leads('r', 5));
    expect(racing.count).toBe(10);
  });

  it('the reached marker belongs to the first lead that set it', async () => {
    expect(await counters.markReached(key('cap_d'), 'first', AT)).toBe(true);
    expect(await counters.markReached(key('cap_d'), 'first', AT)).toBe(true);
    expect(await counters.markReached(key('cap_d'), 'second', AT)).toBe(false);
    // The marker is not a counted lead.
    expect(await counters.count(key('cap_d'))).toBe(0);
  });
});
