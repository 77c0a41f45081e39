/**
 * The route stage on both engine pairs (embedded; Kafka + FerretDB when infra is up): leads that
 * passed validate, dedup and enrich are routed by the organization's rules, the route is stored on
 * the lead, lead.routed reaches the activity log, and live leads go to leads.routed in the shape
 * crm-sync builds against. The same batch twice, or a batch cut by a crash, routes each lead once.
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
import type { LeadRecord, LeadRoute, RoutingRuleSettings, TenantContext } from '@leadstream/domain';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { parseLeadEvents, parseLeadRouted, type LeadCommandMessage, type LeadRoutedMessage } from '@leadstream/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchWriter } from '../batch/batch-write';
import { uncachedConfig } from '../batch/config-source';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { activityStage } from './activity.stage';
import { dedupStage } from './dedup.stage';
import { enrichStage } from './enrich.stage';
import { TOPICS } from './outputs';
import { routeStage } from './route.stage';
import { validateStage } from './validate.stage';

const pairs = enginePairs('route');
const opened: EnginePair[] = [];
afterEach(async () => {
  for (const engines of opened.splice(0)) await engines.close();
});

const rule = (
  settings: Partial<RoutingRuleSettings> & Pick<RoutingRuleSettings, 'name' | 'targets'>,
): RoutingRuleSettings => ({
  description: null,
  priority: 0,
  enabled: true,
  conditions: { operator: 'AND', rules: [] },
  distribution: 'single',
  ...settings,
});
const target = (connection: string, owner: string | null = null) => ({
  connection_id: connection,
  owner,
  queue: null,
  weight: null,
});

async function setUp(open: () => Promise<EnginePair>) {
  const engines = await open();
  opened.push(engines);
  const { log, store } = engines;
  const dal = createDal(store);
  const organization = await dal.organizations.create({ name: 'Routed University' });
  const live: TenantContext = { organizationId: organization.id, environment: 'live' };
  const sandbox: TenantContext = { organizationId: organization.id, environment: 'sandbox' };
  const vendor = await dal.vendors.create(live, { name: 'Vendor', type: 'inquiry' });
  const sandboxVendor = await dal.vendors.create(sandbox, { name: 'Vendor', type: 'inquiry' });
  for (const [id, environment] of [
    ['crm_sf', 'live'],
    ['crm_hs', 'live'],
    ['crm_test', 'sandbox'],
  ] as const) {
    await store.collection('crm_connections').insertOne({
      _id: id,
      organization_id: organization.id,
      environment,
      enabled: true,
      created_at: new Date().toISOString(),
    });
  }
  const leads = new LeadRepository(store);
  const rules = new RoutingRuleRepository(store);
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
    route: driveStage(
      routeStage({
        leads,
        routing: new RoutingConfigReader(store),
        counters: new RoutingCounterRepository(store),
        config: uncachedConfig,
      }),
      writer,
    ),
    activity: driveStage(activityStage(), writer),
  });
  const submit = async (
    submissions: Array<Record<string, unknown>>,
    environment: 'live' | 'sandbox' = 'live',
  ): Promise<LeadCommandMessage[]> => {
    const messages = submissions.map((submission, index) =>
      leadCommand(organization.id, environment === 'live' ? vendor.id : sandboxVendor.id, {
        environment,
        submission: {
          email: `lead${index}.${Math.random().toString(36).slice(2, 8)}@example.edu`,
          first_name: 'Ada',
          ...submission,
        },
      }),
    );
    await log.produce(
      TOPICS.submitted,
      messages.map((message) => ({
        key: `${environment}:${organization.id}:${message.lead_id}`,
        value: JSON.stringify(message),
      })),
    );
    return messages;
  };
  /** Validate, dedup and enrich everything submitted: leads.enriched then holds the route stage's input. */
  const upToRoute = async (writer: BatchWriter = engines.writer) => {
    const run = stages(writer);
    await run.validate.handle(await readTopic(log, TOPICS.submitted));
    await run.dedup.handle(await readTopic(log, TOPICS.validated));
    await run.enrich.handle(await readTopic(log, TOPICS.unique));
  };
  const routed = async (): Promise<LeadRoutedMessage[]> =>
    (await readTopic(log, TOPICS.routed)).map((record) => parseLeadRouted(JSON.parse(record.value)));
  const routedEvents = async () =>
    (await readTopic(log, TOPICS.events))
      .flatMap((record) => parseLeadEvents(record.value))
      .filter((event) => event.event === 'lead.routed');
  return {
    ...engines,
    dal,
    live,
    sandbox,
    leads,
    rules,
    stages,
    submit,
    upToRoute,
    routed,
    routedEvents,
    organizationId: organization.id,
  };
}

