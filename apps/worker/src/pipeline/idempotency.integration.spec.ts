/**
 * Effectively-once stages (docs/pipeline.md, docs/decisions.md "Ingestion pipeline"), on both
 * engine pairs: the same batch delivered twice changes nothing and produces nothing new; a batch
 * cut by a crash at any point between its writes and its produce is consumed again and every lead,
 * event and activity entry exists exactly once. (Kafka + FerretDB run when infra is up:
 * `npm run infra:up`.)
 */
import {
  createDal,
  CustomFieldRepository,
  DedupRepository,
  LeadActivityRepository,
  LeadRepository,
  ValidationRuleRepository,
  EnrichmentConfigReader,
} from '@leadstream/dal';
import type { DocumentStore, EventLog, LogRecord } from '@leadstream/ports';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { parseLeadEvents, type LeadCommandMessage } from '@leadstream/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchStage } from '../batch/batch-stage';
import type { BatchWriter } from '../batch/batch-write';
import { uncachedConfig } from '../batch/config-source';
import { OutboxBatchWriter } from '../batch/outbox-batch-writer';
import { OutboxSweeper } from '../batch/outbox-sweeper';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { activityStage } from './activity.stage';
import { dedupStage } from './dedup.stage';
import { enrichStage } from './enrich.stage';
import { TOPICS } from './outputs';
import { validateStage } from './validate.stage';
import { pino } from 'pino';

const pairs = enginePairs('idem');
const opened: EnginePair[] = [];
afterEach(async () => {
  for (const engines of opened.splice(0)) await engines.close();
});

async function setUp(open: () => Promise<EnginePair>) {
  const engines = await open();
  opened.push(engines);
  const { log, store } = engines;
  const dal = createDal(store);
  const organization = await dal.organizations.create({ name: 'Idempotent University' });
  const tenant = { organizationId: organization.id, environment: 'live' as const };
  const vendor = await dal.vendors.create(tenant, { name: 'Vendor', type: 'inquiry' });
  const leads = new LeadRepository(store);
  const stages = (writer: BatchWriter) => ({
    validate: driveStage(
      validateStage({
        leads,
        organizations: dal.organizations,
        customFields: new CustomFieldRepository(store),
        validationRules: new ValidationRuleRepository(store),
        config: uncachedConfig,
        mx: undefined,
      }),
      writer,
    ),
    dedup: driveStage(
      dedupStage({ leads, dedup: new DedupRepository(store), vendors: dal.vendors, config: uncachedConfig }),
      writer,
    ),
    enrich: driveStage(
      enrichStage({ leads, enrichment: new EnrichmentConfigReader(store), config: uncachedConfig }),
      writer,
    ),
    activity: driveStage(activityStage(), writer),
  });
  const submit = async (count: number): Promise<LeadCommandMessage[]> => {
    const messages = Array.from({ length: count }, () => leadCommand(tenant.organizationId, vendor.id));
    await log.produce(
      TOPICS.submitted,
      messages.map((message) => ({
        key: `live:${tenant.organizationId}:${message.lead_id}`,
        value: JSON.stringify(message),
      })),
    );
    return messages;
  };
  return { ...engines, dal, tenant, vendor, leads, stages, submit };
}

/** The lead an event is about: `data.lead.id` of lead.created (its documented `{lead:{...}}`), `data.lead_id` of every other lead event; no fallback between the two. */
function leadIdOf(event: { event: string; data: Record<string, unknown> }): string | undefined {
  const id =
    event.event === 'lead.created' ? (event.data['lead'] as { id?: string } | undefined)?.id : event.data['lead_id'];
  return typeof id === 'string' ? id : undefined;
}

