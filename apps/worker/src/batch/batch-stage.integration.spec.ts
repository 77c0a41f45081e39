/**
 * Failures of a batch stage (docs/decisions.md "Ingestion pipeline", failures), on both engine
 * pairs: a transient failure of the store or the log is retried until it passes and never
 * dead-letters a valid lead; a record that fails the same way every time goes alone to
 * `<topic>.dlq`, and the records around it pass.
 */
import { createDal, CustomFieldRepository, LeadRepository, ValidationRuleRepository } from '@leadstream/dal';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import Database from 'better-sqlite3';
import { MongoNetworkError } from 'mongodb';
import { afterEach, describe, expect, it } from 'vitest';
import { TOPICS } from '../pipeline/outputs';
import { validateStage } from '../pipeline/validate.stage';
import { type EnginePair, enginePairs } from '../test-support/engine-pairs';
import { leadCommand } from '../test-support/lead-command';
import { driveStage } from '../test-support/stage-driver';
import { type BatchWriter, WriteConflictError } from './batch-write';
import { uncachedConfig } from './config-source';
import { isTransientError, Metrics } from '@leadstream/runtime';

/** leadstream_stage_retries_total as {"stage/reason": count}. */
async function retries(metrics: Metrics): Promise<Record<string, number>> {
  const metric = await metrics.registry.getSingleMetric('leadstream_stage_retries_total')?.get();
  return Object.fromEntries(
    (metric?.values ?? []).map((value) => [
      `${String(value.labels['stage'])}/${String(value.labels['reason'])}`,
      value.value,
    ]),
  );
}

/** Batches leadstream_stage_batch_duration_seconds observed, as {stage: count}. */
async function batchesTimed(metrics: Metrics): Promise<Record<string, number>> {
  const metric = await metrics.registry.getSingleMetric('leadstream_stage_batch_duration_seconds')?.get();
  return Object.fromEntries(
    (metric?.values ?? [])
      .filter(
        (value) => (value as { metricName?: string }).metricName === 'leadstream_stage_batch_duration_seconds_count',
      )
      .map((value) => [String(value.labels['stage']), value.value]),
  );
}

const opened: EnginePair[] = [];
afterEach(async () => {
  for (const pair of opened.splice(0)) await pair.close();
});

/** better-sqlite3's own error for a database another connection holds the write lock of. */
function sqliteBusy(): Error {
  return new Database.SqliteError('database is locked', 'SQLITE_BUSY');
}

/** The writer, failing its first `times` commits with the engine's own kind of transient error. */
function flaky(writer: BatchWriter, times: number, engine: string): BatchWriter & { failures: number } {
  const wrapped = {
    atomic: writer.atomic,
    failures: 0,
    async commit(...args: Parameters<BatchWriter['commit']>) {
      if (wrapped.failures < times) {
        wrapped.failures++;
        throw engine === 'embedded' ? sqliteBusy() : new MongoNetworkError('connection 4 to 127.0.0.1:27018 closed');
      }
      return writer.commit(...args);
    },
  };
  return wrapped;
}

