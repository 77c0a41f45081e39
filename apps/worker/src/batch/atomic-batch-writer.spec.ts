import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openEmbeddedEngines } from '../test-support/embedded-engines';
import { TOPICS } from '../pipeline/outputs';
import { emptyBatchWrite } from './batch-write';

/** The offset stored in the database for a group, as a restarted process would read it. */
function storedOffset(engines: Awaited<ReturnType<typeof openEmbeddedEngines>>, group: string): number | undefined {
  return engines.store.db
    .prepare(
      'SELECT next_offset FROM _leadstream_log_committed_offsets WHERE group_id = ? AND topic = ? AND partition_id = 0',
    )
    .pluck()
    .get(group, TOPICS.events) as number | undefined;
}

describe('AtomicBatchWriter', () => {
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
    expect(storedOffset(engines, 'notify')).toBeUndefined();
    // A member of the group reads on from it meanwhile.
    expect((engines.log as EmbeddedLog).committed('notify', TOPICS.events, 0)).toBe(12);

    const write = emptyBatchWrite();
    write.records.push({ topic: TOPICS.events, key: 'lead-1', value: '{}' });
    await engines.writer.commit(write, position('activity', 3));
    expect(engines.store.commits).toBe(commitsBefore + 1);
    expect([storedOffset(engines, 'notify'), storedOffset(engines, 'activity')]).toEqual([12, 3]);
  });
});
