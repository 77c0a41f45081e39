/**
 * The API's lead changes through the thread bridge: a real AtomicBatchWriter on embedded engines
 * served on one end of a MessageChannel, changes sent from the other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { LEADS_COLLECTION } from '@leadstream/dal';
import { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { LeadRecord } from '@leadstream/domain';
import { AtomicBatchWriter } from '@leadstream/worker';
import { afterEach, describe, expect, it } from 'vitest';
import { connectLeadChanges, serveLeadChanges } from './lead-change-bridge';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function bridged() {
  const dir = mkdtempSync(join(tmpdir(), 'lead-change-bridge-'));
  const store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  const log = EmbeddedLog.open({ dataDir: join(dir, 'log'), shared: store });
  await log.ensureTopics([{ topic: 'leads.events', partitions: 1 }]);
  const writer = new AtomicBatchWriter({ store, log, topicPrefix: '' });
  const channel = new MessageChannel();
  const stop = serveLeadChanges({ commitLeadChange: (change) => writer.commitLeadChange(change) }, channel.port1);
  let exit!: () => void;
  const gone = new Promise<void>((resolve) => (exit = resolve));
  const changes = connectLeadChanges(channel.port2, gone);
  cleanups.push(async () => {
    stop();
    channel.port1.close();
    channel.port2.close();
    await log.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, log, changes, exit };
}

const ADA = {
  _id: 'lead-1',
  organization_id: 'org-1',
  environment: 'live',
  deleted_at: null,
  first_name: 'Ada',
  version: 1,
  outbox: [],
  outbox_at: null,
};

const change = (expectedVersion: number) => ({
  tenant: { organizationId: 'org-1', environment: 'live' as const },
  id: 'lead-1',
  expectedVersion,
  set: { first_name: 'Grace' } as Partial<LeadRecord>,
  outputs: [{ topic: 'leads.events', key: 'lead-1', value: '{"event":"lead.updated"}' }],
});

describe('lead changes through the thread bridge', () => {
  it('commits a change at the other end and answers with the written lead, or null for a stale version', async () => {
    const { store, log, changes } = await bridged();
    await store.collection(LEADS_COLLECTION).insertOne({ ...ADA });
    const written = await changes.commitLeadChange(change(1));
    expect(written).toMatchObject({ _id: 'lead-1', first_name: 'Grace', version: 2, outbox: [] });
    expect(await changes.commitLeadChange(change(1))).toBeNull();
    expect(log.read('leads.events', 0, 0, 10).map((record) => record.value)).toEqual(['{"event":"lead.updated"}']);
  });

  it("carries the other end's failure back with its message, and writes nothing", async () => {
    const { store, changes } = await bridged();
    await store.collection(LEADS_COLLECTION).insertOne({ ...ADA });
    // A topic the log does not have: the writer's transaction throws and rolls back.
    const failing = { ...change(1), outputs: [{ topic: 'no.such.topic', key: 'k', value: '{}' }] };
    await expect(changes.commitLeadChange(failing)).rejects.toThrow('unknown topic no.such.topic');
    expect(await store.collection(LEADS_COLLECTION).findOne({ _id: 'lead-1' })).toMatchObject({
      first_name: 'Ada',
      version: 1,
    });
  });

  it('fails at once once the other end is gone', async () => {
    const { changes, exit } = await bridged();
    exit();
    await Promise.resolve();
    await expect(changes.commitLeadChange(change(1))).rejects.toThrow('the pipeline thread has exited');
  });
});
