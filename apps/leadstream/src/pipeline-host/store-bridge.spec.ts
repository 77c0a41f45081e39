/**
 * The store bridge passes the document-store contract: a read-write embedded store served on one
 * end of a MessageChannel (the pipeline thread's part), the port's whole suite run against the
 * other end, which reads through a read-only connection of its own (the HTTP thread's part).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '@leadstream/engine-embedded-store';
import { type BaseDocument, type DocumentStore, DuplicateKeyError, type Filter } from '@leadstream/ports';
import { documentStoreContract } from '@leadstream/ports/contract/document-store.contract';
import { connectStore, serveStore } from './store-bridge';

interface Bridged {
  writer: EmbeddedStore;
  reader: EmbeddedStore;
  store: DocumentStore;
  close(): Promise<void>;
}

async function bridged(dataDir: string, ttlSweepMs?: number): Promise<Bridged> {
  const writer = await openEmbeddedStore({ dataDir, ...(ttlSweepMs ? { ttlSweepMs } : {}) });
  const reader = await openEmbeddedStore({ dataDir, readOnly: true });
  const channel = new MessageChannel();
  const stopServing = serveStore(writer, channel.port1);
  const store = connectStore(reader, channel.port2);
  return {
    writer,
    reader,
    store,
    close: async () => {
      await store.close();
      stopServing();
      channel.port1.close();
      channel.port2.close();
      await writer.close();
    },
  };
}

documentStoreContract('embedded, writes through the thread bridge', async ({ ttlSweepMs }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-bridge-'));
  let current = await bridged(dataDir, ttlSweepMs);
  return {
    store: current.store,
    reopen: async () => {
      await current.close();
      current = await bridged(dataDir, ttlSweepMs);
      return current.store;
    },
    cleanup: async () => {
      await current.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe('store bridge', () => {
  let dataDir: string;
  let opened: Bridged | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('reads on a connection that cannot write: a write on it is refused, through the bridge it is stored', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'store-bridge-ro-'));
    opened = await bridged(dataDir);
    const { reader, store } = opened;
    expect(reader.db.readonly).toBe(true);
    await store.collection<BaseDocument>('vendors').insertOne({ _id: 'v1', name: 'Fair' });
    // The reader sees what the writer committed; writing on it directly is refused.
    expect(await reader.collection<BaseDocument>('vendors').findOne({ _id: 'v1' })).toEqual({
      _id: 'v1',
      name: 'Fair',
    });
    await expect(reader.collection<BaseDocument>('vendors').insertOne({ _id: 'v2' })).rejects.toMatchObject({
      code: 'STORE_READ_ONLY',
    });
    expect(() => reader.db.prepare(`INSERT INTO "vendors" (id, doc) VALUES ('v3', '{}')`).run()).toThrow(/readonly/);
  });

  it('keeps the kind of a write error: a duplicate key is a DuplicateKeyError naming its index', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'store-bridge-err-'));
    opened = await bridged(dataDir);
    const users = opened.store.collection<BaseDocument>('users');
    await users.createIndex({ keys: { email: 1 }, name: 'email_unique', unique: true });
    await users.insertOne({ _id: 'u1', email: 'a@example.edu' });
    const error = await users.insertOne({ _id: 'u2', email: 'a@example.edu' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DuplicateKeyError);
    expect(error).toMatchObject({ collection: 'users', index: 'email_unique', code: 'DUPLICATE_KEY' });
    const invalid = await users
      .updateOne({ _id: 'u1' }, { $bogus: { a: 1 } } as never)
      .catch((caught: unknown) => caught);
    expect(invalid).toBeInstanceOf(TypeError);
    expect(await users.countDocuments({})).toBe(1);
  });

  it('uses the index columns the writer made, also for an index made after the reader opened', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'store-bridge-idx-'));
    opened = await bridged(dataDir);
    const leads = opened.store.collection<BaseDocument>('leads');
    await leads.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `l${i}`, email: `p${i}@example.edu`, n: i })));
    expect(await leads.find({ n: { $gte: 18 } }, { sort: { n: -1 } })).toEqual([
      { _id: 'l19', email: 'p19@example.edu', n: 19 },
      { _id: 'l18', email: 'p18@example.edu', n: 18 },
    ]);
    expect(await leads.explainIndexes({ email: 'p3@example.edu' })).toEqual([]);
    await leads.createIndex({ keys: { email: 1 }, name: 'by_email' });
    expect(await leads.explainIndexes({ email: 'p3@example.edu' })).toEqual(['by_email']);
    expect(await leads.findOne({ email: 'p3@example.edu' })).toEqual({ _id: 'l3', email: 'p3@example.edu', n: 3 });
  });

  it('reads without the writer: a collection never written answers empty, a written one is read', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'store-bridge-noserver-'));
    const writer = await openEmbeddedStore({ dataDir });
    const reader = await openEmbeddedStore({ dataDir, readOnly: true });
    // Nobody serves the other end of this channel: a read that asked the writer would never answer.
    const channel = new MessageChannel();
    const store = connectStore(reader, channel.port2);
    try {
      const never = store.collection<BaseDocument>('never_written');
      expect(await never.findOne({ _id: 'x' })).toBeNull();
      expect(await never.find({})).toEqual([]);
      expect(await never.countDocuments({})).toBe(0);
      const seen: BaseDocument[] = [];
      for await (const doc of never.iterate({})) seen.push(doc);
      expect(seen).toEqual([]);
      await writer.collection<BaseDocument>('written').insertOne({ _id: 'w1', n: 1 });
      expect(await store.collection<BaseDocument>('written').find({ n: 1 })).toEqual([{ _id: 'w1', n: 1 }]);
      // A query the engine refuses is refused there too, as by a collection that has a table.
      const unsupported = { n: { $near: 1 } } as unknown as Filter;
      for (const collection of [never, store.collection<BaseDocument>('written')]) {
        await expect(collection.find(unsupported)).rejects.toThrow(/unsupported operator \$near on n/);
        await expect(collection.findOne({ "a') OR 1=1 --": 1 })).rejects.toThrow(/invalid field path/);
        await expect(collection.countDocuments({ $nor: [] })).rejects.toThrow(/unsupported top-level operator/);
        await expect(collection.find({}, { sort: { 'a"b': 1 } })).rejects.toThrow(/invalid field path/);
        await expect(collection.find({}, { limit: 2.5 })).rejects.toThrow(/invalid limit 2.5/);
        const iterating = async (): Promise<void> => {
          for await (const doc of collection.iterate(unsupported)) expect(doc).toBeUndefined();
        };
        await expect(iterating()).rejects.toThrow(/unsupported operator/);
      }
      // The table made after the first read of a collection is found by the next one.
      await writer.collection<BaseDocument>('never_written').insertOne({ _id: 'x' });
      expect(await never.findOne({ _id: 'x' })).toEqual({ _id: 'x' });
    } finally {
      await store.close();
      channel.port1.close();
      channel.port2.close();
      await writer.close();
    }
  });
});
