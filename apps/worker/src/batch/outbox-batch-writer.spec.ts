/**
 * The outbox writer over the embedded store and log (it takes any pair): what it writes of a lead
 * whose left-over outbox a redelivered batch finds.
 */
import { LEADS_COLLECTION } from '@leadstream/dal';
import type { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { describe, expect, it } from 'vitest';
import { useEmbeddedEngines } from '../test-support/embedded-engines';
import { TOPICS } from '../pipeline/outputs';
import { emptyBatchWrite } from './batch-write';
import { OutboxBatchWriter } from './outbox-batch-writer';

const engines = useEmbeddedEngines('outbox-writer');

describe('OutboxBatchWriter', () => {
  it('produces the left-over outbox of a lead the batch did not change, and leaves the lead document alone', async () => {
    const leads = engines.store.collection(LEADS_COLLECTION);
    const leftover = { topic: TOPICS.events, key: 'lead-1', value: '{"id":"evt_1"}' };
    await leads.insertOne({
      _id: 'lead-1',
      organization_id: 'org-1',
      environment: 'live',
      version: 3,
      applied_messages: ['msg-enrich'],
      outbox: [leftover],
      outbox_at: '2026-11-29T00:00:00.000Z',
    });
    const before = await leads.findOne({ _id: 'lead-1' });
    const updatesBefore = engines.store.commits;

    const write = emptyBatchWrite();
    write.pendingOutboxes.push(before as never);
    await new OutboxBatchWriter(engines.store, engines.log).commit(write);

    // Produced again (same id), so nothing a crash cut off is lost...
    const events = (engines.log as EmbeddedLog).read(TOPICS.events, 0, 0, 10).map((record) => record.value);
    expect(events).toEqual(['{"id":"evt_1"}']);
    // ...but not cleared: the lead's next stage may be writing it at this moment, and a clear beside
    // that write can undo it where conditional updates are not atomic (FerretDB).
    expect(await leads.findOne({ _id: 'lead-1' })).toEqual(before);
    expect(engines.store.commits).toBe(updatesBefore + 1); // the produce's own commit, no lead update
  });
});