/** Every lead has exactly one event id per kind, one activity entry per event, one decision. */
async function expectExactlyOnce(
  setup: Awaited<ReturnType<typeof setUp>>,
  messages: LeadCommandMessage[],
): Promise<void> {
  const { log, store, leads, tenant } = setup;
  const activity = new LeadActivityRepository(store);
  const events = (await readTopic(log, TOPICS.events)).flatMap((record) => parseLeadEvents(record.value));
  const decisions = (await readTopic(log, TOPICS.decisions)).map(
    (record) => JSON.parse(record.value) as { lead_id: string; outcome: string },
  );
  for (const message of messages) {
    const lead = await leads.findById(tenant, message.lead_id);
    expect(lead?.status).toBe('active');
    expect(lead?.applied_messages).toHaveLength(3);
    expect(lead?.outbox).toEqual([]);
    const mine = events.filter((event) => leadIdOf(event) === message.lead_id);
    const idsByKind = new Map<string, Set<string>>();
    for (const event of mine) idsByKind.set(event.event, new Set([...(idsByKind.get(event.event) ?? []), event.id]));
    expect(Object.fromEntries([...idsByKind].map(([kind, ids]) => [kind, ids.size]))).toEqual({
      'lead.created': 1,
      'lead.validated': 1,
      'lead.accepted': 1,
    });
    expect(
      new Set(decisions.filter((decision) => decision.lead_id === message.lead_id).map((decision) => decision.outcome)),
    ).toEqual(new Set(['accepted']));
    const entries = await activity.forLead(tenant, message.lead_id);
    // lead.accepted has no activity entry of its own (docs/api-conventions.md "Events").
    expect(entries.map((entry) => entry.event).sort()).toEqual(['lead.created', 'lead.validated']);
  }
  expect(
    await readTopic(log, TOPICS.unique).then((records) => new Set(records.map((record) => record.value)).size),
  ).toBe(messages.length);
}

/** Runs the whole pipeline over what each topic holds. */
async function runPipeline(setup: Awaited<ReturnType<typeof setUp>>, writer: BatchWriter): Promise<void> {
  const stages = setup.stages(writer);
  await stages.validate.handle(await readTopic(setup.log, TOPICS.submitted));
  await stages.dedup.handle(await readTopic(setup.log, TOPICS.validated));
  await stages.enrich.handle(await readTopic(setup.log, TOPICS.unique));
  await stages.activity.handle(await readTopic(setup.log, TOPICS.events));
}