describe.each(enginePairs('failures'))('batch stage failures on %s', (_name, open) => {
  async function setUp() {
    const pair = await open();
    opened.push(pair);
    const dal = createDal(pair.store);
    const organization = await dal.organizations.create({ name: 'Failing University' });
    const tenant = { organizationId: organization.id, environment: 'live' as const };
    const vendor = await dal.vendors.create(tenant, { name: 'Vendor', type: 'inquiry' });
    const leads = new LeadRepository(pair.store);
    const stage = validateStage({
      leads,
      organizations: dal.organizations,
      customFields: new CustomFieldRepository(pair.store),
      validationRules: new ValidationRuleRepository(pair.store),
      config: uncachedConfig,
      mx: undefined,
    });
    return { ...pair, tenant, vendor, leads, stage };
  }

  it('retries a transient failure until it passes and dead-letters nothing', async () => {
    const setup = await setUp();
    const messages = [
      leadCommand(setup.tenant.organizationId, setup.vendor.id),
      leadCommand(setup.tenant.organizationId, setup.vendor.id),
    ];
    await setup.log.produce(
      TOPICS.submitted,
      messages.map((message) => ({ key: message.lead_id, value: JSON.stringify(message) })),
    );
    const writer = flaky(setup.writer, 5, setup.log.engine);
    const metrics = new Metrics({ defaultMetrics: false });
    await driveStage(setup.stage, writer, { isTransient: isTransientError, metrics }).handle(
      await readTopic(setup.log, TOPICS.submitted),
    );
    expect(writer.failures).toBe(5);
    expect(await retries(metrics)).toEqual({ 'validate/transient': 5 });
    for (const message of messages)
      expect((await setup.leads.findById(setup.tenant, message.lead_id))?.status).toBe('new');
    expect(await readTopic(setup.log, `${TOPICS.submitted}.dlq`)).toHaveLength(0);
  });

  it('decides a batch again after a write conflict, waiting a short random time, and counts each retry', async () => {
    const setup = await setUp();
    const message = leadCommand(setup.tenant.organizationId, setup.vendor.id);
    await setup.log.produce(TOPICS.submitted, [{ key: message.lead_id, value: JSON.stringify(message) }]);
    let conflicts = 0;
    const writer: BatchWriter = {
      atomic: setup.writer.atomic,
      async commit(...args) {
        if (conflicts < 3) {
          conflicts++;
          throw new WriteConflictError([message.lead_id]);
        }
        return setup.writer.commit(...args);
      },
    };
    const metrics = new Metrics({ defaultMetrics: false });
    const waits: number[] = [];
    await driveStage(setup.stage, writer, { metrics, sleep: async (ms) => void waits.push(ms) }).handle(
      await readTopic(setup.log, TOPICS.submitted),
    );
    expect((await setup.leads.findById(setup.tenant, message.lead_id))?.applied_messages).toEqual([message.message_id]);
    expect(await retries(metrics)).toEqual({ 'validate/conflict': 3 });
    // One batch committed: timed once, under its stage, its conflicts included.
    expect(await batchesTimed(metrics)).toEqual({ validate: 1 });
    expect(waits).toHaveLength(3);
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(0);
    for (const ms of waits) expect(ms).toBeLessThanOrEqual(100);
    expect(await readTopic(setup.log, `${TOPICS.submitted}.dlq`)).toHaveLength(0);
  });

  it('dead-letters the one record that fails every time, alone, and lets the others pass', async () => {
    const setup = await setUp();
    const first = leadCommand(setup.tenant.organizationId, setup.vendor.id);
    // A second submission claiming the first one's lead id: deciding it fails every time.
    const poison = leadCommand(setup.tenant.organizationId, setup.vendor.id, { lead_id: first.lead_id });
    const last = leadCommand(setup.tenant.organizationId, setup.vendor.id);
    const notJson = { key: 'k', value: '{"truncated": ' };
    await setup.log.produce(
      TOPICS.submitted,
      [first, poison, last].map((message) => ({ key: 'same-key', value: JSON.stringify(message) })),
    );
    await setup.log.produce(TOPICS.submitted, [{ ...notJson, key: 'same-key' }]);
    await driveStage(setup.stage, setup.writer, { isTransient: isTransientError }).handle(
      await readTopic(setup.log, TOPICS.submitted),
    );
    for (const message of [first, last])
      expect((await setup.leads.findById(setup.tenant, message.lead_id))?.applied_messages).toEqual([
        message.message_id,
      ]);
    const letters = await readTopic(setup.log, `${TOPICS.submitted}.dlq`);
    expect(letters.map((letter) => letter.value).sort()).toEqual([JSON.stringify(poison), notJson.value].sort());
    expect(letters.find((letter) => letter.value === JSON.stringify(poison))?.headers['x-dlq-reason']).toContain(
      'exists already',
    );
    expect(letters.find((letter) => letter.value === notJson.value)?.headers['x-dlq-reason']).toContain(
      'not a lead command',
    );
  });
});
