/**
 * Effectively-once stages (DESIGN.md section 5), on both engine pairs: a stage that receives the
 * same message twice changes nothing and emits nothing; a stage that crashed after storing its
 * transition but before producing its outputs produces them, once, when the message comes again.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDal, CustomFieldRepository, DedupRepository, LeadRepository } from '@leadstream/dal';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openKafkaLog } from '@leadstream/engine-kafka';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { prefixEventLog } from '@leadstream/runtime';
import type { LeadCommandMessage } from '@leadstream/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { dedupHandler } from './dedup.stage';
import { enrichHandler } from './enrich.stage';
import { LeadActorStore } from './lead-actor-store';
import { TOPICS } from './outputs';
import { validateHandler } from './validate.stage';

interface Engines {
  log: EventLog;
  store: DocumentStore;
  close: () => Promise<void>;
}

const kafka = lookupInfra('KAFKA_BROKERS');
const mongodb = lookupInfra('MONGODB_URI');

const pairs: Array<[string, () => Promise<Engines>]> = [
  [
    'embedded log and store',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'idempotency-'));
      const log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
      const store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
      return {
        log,
        store,
        close: async () => {
          await log.close();
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
];
if (kafka.value && mongodb.value) {
  const brokers = kafka.value.split(',');
  const uri = mongodb.value;
  pairs.push([
    'Kafka and FerretDB',
    async () => {
      const suffix = randomUUID().slice(0, 8);
      const log = prefixEventLog(await openKafkaLog({ brokers, clientId: 'idempotency-test' }), `idem-${suffix}.`);
      const store = await openMongoStore({ uri, dbName: `idem_${suffix}` });
      return {
        log,
        store,
        close: async () => {
          await log.close();
          await store.close();
        },
      };
    },
  ]);
}

const opened: Engines[] = [];
afterEach(async () => {
  for (const engines of opened.splice(0)) await engines.close();
});

async function setUp(open: () => Promise<Engines>) {
  const engines = await open();
  opened.push(engines);
  const { log, store } = engines;
  await log.ensureTopics(Object.values(TOPICS).map((topic) => ({ topic, partitions: 2 })));
  const dal = createDal(store);
  const organization = await dal.organizations.create({ name: 'Idempotent University' });
  const tenant = { organizationId: organization.id, environment: 'live' as const };
  const vendor = await dal.vendors.create(tenant, { name: 'Vendor', type: 'inquiry' });
  const leads = new LeadRepository(store);
  return { log, store, dal, tenant, vendor, leads };
}

function submitted(organizationId: string, vendorId: string, email: string): LeadCommandMessage {
  return {
    schema_version: 1,
    message_id: `msg_${randomUUID().replace(/-/g, '')}`,
    correlation_id: `corr_${randomUUID().replace(/-/g, '')}`,
    lead_id: `lead_${randomUUID().replace(/-/g, '')}`,
    organization_id: organizationId,
    environment: 'live',
    vendor_id: vendorId,
    submitted_at: new Date().toISOString(),
    submission: { email, first_name: 'Ada', last_name: 'Lovelace' },
  };
}

describe.each(pairs)('pipeline stages on %s', (_name, open) => {
  it('apply a redelivered message once: no second write, no second output', async () => {
    const { log, store, dal, tenant, vendor, leads } = await setUp(open);
    const actors = new LeadActorStore(leads, log);
    const validate = validateHandler({ actors, organizations: dal.organizations, customFields: new CustomFieldRepository(store), mx: undefined });
    const dedup = dedupHandler({ actors, leads, dedup: new DedupRepository(store), vendors: dal.vendors });
    const enrich = enrichHandler(actors);

    const message = submitted(tenant.organizationId, vendor.id, `ada.${randomUUID().slice(0, 6)}@example.edu`);
    const key = `live:${tenant.organizationId}:x`;
    await validate({ value: JSON.stringify(message), key });
    await validate({ value: JSON.stringify(message), key });
    const [validated] = await readTopic(log, TOPICS.validated);
    expect(validated).toBeDefined();
    await dedup({ value: validated?.value ?? '' });
    await dedup({ value: validated?.value ?? '' });
    const [unique] = await readTopic(log, TOPICS.unique);
    await enrich({ value: unique?.value ?? '' });
    const afterOnce = await leads.findById(tenant, message.lead_id);
    await enrich({ value: unique?.value ?? '' });
    const afterTwice = await leads.findById(tenant, message.lead_id);

    expect(afterTwice?.status).toBe('active');
    expect(afterTwice?.version).toBe(afterOnce?.version);
    expect(afterTwice?.applied_messages).toHaveLength(3);
    expect(await readTopic(log, TOPICS.validated)).toHaveLength(1);
    expect(await readTopic(log, TOPICS.unique)).toHaveLength(1);
    const decisions = await readTopic(log, TOPICS.decisions);
    expect(decisions.map((record) => JSON.parse(record.value).outcome)).toEqual(['accepted']);
    const events = (await readTopic(log, TOPICS.events)).map((record) => JSON.parse(record.value).event).sort();
    expect(events).toEqual(['lead.accepted', 'lead.created', 'lead.validated']);
  });

  it('produce the stored outputs once when the stage crashed between its write and its produce', async () => {
    const { log, store, dal, tenant, vendor, leads } = await setUp(open);
    let failNextProduce = true;
    const flaky: EventLog = {
      ...log,
      engine: log.engine,
      produce: async (topic, records) => {
        if (failNextProduce) {
          failNextProduce = false;
          throw new Error('broker went away');
        }
        return log.produce(topic, records);
      },
    };
    const validate = validateHandler({
      actors: new LeadActorStore(leads, flaky),
      organizations: dal.organizations,
      customFields: new CustomFieldRepository(store),
      mx: undefined,
    });
    const message = submitted(tenant.organizationId, vendor.id, `grace.${randomUUID().slice(0, 6)}@example.edu`);
    await expect(validate({ value: JSON.stringify(message), key: 'k' })).rejects.toThrow('broker went away');
    const stored = await leads.findById(tenant, message.lead_id);
    expect(stored?.outbox.length).toBeGreaterThan(0);
    expect(await readTopic(log, TOPICS.validated)).toHaveLength(0);

    await validate({ value: JSON.stringify(message), key: 'k' });
    await validate({ value: JSON.stringify(message), key: 'k' });
    expect(await readTopic(log, TOPICS.validated)).toHaveLength(1);
    expect((await leads.findById(tenant, message.lead_id))?.outbox).toEqual([]);
  });
});