describe.each(pairs)('route stage on %s', (_name, open) => {
  it('routes each lead by its first matching rule, stores the route, records lead.routed and hands live leads to crm-sync', async () => {
    const setup = await setUp(open);
    const at = new Date().toISOString();
    const nursing = await setup.rules.create(
      setup.organizationId,
      'rroute_nursing',
      rule({
        name: 'Nursing',
        priority: 1,
        conditions: { operator: 'AND', rules: [{ field: 'program_interest', operator: 'contains', value: 'nursing' }] },
        targets: [target('crm_hs')],
      }),
      at,
    );
    const fair = await setup.rules.create(
      setup.organizationId,
      'rroute_fair',
      rule({
        name: 'Fair',
        priority: 2,
        conditions: { operator: 'AND', rules: [{ field: 'utm_source', operator: 'equals', value: 'fair' }] },
        targets: [target('crm_sf', 'ana'), target('crm_sf', 'ben')],
        distribution: 'round_robin',
      }),
      at,
    );
    const messages = await setup.submit([
      { program_interest: 'BSc Nursing', utm_source: 'fair' },
      { utm_source: 'fair' },
      { utm_source: 'fair' },
      { utm_source: 'fair' },
      { utm_source: 'fair' },
      { utm_source: 'web' },
    ]);
    await setup.upToRoute();
    await setup.stages(setup.writer).route.handle(await readTopic(setup.log, TOPICS.enriched));
    await setup.stages(setup.writer).activity.handle(await readTopic(setup.log, TOPICS.events));

    const routes = await Promise.all(
      messages.map(async (message) => (await setup.leads.findById(setup.live, message.lead_id))?.routing),
    );
    expect(routes[0]).toEqual({
      rule_id: nursing.id,
      reason: 'rule',
      targets: [{ connection_id: 'crm_hs', owner: null, queue: null }],
      position: null,
      routed_at: expect.any(String),
    });
    // Four leads of the round-robin rule: positions 0-3 once each, so each owner twice.
    const rotation = routes.slice(1, 5) as LeadRoute[];
    expect(rotation.every((route) => route.rule_id === fair.id)).toBe(true);
    expect(rotation.map((route) => route.position).sort()).toEqual([0, 1, 2, 3]);
    expect(rotation.map((route) => route.targets[0]!.owner).sort()).toEqual(['ana', 'ana', 'ben', 'ben']);
    for (const route of rotation) expect(route.targets[0]!.owner).toBe(route.position! % 2 === 0 ? 'ana' : 'ben');
    // No rule, no default: every enabled live connection.
    expect(routes[5]).toMatchObject({
      rule_id: null,
      reason: 'all_connections',
      targets: [{ connection_id: 'crm_sf' }, { connection_id: 'crm_hs' }].sort((a, b) =>
        a.connection_id.localeCompare(b.connection_id),
      ),
    });

    const handed = await setup.routed();
    expect(handed.map((message) => message.lead_id).sort()).toEqual(messages.map((message) => message.lead_id).sort());
    const first = handed.find((message) => message.lead_id === messages[0]!.lead_id)!;
    expect(first).toMatchObject({
      schema_version: 1,
      message_id: expect.stringMatching(/>validate>dedup>enrich>route$/),
      correlation_id: messages[0]!.correlation_id,
      organization_id: setup.organizationId,
      environment: 'live',
      vendor_id: messages[0]!.vendor_id,
      route: {
        rule_id: nursing.id,
        reason: 'rule',
        targets: [{ connection_id: 'crm_hs', owner: null, queue: null }],
        routed_at: routes[0]!.routed_at,
      },
    });

    const activity = new LeadActivityRepository(setup.store);
    for (const [index, message] of messages.entries()) {
      const entries = (await activity.forLead(setup.live, message.lead_id)).filter(
        (entry) => entry.event === 'lead.routed',
      );
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        description: 'Lead routed',
        metadata: { rule_id: routes[index]!.rule_id, reason: routes[index]!.reason, targets: routes[index]!.targets },
      });
    }
  });

  it('the same batch twice routes each lead once: one route, one lead.routed, one leads.routed, no turn taken', async () => {
    const setup = await setUp(open);
    await setup.rules.create(
      setup.organizationId,
      'rroute_rr',
      rule({
        name: 'Everyone',
        targets: [target('crm_sf', 'ana'), target('crm_sf', 'ben'), target('crm_sf', 'cy')],
        distribution: 'round_robin',
      }),
      new Date().toISOString(),
    );
    const messages = await setup.submit([{}, {}, {}]);
    await setup.upToRoute();
    const enriched = await readTopic(setup.log, TOPICS.enriched);
    await setup.stages(setup.writer).route.handle(enriched);
    const before = await Promise.all(
      messages.map(async (message) => (await setup.leads.findById(setup.live, message.lead_id))!),
    );
    // Redelivered, and within one batch twice over.
    await setup.stages(setup.writer).route.handle([...enriched, ...enriched]);
    const after = await Promise.all(
      messages.map(async (message) => (await setup.leads.findById(setup.live, message.lead_id))!),
    );
    expect(after.map((lead) => [lead.version, lead.routing])).toEqual(
      before.map((lead) => [lead.version, lead.routing]),
    );
    expect((await setup.routed()).length).toBe(3);
    expect((await setup.routedEvents()).length).toBe(3);
    expect(await new RoutingCounterRepository(setup.store).peek(setup.live, 'rroute_rr')).toBe(3);
  });

  it('a batch cut by a crash is routed again with one route per lead, and whatever went out names that route', async () => {
    const setup = await setUp(open);
    await setup.rules.create(
      setup.organizationId,
      'rroute_rr',
      rule({
        name: 'Everyone',
        targets: [target('crm_sf', 'ana'), target('crm_hs', 'ben')],
        distribution: 'round_robin',
      }),
      new Date().toISOString(),
    );
    const messages = await setup.submit([{}, {}, {}, {}]);
    await setup.upToRoute();
    const enriched = await readTopic(setup.log, TOPICS.enriched);
    for (const point of ['leads', 'produce'] as const) {
      await setup
        .stages(setup.faulty(point))
        .route.handle(enriched)
        .catch(() => undefined);
    }
    await setup.stages(setup.writer).route.handle(enriched);
    const stored = new Map<string, LeadRoute>();
    for (const message of messages)
      stored.set(message.lead_id, (await setup.leads.findById(setup.live, message.lead_id))!.routing!);
    expect(new Set([...stored.values()].map((route) => route.position)).size).toBe(4);
    // Outputs go out at least once (the outbox), always with the stored route and one message id per lead.
    const handed = await setup.routed();
    expect(new Set(handed.map((message) => message.lead_id))).toEqual(new Set(stored.keys()));
    for (const message of handed) expect(message.route.targets).toEqual(stored.get(message.lead_id)!.targets);
    expect(new Set(handed.map((message) => message.message_id)).size).toBe(4);
  });

  it('routes sandbox leads (so rules can be tried) but never hands them to crm-sync', async () => {
    const setup = await setUp(open);
    await new RoutingSettingsRepository(setup.store).put(
      setup.organizationId,
      { default_targets: [], when_unmatched: 'all_connections' },
      new Date().toISOString(),
    );
    const [message] = await setup.submit([{}], 'sandbox');
    await setup.upToRoute();
    await setup.stages(setup.writer).route.handle(await readTopic(setup.log, TOPICS.enriched));
    // The sandbox's own connections, never the live ones.
    expect((await setup.leads.findById(setup.sandbox, message!.lead_id))?.routing).toMatchObject({
      reason: 'all_connections',
      targets: [{ connection_id: 'crm_test' }],
    });
    expect(await setup.routedEvents()).toHaveLength(1);
    expect(await setup.routed()).toEqual([]);
  });

  it('leaves a lead deleted since enrichment unrouted', async () => {
    const setup = await setUp(open);
    const [message] = await setup.submit([{}]);
    await setup.upToRoute();
    await setup.store
      .collection('leads')
      .updateOne(
        { _id: message!.lead_id, organization_id: setup.organizationId, environment: 'live' },
        { $set: { deleted_at: new Date().toISOString() } },
      );
    await setup.stages(setup.writer).route.handle(await readTopic(setup.log, TOPICS.enriched));
    // The stored document (reads of leads skip deleted ones): still there, deleted, with no route.
    const stored = await setup.store.collection<LeadRecord>('leads').findOne({ _id: message!.lead_id });
    expect(stored).toMatchObject({ _id: message!.lead_id, deleted_at: expect.any(String) });
    expect(stored).not.toHaveProperty('routing');
    expect(await setup.routed()).toEqual([]);
    expect(await setup.routedEvents()).toEqual([]);
  });

  it('keeps a lead unrouted when told so: not applicable to CRM sync at once, and never handed to crm-sync', async () => {
    const setup = await setUp(open);
    await new RoutingSettingsRepository(setup.store).put(
      setup.organizationId,
      { default_targets: [], when_unmatched: 'none' },
      new Date().toISOString(),
    );
    const [message] = await setup.submit([{}]);
    await setup.upToRoute();
    await setup.stages(setup.writer).route.handle(await readTopic(setup.log, TOPICS.enriched));
    const lead = await setup.leads.findById(setup.live, message!.lead_id);
    expect(lead?.routing).toMatchObject({ rule_id: null, reason: 'none', targets: [] });
    expect(lead?.crm_sync_status).toBe('not_applicable');
    expect(await setup.routed()).toEqual([]);
    expect((await setup.routedEvents()).map((event) => event.data)).toEqual([
      { lead_id: message!.lead_id, rule_id: null, reason: 'none', targets: [], routed_at: expect.any(String) },
    ]);
  });
});
