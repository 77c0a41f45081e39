/**
 * The outbox sweeper's read of leads across tenants comes from the sparse outbox index, never from
 * a walk over every lead: it runs every 10 s on the pipeline's thread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEADS_COLLECTION, LeadRepository } from '@leadstream/dal';
import { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { BaseDocument, DocumentStore } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxSweeper } from './outbox-sweeper';

let dir: string;
let store: DocumentStore;
let log: EmbeddedLog;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'outbox-sweeper-'));
  store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  log = EmbeddedLog.open({ dataDir: join(dir, 'log') });
  await LeadRepository.ensureIndexes(store);
});

afterEach(async () => {
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const at = (secondsAgo: number): string =>
  new Date(Date.parse('2026-11-28T00:00:00.000Z') - secondsAgo * 1000).toISOString();

function lead(i: number, outboxAt: string | null): BaseDocument {
  const outbox = outboxAt ? [{ topic: 'swept', key: `lead_${i}`, value: JSON.stringify({ i }) }] : [];
  return {
    _id: `lead_${i}`,
    organization_id: `org_${i % 3}`,
    environment: 'live',
    version: 1,
    outbox,
    outbox_at: outboxAt,
  };
}

describe('OutboxSweeper on the embedded store', () => {
  it('reads stale outboxes from the outbox index, not by walking every lead', async () => {
    expect(await new LeadRepository(store).explainStaleOutboxes(at(30))).toEqual(['outbox_at']);
  });

  it('produces and clears the outboxes older than the cutoff, oldest first, and leaves the fresh one', async () => {
    const leads = store.collection(LEADS_COLLECTION);
    await leads.insertMany([
      ...Array.from({ length: 200 }, (_, i) => lead(i, null)),
      lead(200, at(45)),
      lead(201, at(120)),
      lead(202, at(5)),
    ]);
    await log.ensureTopics([{ topic: 'swept', partitions: 1 }]);
    const sweeper = new OutboxSweeper({
      store,
      log,
      logger: pino({ level: 'silent' }),
      now: () => new Date(at(0)),
    });
    expect(await sweeper.sweep()).toBe(2);
    expect((await readTopic(log, 'swept')).map((record) => record.key)).toEqual(['lead_201', 'lead_200']);
    expect(await leads.findOne({ _id: 'lead_201' })).toMatchObject({ outbox: [], outbox_at: null });
    expect(await leads.findOne({ _id: 'lead_202' })).toMatchObject({ outbox_at: at(5) });
    expect(await sweeper.sweep()).toBe(0);
  });

  it('sweeps in one process a turn: the others skip until the turn is due again', async () => {
    const leads = store.collection(LEADS_COLLECTION);
    await log.ensureTopics([{ topic: 'swept', partitions: 1 }]);
    let clock = Date.parse(at(0));
    const sweeper = () =>
      new OutboxSweeper({
        store,
        log,
        logger: pino({ level: 'silent' }),
        intervalMs: 10_000,
        now: () => new Date(clock),
      });
    const [first, second] = [sweeper(), sweeper()];
    await leads.insertMany([lead(1, at(60)), lead(2, at(90))]);
    expect(await first.sweepOnTurn()).toBe(2);
    // The same moment, another process: not its turn, so it reads nothing (the outbox left
    // behind meanwhile stays for the next turn).
    await leads.insertOne(lead(3, at(60)));
    expect(await second.sweepOnTurn()).toBe(0);
    expect(await leads.findOne({ _id: 'lead_3' })).toMatchObject({ outbox_at: at(60) });
    clock += 5_000;
    expect(await second.sweepOnTurn()).toBe(0);
    // A turn later, whoever asks first sweeps.
    clock += 5_000;
    expect(await second.sweepOnTurn()).toBe(1);
    expect(await first.sweepOnTurn()).toBe(0);
    expect((await readTopic(log, 'swept')).map((record) => record.key)).toEqual(['lead_2', 'lead_1', 'lead_3']);
  });
});
