/**
 * The intake chain (validate → dedup → enrich → route in one batch) on both engine pairs
 * (embedded; Kafka + FerretDB when infra is up): each lead is written once in its final state,
 * nothing goes to the topics inside the chain, dedup sees a lead decided earlier in the same
 * batch, and the split stages (one group each) reach the same states and decisions.
 */
import {
  createDal,
  CustomFieldRepository,
  DedupRepository,
  EnrichmentConfigReader,
  LeadActivityRepository,
  LeadRepository,
  RoutingConfigReader,
  RoutingCounterRepository,
  RoutingRuleRepository,
  RoutingSettingsRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import type { LeadRecord, TenantContext } from '@leadstream/domain';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { parseLeadEvents, parseLeadDecision, type LeadCommandMessage } from '@leadstream/schemas';
import { Metrics } from '@leadstream/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { uncachedConfig } from './config-source';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { activityStage } from '../pipeline/activity.stage';
import { dedupStage } from '../pipeline/dedup.stage';
import { enrichStage } from '../pipeline/enrich.stage';
import { TOPICS } from '../pipeline/outputs';
import { routeStage } from '../pipeline/route.stage';
import { validateStage } from '../pipeline/validate.stage';
import type { BatchWriter } from './batch-write';
import { chainLeadStages } from './stage-chain';

const pairs = enginePairs('chain');
const opened: EnginePair[] = [];
afterEach(async () => {
  for (const engines of opened.splice(0)) await engines.close();
});

async function setUp(open: () => Promise<EnginePair>) {
  const engines = await open();
  opened.push(engines);
  const { log, store } = engines;
  const dal = createDal(store);
  const organization = await dal.organizations.create({ name: 'Chained University' });
  const live: TenantContext = { organizationId: organization.id, environment: 'live' };
  const vendor = await dal.vendors.create(live, { name: 'Vendor', type: 'inquiry' });
  await store.collection('crm_connections').insertOne({
    _id: 'crm_sf',
    organization_id: organization.id,
    environment: 'live',
    enabled: true,
    created_at: new Date().toISOString(),
  });
  // Leads from "ads" go to the CRM; the others have no target.
  await new RoutingSettingsRepository(store).put(
    organization.id,
    { default_targets: [], when_unmatched: 'none' },
    new Date().toISOString(),
  );
  await new RoutingRuleRepository(store).create(
    organization.id,
    'rroute_ads',
    {
      name: 'Ads to Salesforce',
      description: null,
      priority: 0,
      enabled: true,
      conditions: { operator: 'AND', rules: [{ field: 'source', operator: 'equals', value: 'ads' }] },
      distribution: 'single',
      targets: [{ connection_id: 'crm_sf', owner: null, queue: null, weight: null }],
    },
    new Date().toISOString(),
  );
  const leads = new LeadRepository(store);
  const stages = {
    validate: validateStage({
      leads,
      organizations: dal.organizations,
      customFields: new CustomFieldRepository(store),
      validationRules: new ValidationRuleRepository(store),
      config: uncachedConfig,
      mx: undefined,
    }),
    dedup: dedupStage({ leads, dedup: new DedupRepository(store), vendors: dal.vendors, config: uncachedConfig }),
    enrich: enrichStage({ leads, enrichment: new EnrichmentConfigReader(store), config: uncachedConfig }),
    route: routeStage({
      leads,
      routing: new RoutingConfigReader(store),
      counters: new RoutingCounterRepository(store),
      config: uncachedConfig,
    }),
  };
  /** Every submission on one key, so they share a partition and a batch. */
  const submit = async (submissions: Array<Record<string, unknown>>): Promise<LeadCommandMessage[]> => {
    const messages = submissions.map((submission) =>
      leadCommand(organization.id, vendor.id, { submission: { first_name: 'Ada', ...submission } }),
    );
    await log.produce(
      TOPICS.submitted,
      messages.map((message) => ({ key: `live:${organization.id}:same`, value: JSON.stringify(message) })),
    );
    return messages;
  };
  const decisions = async () =>
    (await readTopic(log, TOPICS.decisions)).map((record) => parseLeadDecision(JSON.parse(record.value)));
  return { ...engines, live, leads, stages, submit, decisions };
}

/** What a lead's processing decided, without its ids and times. */
/** The lead an event is about: `data.lead.id` of lead.created (its documented `{lead:{...}}`), `data.lead_id` of every other lead event; no fallback between the two. */
function leadIdOf(event: { event: string; data: { lead_id?: string; lead?: { id?: string } } }): string | undefined {
  return event.event === 'lead.created' ? event.data.lead?.id : event.data.lead_id;
}

function outcomeOf(lead: LeadRecord | null) {
  return {
    status: lead?.status,
    validation_status: lead?.validation_status,
    dedup_status: lead?.dedup_status,
    enrichment_status: lead?.enrichment_status,
    crm_sync_status: lead?.crm_sync_status,
    targets: lead?.routing?.targets.map((target) => target.connection_id),
    duplicate: lead?.duplicate_of ? 'yes' : 'no',
  };
}

describe.each(pairs)('intake chain on %s', (_name, open) => {
  it('writes each lead once in its final state, decides a duplicate within the batch, and produces nothing inside the chain', async () => {
    const setup = await setUp(open);
    const messages = await setup.submit([
      { email: 'ada@example.edu', source: 'ads' },
      { email: 'ada@example.edu', source: 'ads' },
      { email: 'grace@example.edu', source: 'fair' },
      { email: 'not-an-email' },
    ]);
    const metrics = new Metrics({ defaultMetrics: false });
    const counted = async (name: string, label: string) =>
      Object.fromEntries(
        ((await metrics.registry.getSingleMetric(name)?.get())?.values ?? [])
          .filter((value) => !/_(bucket|sum)$/.test((value as { metricName?: string }).metricName ?? ''))
          .map((value) => [String(value.labels[label]), value.value]),
      );
    // The collections each commit writes, in order: one bulk write per collection for the batch.
    const committed: string[][] = [];
    const writer: BatchWriter = {
      atomic: setup.writer.atomic,
      commit: (write, position) => {
        committed.push(write.documents.map(({ collection, operations }) => `${collection}:${operations.length}`));
        return setup.writer.commit(write, position);
      },
    };
    const chain = driveStage(
      chainLeadStages([setup.stages.validate, setup.stages.dedup, setup.stages.enrich, setup.stages.route]),
      writer,
      { metrics },
    );
    const submitted = await readTopic(setup.log, TOPICS.submitted);
    expect(new Set(submitted.map((record) => record.partition)).size).toBe(1);
    await chain.handle(submitted);
    // Three leads passed validation, so dedup logged three decisions in one write; where the commit
    // is one transaction, the activity entries of the batch's events are one write too (elsewhere
    // the activity stage records them).
    const events = await readTopic(setup.log, TOPICS.events);
    const entries = await setup.store
      .collection(LeadActivityRepository.COLLECTION)
      .countDocuments({ organization_id: setup.live.organizationId });
    expect(committed).toEqual([
      [
        `${DedupRepository.LOG_COLLECTION}:3`,
        ...(setup.writer.atomic ? [`${LeadActivityRepository.COLLECTION}:${entries}`] : []),
      ],
    ]);
    if (setup.writer.atomic) expect(entries).toBeGreaterThan(4);

    // The same batch again (a redelivery) changes nothing and produces nothing new.
    await chain.handle(submitted);
    expect(
      (await Promise.all(messages.map((message) => setup.leads.findById(setup.live, message.lead_id)))).map(
        (lead) => lead?.version,
      ),
    ).toEqual([1, 1, 1, 1]);
    expect((await readTopic(setup.log, TOPICS.events)).length).toBe(events.length);
    expect((await setup.decisions()).length).toBe(4);
    // Counted once per decided lead; the chain's batches are timed under its head stage.
    expect(await counted('leadstream_lead_decisions_total', 'outcome')).toEqual({
      accepted: 2,
      duplicate: 1,
      invalid: 1,
    });
    expect(await counted('leadstream_stage_batch_duration_seconds', 'stage')).toEqual({ validate: 2 });
  });

  it('decides as the split stages do, one group and one write each', async () => {
    const chained = await setUp(open);
    const split = await setUp(open);
    const submissions = [
      { email: 'ada@example.edu', source: 'ads' },
      { email: 'ada@example.edu' },
      { email: 'lin@example.edu', source: 'fair' },
      { email: 'bad' },
    ];
    const chainedMessages = await chained.submit(submissions);
    const splitMessages = await split.submit(submissions);
    await driveStage(
      chainLeadStages([chained.stages.validate, chained.stages.dedup, chained.stages.enrich, chained.stages.route]),
      chained.writer,
    ).handle(await readTopic(chained.log, TOPICS.submitted));
    await driveStage(split.stages.validate, split.writer).handle(await readTopic(split.log, TOPICS.submitted));
    await driveStage(split.stages.dedup, split.writer).handle(await readTopic(split.log, TOPICS.validated));
    await driveStage(split.stages.enrich, split.writer).handle(await readTopic(split.log, TOPICS.unique));
    await driveStage(split.stages.route, split.writer).handle(await readTopic(split.log, TOPICS.enriched));
    const chainedLeads = await Promise.all(
      chainedMessages.map((message) => chained.leads.findById(chained.live, message.lead_id)),
    );
    const splitLeads = await Promise.all(
      splitMessages.map((message) => split.leads.findById(split.live, message.lead_id)),
    );
    expect(chainedLeads.map(outcomeOf)).toEqual(splitLeads.map(outcomeOf));
    expect(chainedLeads.map((lead) => lead?.status)).toEqual(['active', 'duplicate', 'active', 'rejected']);
    expect((await chained.decisions()).map((decision) => decision.outcome).sort()).toEqual(
      (await split.decisions()).map((decision) => decision.outcome).sort(),
    );
    // The split stages wrote the accepted leads once per stage; the chain once.
    expect(splitLeads[0]?.version).toBe(4);
    expect(chainedLeads[0]?.version).toBe(1);
  });
});

// The outbox writer's chain takes submissions as new leads without reading them first (a read is a
// round trip there); a redelivery finds them stored through the insert's duplicate key.
describe.each(pairs.filter(([name]) => name.includes('outbox')))(
  'intake chain on %s, leads taken as new',
  (_name, open) => {
    it('decides a redelivered batch again with its stored leads read: nothing written, produced or answered twice', async () => {
      const setup = await setUp(open);
      const messages = await setup.submit([
        { email: 'ada@example.edu', source: 'ads' },
        { email: 'grace@example.edu', source: 'fair' },
      ]);
      const stages = [setup.stages.validate, setup.stages.dedup, setup.stages.enrich, setup.stages.route] as const;
      const submitted = await readTopic(setup.log, TOPICS.submitted);
      const metrics = new Metrics({ defaultMetrics: false });
      const retries = async () =>
        ((await metrics.registry.getSingleMetric('leadstream_stage_retries_total')?.get())?.values ?? []).map(
          (value) => [value.labels['reason'], value.value],
        );
      await driveStage(chainLeadStages(stages, { assumeNewLeads: true }), setup.writer, { metrics }).handle(submitted);
      const stored = async () =>
        (await Promise.all(messages.map((message) => setup.leads.findById(setup.live, message.lead_id)))).map(
          (lead) => [lead?.version, lead?.status, lead?.crm_sync_status],
        );
      expect(await stored()).toEqual([
        [1, 'active', 'pending'],
        [1, 'active', 'not_applicable'],
      ]);
      expect(await retries()).toEqual([]);
      const events = (await readTopic(setup.log, TOPICS.events)).length;
      const routed = (await readTopic(setup.log, TOPICS.routed)).length;

      // The same records again, as a process started after a crash before the offset commit gets them.
      await driveStage(chainLeadStages(stages, { assumeNewLeads: true }), setup.writer, { metrics }).handle(submitted);
      expect(await retries()).toEqual([['conflict', 1]]);
      expect(await stored()).toEqual([
        [1, 'active', 'pending'],
        [1, 'active', 'not_applicable'],
      ]);
      expect((await readTopic(setup.log, TOPICS.events)).length).toBe(events);
      expect((await readTopic(setup.log, TOPICS.routed)).length).toBe(routed);
      expect((await setup.decisions()).length).toBe(2);
    });
  },
);

// A writer that stores documents before the leads (the outbox writer) can be cut between the two;
// the embedded writer commits in one transaction and cannot.
describe.each(pairs.filter(([name]) => name.includes('outbox')))(
  'intake chain on %s, cut between documents and leads',
  (_name, open) => {
    it('keeps no activity entry of an event that a commit cut after its documents never produced', async () => {
      const setup = await setUp(open);
      const messages = await setup.submit([{ email: 'ada@example.edu' }, { email: 'lin@example.edu' }]);
      const chain = chainLeadStages([
        setup.stages.validate,
        setup.stages.dedup,
        setup.stages.enrich,
        setup.stages.route,
      ]);
      // The first commit fails after the documents are written and before the leads; the batch is
      // then decided again, with new event ids.
      const cut = setup.faulty('leads');
      let commits = 0;
      const cutOnce: BatchWriter = {
        atomic: setup.writer.atomic,
        commit: (write, position) => (commits++ === 0 ? cut : setup.writer).commit(write, position),
      };
      await driveStage(chain, cutOnce).handle(await readTopic(setup.log, TOPICS.submitted));
      await driveStage(activityStage(), setup.writer).handle(await readTopic(setup.log, TOPICS.events));
      const events = (await readTopic(setup.log, TOPICS.events)).flatMap((record) => parseLeadEvents(record.value));
      const activity = new LeadActivityRepository(setup.store);
      for (const message of messages) {
        // Every event of the lead but lead.accepted, which the activity log does not list.
        const produced = events
          .filter((event) => leadIdOf(event) === message.lead_id && event.event !== 'lead.accepted')
          .map((event) => event.id);
        expect(produced.length).toBeGreaterThanOrEqual(3);
        expect((await activity.forLead(setup.live, message.lead_id)).map((entry) => entry._id).sort()).toEqual(
          produced.sort(),
        );
      }
    });
  },
);
