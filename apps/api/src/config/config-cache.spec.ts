/**
 * ConfigCache (@leadstream/runtime) over the embedded engines; it lives here because a library may
 * not import an engine, even in a test. Two caches on one log and store stand for two
 * processes: `a` makes changes, `b` learns them from config.changed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { parseConfigChanged } from '@leadstream/schemas';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_CHANGED_TOPIC, CONFIG_VERSIONS_COLLECTION, ConfigCache } from '@leadstream/runtime';

const logger = pino({ level: 'silent' });

let dir: string;
let log: EventLog;
let store: DocumentStore;
let a: ConfigCache;
let b: ConfigCache;

/** A loader that counts its calls and answers the current value of `source`. */
function counter(source: { value: string }): { load: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return {
    load: async () => {
      calls++;
      return source.value;
    },
    calls: () => calls,
  };
}

/** Waits (bounded) until `check` holds: the other "process" learns a change asynchronously. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'config-cache-'));
  store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
  a = new ConfigCache({ log, store, logger });
  b = new ConfigCache({ log, store, logger });
  await a.start();
  await b.start();
});

afterEach(async () => {
  await a.stop();
  await b.stop();
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ConfigCache', () => {
  it('loads a kind once per organization and keeps it while nothing changes', async () => {
    const source = { value: 'v1' };
    const loader = counter(source);
    expect(await a.get('org_1', 'settings', loader.load)).toBe('v1');
    source.value = 'v2';
    expect(await a.get('org_1', 'settings', loader.load)).toBe('v1');
    expect(loader.calls()).toBe(1);
    // Another organization and another kind are separate entries.
    expect(await a.get('org_2', 'settings', loader.load)).toBe('v2');
    expect(await a.get('org_1', 'vendors', loader.load)).toBe('v2');
    expect(loader.calls()).toBe(3);
  });

  it('shares one load between concurrent callers and does not keep a failed load', async () => {
    let calls = 0;
    const load = async () => {
      calls++;
      if (calls === 1) throw new Error('store down');
      return 'ok';
    };
    await expect(a.get('org_1', 'k', load)).rejects.toThrow('store down');
    const [first, second] = await Promise.all([a.get('org_1', 'k', load), a.get('org_1', 'k', load)]);
    expect([first, second]).toEqual(['ok', 'ok']);
    expect(calls).toBe(2);
  });

  it('changed() bumps the stored version, drops the entries of this process at once and publishes the change', async () => {
    const source = { value: 'old' };
    const loader = counter(source);
    expect(await a.version('org_1')).toBe(0);
    await a.get('org_1', 'keys', loader.load);
    await a.get('org_2', 'keys', loader.load);
    source.value = 'new';
    expect(await a.changed('org_1', 'api_keys')).toBe(1);
    expect(await a.get('org_1', 'keys', loader.load)).toBe('new');
    expect(await a.get('org_2', 'keys', loader.load)).toBe('old');
    expect(await a.version('org_1')).toBe(1);
    expect(await a.changed('org_1', 'vendors')).toBe(2);
    expect(await store.collection(CONFIG_VERSIONS_COLLECTION).findOne({ _id: 'org_1' })).toMatchObject({
      version: 2,
      what: 'vendors',
    });
    const published = (await readTopic(log, CONFIG_CHANGED_TOPIC)).map((record) => ({
      key: record.key,
      ...parseConfigChanged(JSON.parse(record.value)),
    }));
    expect(published).toMatchObject([
      { key: 'org_1', organization_id: 'org_1', version: 1, what: 'api_keys' },
      { key: 'org_1', organization_id: 'org_1', version: 2, what: 'vendors' },
    ]);
  });

  it('another process drops the organization when it consumes the newer version, and learns the version', async () => {
    const source = { value: 'old' };
    const loader = counter(source);
    expect(await b.get('org_1', 'fields', loader.load)).toBe('old');
    expect(await b.get('org_2', 'fields', loader.load)).toBe('old');
    source.value = 'new';
    await a.changed('org_1', 'custom_fields');
    await eventually(async () => (await b.get('org_1', 'fields', loader.load)) === 'new');
    expect(await b.version('org_1')).toBe(1);
    expect(await b.get('org_2', 'fields', loader.load)).toBe('old');
  });

  it('reloads first when a message stamps a version newer than the one this process knows', async () => {
    await b.stop(); // b hears nothing now; c knows versions only from stamps
    const c = new ConfigCache({ log, store, logger });
    await c.start();
    try {
      const source = { value: 'old' };
      const loader = counter(source);
      expect(await c.get('org_1', 'dedup', loader.load, 0)).toBe('old');
      source.value = 'new';
      expect(await c.get('org_1', 'dedup', loader.load, 0)).toBe('old');
      expect(await c.get('org_1', 'dedup', loader.load, 3)).toBe('new');
      expect(loader.calls()).toBe(2);
      // Known now: an equal or older stamp keeps the entry.
      source.value = 'newer';
      expect(await c.get('org_1', 'dedup', loader.load, 3)).toBe('new');
      expect(await c.get('org_1', 'dedup', loader.load, 2)).toBe('new');
      expect(loader.calls()).toBe(2);
    } finally {
      await c.stop();
    }
  });

  it('version() reads the stored version once, then answers from memory', async () => {
    await a.changed('org_1', 'settings');
    await a.changed('org_1', 'settings');
    const fresh = new ConfigCache({ log, store, logger });
    await fresh.start();
    try {
      expect(await fresh.version('org_1')).toBe(2);
      // A write behind the cache's back (no change published) is not seen: the version is not re-read.
      await store.collection(CONFIG_VERSIONS_COLLECTION).updateOne({ _id: 'org_1' }, { $set: { version: 9 } });
      expect(await fresh.version('org_1')).toBe(2);
      expect(await fresh.version('org_unknown')).toBe(0);
    } finally {
      await fresh.stop();
    }
  });

  it('holds at most maxOrganizations organizations, dropping the least recently used one', async () => {
    const bounded = new ConfigCache({ log, store, logger, maxOrganizations: 2 });
    await bounded.start();
    try {
      const source = { value: 'v1' };
      const loader = counter(source);
      await bounded.get('org_1', 'settings', loader.load);
      await bounded.get('org_2', 'settings', loader.load);
      await bounded.get('org_1', 'settings', loader.load); // org_1 used last: org_2 is the oldest now
      expect(loader.calls()).toBe(2);
      await bounded.get('org_3', 'settings', loader.load);
      expect(loader.calls()).toBe(3);
      // org_1 was kept; org_2 was dropped and is loaded again (fresh, never stale).
      source.value = 'v2';
      expect(await bounded.get('org_1', 'settings', loader.load)).toBe('v1');
      expect(await bounded.get('org_2', 'settings', loader.load)).toBe('v2');
      expect(loader.calls()).toBe(4);
      expect(bounded.organizationCount).toBe(2);
    } finally {
      await bounded.stop();
    }
  });

  it('a dropped organization still answers its stored version and sees its changes', async () => {
    const bounded = new ConfigCache({ log, store, logger, maxOrganizations: 1 });
    await bounded.start();
    try {
      await a.changed('org_1', 'settings');
      await a.changed('org_1', 'settings');
      expect(await bounded.version('org_1')).toBe(2);
      expect(await bounded.version('org_2')).toBe(0); // org_1 is dropped
      expect(bounded.organizationCount).toBe(1);
      expect(await bounded.version('org_1')).toBe(2); // read again from the store
      const source = { value: 'old' };
      const loader = counter(source);
      expect(await bounded.get('org_1', 'k', loader.load)).toBe('old');
      source.value = 'new';
      await a.changed('org_1', 'settings');
      await eventually(async () => (await bounded.get('org_1', 'k', loader.load)) === 'new');
      expect(await bounded.version('org_1')).toBe(3);
    } finally {
      await bounded.stop();
    }
  });

  it('does not start holding organizations it never read because their changes go by', async () => {
    const bounded = new ConfigCache({ log, store, logger });
    await bounded.start();
    try {
      const loader = counter({ value: 'x' });
      await bounded.get('org_1', 'k', loader.load);
      for (let n = 2; n <= 6; n++) await a.changed(`org_${n}`, 'settings');
      // The marker: a change of the organization it holds, seen once its entry is dropped.
      await a.changed('org_1', 'settings');
      await eventually(async () => {
        await bounded.get('org_1', 'k', loader.load);
        return loader.calls() === 2;
      });
      expect(bounded.organizationCount).toBe(1);
    } finally {
      await bounded.stop();
    }
  });

  it('caches nothing when not subscribed: before start and after stop every get loads', async () => {
    const idle = new ConfigCache({ log, store, logger });
    const source = { value: 'x' };
    const loader = counter(source);
    await idle.get('org_1', 'k', loader.load);
    await idle.get('org_1', 'k', loader.load);
    expect(loader.calls()).toBe(2);
    await idle.start();
    await idle.get('org_1', 'k', loader.load);
    await idle.get('org_1', 'k', loader.load);
    expect(loader.calls()).toBe(3);
    await idle.stop();
    await idle.get('org_1', 'k', loader.load);
    expect(loader.calls()).toBe(4);
  });

  it('drops on a same-version change from another process (FerretDB can lose a concurrent $inc)', async () => {
    const source = { value: 'old' };
    const loader = counter(source);
    await a.changed('org_1', 'settings'); // both learn version 1
    await eventually(async () => (await b.version('org_1')) === 1);
    await b.get('org_1', 'k', loader.load);
    await a.get('org_1', 'k', loader.load);
    source.value = 'new';
    // A second change whose increment was lost: it publishes version 1 again.
    await log.produce(CONFIG_CHANGED_TOPIC, [
      {
        key: 'org_1',
        value: JSON.stringify({
          schema_version: 1,
          organization_id: 'org_1',
          version: 1,
          what: 'settings',
          changed_at: new Date().toISOString(),
        }),
      },
    ]);
    await eventually(async () => (await b.get('org_1', 'k', loader.load)) === 'new');
    await eventually(async () => (await a.get('org_1', 'k', loader.load)) === 'new');
  });
});
