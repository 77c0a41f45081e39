import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADS_COLLECTION } from '@leadstream/dal';
import type { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedEngines } from '../test-support/embedded-engines';
import { TOPICS } from '../pipeline/outputs';
import { emptyBatchWrite } from './batch-write';

/** The offset stored in the database for a group, as a restarted process would read it. */
function storedOffset(group: string): number | undefined {
  return engines.store.db
    .prepare(
      'SELECT next_offset FROM _leadstream_log_committed_offsets WHERE group_id = ? AND topic = ? AND partition_id = 0',
    )
    .pluck()
    .get(group, TOPICS.events) as number | undefined;
}

/** Fresh embedded engines in a directory of their own for every test of the file. */
let dir: string;
let engines: Awaited<ReturnType<typeof openEmbeddedEngines>>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atomic-writer-'));
  engines = await openEmbeddedEngines(dir);
});
afterEach(async () => {
  await engines.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('AtomicBatchWriter', () => {
  it('commits no transaction for a batch that writes nothing, and stores its offset with the next batch that does', async () => {
    const position = (groupId: string, nextOffset: number) => ({
      groupId,
      topic: TOPICS.events,
      partition: 0,
      nextOffset,
    });
    const commitsBefore = engines.store.commits;
    await engines.writer.commit(emptyBatchWrite(), position('notify', 12));
    expect(engines.store.commits).toBe(commitsBefore);
    expect(storedOffset('notify')).toBeUndefined();
    // A member of the group reads on from it meanwhile.
    expect((engines.log as EmbeddedLog).committed('notify', TOPICS.events, 0)).toBe(12);

    const write = emptyBatchWrite();
    write.records.push({ topic: TOPICS.events, key: 'lead-1', value: '{}' });
    await engines.writer.commit(write, position('activity', 3));
    expect(engines.store.commits).toBe(commitsBefore + 1);
    expect([storedOffset('notify'), storedOffset('activity')]).toEqual([12, 3]);
  });
});

describe('AtomicBatchWriter.commitLeadChange (the API writes of a lead)', () => {
  const tenant = { organizationId: 'org-1', environment: 'live' as const };
  const events = (): string[] =>
    (engines.log as EmbeddedLog).read(TOPICS.events, 0, 0, 100).map((record) => `${record.key}:${record.value}`);

  it('writes the change and produces its events in one commit, leaving no outbox', async () => {
    await engines.store.collection(LEADS_COLLECTION).insertOne({
      _id: 'lead-1',
      organization_id: 'org-1',
      environment: 'live',
      deleted_at: null,
      first_name: 'Ada',
      version: 3,
      outbox: [],
      outbox_at: null,
    });
    const commitsBefore = engines.store.commits;
    const written = await engines.writer.commitLeadChange!({
      tenant,
      id: 'lead-1',
      expectedVersion: 3,
      set: { first_name: 'Grace' },
      outputs: [{ topic: TOPICS.events, key: 'lead-1', value: '{"event":"lead.updated"}' }],
    });
    expect(written).toMatchObject({ _id: 'lead-1', first_name: 'Grace', version: 4, outbox: [], outbox_at: null });
    expect(engines.store.commits).toBe(commitsBefore + 1);
    expect(events()).toEqual(['lead-1:{"event":"lead.updated"}']);
    const stored = await engines.store.collection(LEADS_COLLECTION).findOne({ _id: 'lead-1' });
    expect(stored).toMatchObject({ first_name: 'Grace', version: 4, outbox: [] });
  });

  it('writes and produces nothing when the lead moved past the version, is gone or is another tenant', async () => {
    await engines.store.collection(LEADS_COLLECTION).insertOne({
      _id: 'lead-2',
      organization_id: 'org-1',
      environment: 'live',
      deleted_at: null,
      first_name: 'Ada',
      version: 5,
      outbox: [],
      outbox_at: null,
    });
    const change = (id: string, expectedVersion: number, organizationId = 'org-1') =>
      engines.writer.commitLeadChange!({
        tenant: { ...tenant, organizationId },
        id,
        expectedVersion,
        set: { first_name: 'Grace' },
        outputs: [{ topic: TOPICS.events, key: id, value: '{}' }],
      });
    expect(await change('lead-2', 4)).toBeNull();
    expect(await change('missing', 1)).toBeNull();
    expect(await change('lead-2', 5, 'org-2')).toBeNull();
    expect(events()).toEqual([]);
    expect(await engines.store.collection(LEADS_COLLECTION).findOne({ _id: 'lead-2' })).toMatchObject({
      first_name: 'Ada',
      version: 5,
    });
  });
});