/** The outbox writer over `store` and `log`, whose first produce fails as a crash would cut it. */
function outboxWriterFailingFirstProduce(store: DocumentStore, log: EventLog): BatchWriter {
  let failed = false;
  const flaky = new Proxy(log, {
    get(target, property) {
      if (property === 'produce') {
        return async (...args: Parameters<EventLog['produce']>) => {
          if (!failed) {
            failed = true;
            throw new Error('crash at produce');
          }
          return target.produce(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new OutboxBatchWriter(store, flaky);
}

/** A crash: the stage decides a batch and its commit dies at the injected point; nothing commits the consumer offset. */
async function crashDuring(stage: BatchStage, writer: BatchWriter, records: LogRecord[]): Promise<void> {
  const byPartition = new Map<number, LogRecord[]>();
  for (const record of records)
    byPartition.set(record.partition, [...(byPartition.get(record.partition) ?? []), record]);
  const [partition, batch] = [...byPartition][0]!;
  const { write, handled } = await stage.process(batch);
  await expect(
    writer.commit(write, {
      groupId: stage.name,
      topic: stage.topic,
      partition,
      nextOffset: Number(batch[handled - 1]!.offset) + 1,
    }),
  ).rejects.toThrow();
}

describe.each(pairs)('pipeline stages on %s', (_name, open) => {
  it('the same batch delivered twice changes nothing and produces nothing new', async () => {
    const setup = await setUp(open);
    const messages = await setup.submit(4);
    await runPipeline(setup, setup.writer);
    const versions = await Promise.all(
      messages.map(async (message) => (await setup.leads.findById(setup.tenant, message.lead_id))?.version),
    );
    const counts = {
      validated: (await readTopic(setup.log, TOPICS.validated)).length,
      events: (await readTopic(setup.log, TOPICS.events)).length,
    };
    await runPipeline(setup, setup.writer);
    expect(
      await Promise.all(
        messages.map(async (message) => (await setup.leads.findById(setup.tenant, message.lead_id))?.version),
      ),
    ).toEqual(versions);
    expect((await readTopic(setup.log, TOPICS.validated)).length).toBe(counts.validated);
    expect((await readTopic(setup.log, TOPICS.events)).length).toBe(counts.events);
    await expectExactlyOnce(setup, messages);
  });

  for (const point of ['documents', 'leads', 'produce', 'clear'] as const) {
    it(`a batch cut by a crash (${point}) is consumed again and everything exists exactly once`, async () => {
      const setup = await setUp(open);
      const messages = await setup.submit(4);
      const crashing = setup.faulty(point);
      // Validate (no documents but leads) and dedup (its decision log is a document write) both crash once.
      await crashDuring(
        validateStage({
          leads: setup.leads,
          organizations: setup.dal.organizations,
          customFields: new CustomFieldRepository(setup.store),
          validationRules: new ValidationRuleRepository(setup.store),
          config: uncachedConfig,
          mx: undefined,
        }),
        crashing,
        await readTopic(setup.log, TOPICS.submitted),
      );
      await setup.stages(setup.writer).validate.handle(await readTopic(setup.log, TOPICS.submitted));
      await crashDuring(
        dedupStage({
          leads: setup.leads,
          dedup: new DedupRepository(setup.store),
          vendors: setup.dal.vendors,
          config: uncachedConfig,
        }),
        setup.faulty(point),
        await readTopic(setup.log, TOPICS.validated),
      );
      // After the crash, the consumer reads the same records again.
      await runPipeline(setup, setup.writer);
      await expectExactlyOnce(setup, messages);
    });
  }

  it('the outbox sweeper produces outputs a crash left behind for a lead whose message never comes again', async () => {
    const setup = await setUp(open);
    // The outbox writer over this pair's store, its first produce cut by the crash. (The embedded
    // pair's own writer is one transaction and leaves nothing behind; its store takes the outbox
    // writer whenever the log is another engine, docs/decisions.md "Engine choice per port".)
    const [message] = await setup.submit(1);
    await crashDuring(
      validateStage({
        leads: setup.leads,
        organizations: setup.dal.organizations,
        customFields: new CustomFieldRepository(setup.store),
        validationRules: new ValidationRuleRepository(setup.store),
        config: uncachedConfig,
        mx: undefined,
      }),
      outboxWriterFailingFirstProduce(setup.store, setup.log),
      await readTopic(setup.log, TOPICS.submitted),
    );
    expect((await setup.leads.findById(setup.tenant, message!.lead_id))?.outbox.length).toBeGreaterThan(0);
    const later = new Date(Date.now() + 60_000);
    const sweeper = new OutboxSweeper({
      store: setup.store,
      log: setup.log,
      logger: pino({ level: 'silent' }),
      now: () => later,
    });
    expect(await sweeper.sweep()).toBe(1);
    expect(await sweeper.sweep()).toBe(0);
    expect((await setup.leads.findById(setup.tenant, message!.lead_id))?.outbox).toEqual([]);
    // The crashed produce may have sent some topics already: outputs go out at least once, with one message id.
    const validated = await readTopic(setup.log, TOPICS.validated);
    expect(validated.length).toBeGreaterThan(0);
    expect(new Set(validated.map((record) => (JSON.parse(record.value) as { message_id: string }).message_id))).toEqual(
      new Set([`${message!.message_id}>validate`]),
    );
  });

  it('the outbox sweeper produces a vendor event a crash left between the write and its produce', async () => {
    const setup = await setUp(open);
    const at = new Date();
    const event = (next: { id: string; enabled: boolean }) => [
      {
        topic: TOPICS.events,
        key: next.id,
        value: JSON.stringify({
          id: `evt_vendor_${next.id}`,
          event: next.enabled ? 'vendor.enabled' : 'vendor.disabled',
        }),
      },
    ];
    // The crash: the change and its event are written, the produce never happens.
    expect(await setup.dal.vendors.setEnabled(setup.tenant, setup.vendor.id, false, at, event)).toMatchObject({
      vendor: { id: setup.vendor.id, enabled: false },
      outbox: [{ topic: TOPICS.events, key: setup.vendor.id }],
    });
    const vendorEvents = async () =>
      (await readTopic(setup.log, TOPICS.events))
        .filter((record) => record.key === setup.vendor.id)
        .map((record) => JSON.parse(record.value) as { event: string });
    expect(await vendorEvents()).toEqual([]);
    const sweeper = new OutboxSweeper({
      store: setup.store,
      log: setup.log,
      logger: pino({ level: 'silent' }),
      now: () => new Date(at.getTime() + 60_000),
    });
    expect(await sweeper.sweep()).toBe(1);
    expect(await sweeper.sweep()).toBe(0);
    expect(await vendorEvents()).toEqual([{ id: `evt_vendor_${setup.vendor.id}`, event: 'vendor.disabled' }]);
  });
});
