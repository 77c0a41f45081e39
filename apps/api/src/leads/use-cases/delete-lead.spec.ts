/**
 * DELETE /api/leads/:id as a use case, on the embedded engines: the compare-and-set write of the
 * lead writer when other writers keep changing the lead (a branch the route tests cannot reach).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeadQueryRepository, SubmissionReceiptRepository } from '@leadstream/dal';
import { isDomainError, startLead, type LeadRecord, type TenantContext } from '@leadstream/domain';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_TOPIC } from '../lead-events';
import { deleteLead, type DeleteLeadDeps } from './delete-lead';
import type { LeadChangeCommitter } from './lead-writer';

const tenant: TenantContext = { organizationId: 'org_writer', environment: 'live' };
const NOW = new Date('2026-03-02T10:00:00.000Z');

let dir: string;
let store: DocumentStore;
let log: EventLog;
let queries: LeadQueryRepository;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'delete-lead-'));
  store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
  await log.ensureTopics([{ topic: EVENTS_TOPIC, partitions: 1 }]);
  queries = new LeadQueryRepository(store);
});

afterAll(async () => {
  await log.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function storedLead(email: string): Promise<LeadRecord> {
  const id = `lead_${randomUUID().replace(/-/g, '')}`;
  const at = '2026-03-01T09:00:00.000Z';
  const lead = {
    _id: id,
    organization_id: tenant.organizationId,
    environment: tenant.environment,
    vendor_id: 'vendor_1',
    status: 'active',
    email,
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: null,
    custom_fields: {},
    enrichment_data: {},
    flags: [],
    warnings: [],
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 1,
    applied_messages: [],
    outbox: [],
  } as unknown as LeadRecord;
  await store.collection<LeadRecord>('leads').insertMany([lead]);
  return lead;
}

/**
 * The lead repository with another writer that changes the lead between each read and write of
 * the use case, `times` times: the use case's compare-and-set then finds a newer version.
 */
function racedBy(times: number): { queries: DeleteLeadDeps['queries']; raced: () => number } {
  let raced = 0;
  return {
    raced: () => raced,
    queries: {
      findVisible: (t, id) => queries.findVisible(t, id),
      clearOutbox: (t, id, version) => queries.clearOutbox(t, id, version),
      writeIfUnchanged: async (t, id, version, set, outbox) => {
        if (raced < times) {
          raced++;
          await queries.writeIfUnchanged(t, id, version, { first_name: `Other writer ${raced}` }, []);
        }
        return queries.writeIfUnchanged(t, id, version, set, outbox);
      },
    },
  };
}

function deps(leadQueries: DeleteLeadDeps['queries']): DeleteLeadDeps {
  return { queries: leadQueries, log, clock: () => NOW, receipts: new SubmissionReceiptRepository(store) };
}

const deletedEventsOf = async (leadId: string): Promise<Array<Record<string, unknown>>> =>
  (await readTopic(log, EVENTS_TOPIC))
    .map((record) => JSON.parse(record.value) as Record<string, unknown>)
    .filter((event) => (event['data'] as { lead_id?: string }).lead_id === leadId);

describe('deleteLead', () => {
  it('reads the lead again after another writer changed it, deletes it on the fresh version, and produces lead.deleted once', async () => {
    const lead = await storedLead('raced-four-times@example.com');
    const race = racedBy(4);

    await deleteLead(deps(race.queries), { tenant, id: lead._id });

    expect(race.raced()).toBe(4);
    const stored = await store.collection<LeadRecord>('leads').findOne({ _id: lead._id });
    // The other writer's last change is kept: the delete went on the state it left.
    expect(stored).toMatchObject({
      first_name: 'Other writer 4',
      deleted_at: NOW.toISOString(),
      updated_at: NOW.toISOString(),
      version: 6,
      outbox: [],
    });
    const events = await deletedEventsOf(lead._id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: 'lead.deleted',
      data: { lead_id: lead._id, deleted_at: NOW.toISOString() },
    });
  });

  it('gives up with SERVICE_UNAVAILABLE after five lost writes, leaving the lead undeleted and producing nothing', async () => {
    const lead = await storedLead('raced-five-times@example.com');
    const race = racedBy(5);

    const error: unknown = await deleteLead(deps(race.queries), { tenant, id: lead._id }).catch(
      (thrown: unknown) => thrown,
    );

    expect(isDomainError(error) ? { code: error.code, message: error.message } : error).toEqual({
      code: 'SERVICE_UNAVAILABLE',
      message: 'The lead is being changed by others; try again',
    });
    expect(race.raced()).toBe(5);
    const stored = await store.collection<LeadRecord>('leads').findOne({ _id: lead._id });
    expect(stored).toMatchObject({ first_name: 'Other writer 5', deleted_at: null, version: 6, outbox: [] });
    expect(await deletedEventsOf(lead._id)).toEqual([]);
  });

  it("writes through the engines' unit of work where there is one: the lead's event in the change, a lost race read again", async () => {
    const lead = await storedLead('unit-of-work@example.com');
    const changes: Array<{ expectedVersion: number; events: string[] }> = [];
    let lost = 0;
    const unit: LeadChangeCommitter = {
      // The engine's commit (one transaction on the embedded engines) is the store write and the
      // produce here; the writer must hand it the event and leave nothing in the outbox.
      async commitLeadChange(change) {
        changes.push({
          expectedVersion: change.expectedVersion,
          events: change.outputs.map((output) => (JSON.parse(output.value) as { event: string }).event),
        });
        if (lost < 2) {
          lost++;
          await queries.writeIfUnchanged(change.tenant, change.id, change.expectedVersion, { first_name: 'Other' }, []);
        }
        const written = await queries.writeIfUnchanged(
          change.tenant,
          change.id,
          change.expectedVersion,
          change.set,
          [],
        );
        if (written) await log.produce(EVENTS_TOPIC, change.outputs);
        return written;
      },
    };

    await deleteLead({ ...deps(queries), changes: unit }, { tenant, id: lead._id });

    expect(changes).toEqual([
      { expectedVersion: 1, events: ['lead.deleted'] },
      { expectedVersion: 2, events: ['lead.deleted'] },
      { expectedVersion: 3, events: ['lead.deleted'] },
    ]);
    expect(await store.collection<LeadRecord>('leads').findOne({ _id: lead._id })).toMatchObject({
      first_name: 'Other',
      deleted_at: NOW.toISOString(),
      version: 4,
      outbox: [],
    });
    expect(await deletedEventsOf(lead._id)).toHaveLength(1);
  });

  it('answers LEAD_NOT_FOUND for a lead of another organization, which it leaves as it is', async () => {
    const lead = await storedLead('other-organization@example.com');

    const error: unknown = await deleteLead(deps(queries), {
      tenant: { organizationId: 'org_other', environment: 'live' },
      id: lead._id,
    }).catch((thrown: unknown) => thrown);

    expect(isDomainError(error) ? error.code : error).toBe('LEAD_NOT_FOUND');
    expect(await store.collection<LeadRecord>('leads').findOne({ _id: lead._id })).toMatchObject({
      deleted_at: null,
      version: 1,
    });
  });
});
