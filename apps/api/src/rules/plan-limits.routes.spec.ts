/**
 * Plan limits on an organization's rules over real HTTP (docs/enrichment-rules.md "Plan limits"),
 * on the embedded store and, when infra is up, on FerretDB: creating one record past the limit of
 * the organization's plan is refused with 422 PLAN_LIMIT_REACHED naming the limit, the count and
 * the plan, and nothing is stored; an import that would cross the limit stores none of its rules;
 * lookup mappings past the plan's rows per table are refused on create and on replacement.
 * Counts up to the boundary are seeded through the repositories (or an import) to keep the suite
 * fast; the boundary itself is always crossed through the API.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CalculatedFieldRepository,
  EnrichmentRuleRepository,
  LookupTableRepository,
  RoutingRuleRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { TOPICS } from '@leadstream/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer, UserApi } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

const REPOSITORIES = [
  EnrichmentRuleRepository,
  LookupTableRepository,
  CalculatedFieldRepository,
  ValidationRuleRepository,
  RoutingRuleRepository,
];
const AT = '2026-01-01T00:00:00.000Z';

/** The documented limits of the education plan (docs/enrichment-rules.md "Plan limits"). */
const EDUCATION = {
  enrichmentRules: 300,
  routingRules: 200,
  validationRules: 200,
  calculatedFields: 100,
  lookupTables: 20,
  lookupRows: 5_000,
};

interface Engine {
  open(): Promise<{ store?: DocumentStore; cleanup(): Promise<void> }>;
}

const mongo = lookupInfra('MONGODB_URI');

/** FerretDB, a database of its own per run, dropped at the end. */
function ferretDb(uri: string): Engine {
  return {
    open: async () => {
      const dbName = `leadstream_plan_limits_${randomBytes(4).toString('hex')}`;
      const store = await openMongoStore({ uri, dbName });
      return {
        store,
        cleanup: async () => {
          await store.close();
          const client = new MongoClient(uri);
          try {
            await client.connect();
            await client.db(dbName).dropDatabase();
          } finally {
            await client.close();
          }
        },
      };
    },
  };
}

/** The embedded store always, FerretDB when the infra is up (`npm run infra:up`), as every suite on both engine sets. */
const engines: Array<[string, Engine]> = [
  ['the embedded store', { open: async () => ({ cleanup: async () => undefined }) }],
  ...(mongo.value ? [['FerretDB', ferretDb(mongo.value)] as [string, Engine]] : []),
];

const rule = (index: number) => ({
  name: `Rule ${index}`,
  priority: index,
  conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
  actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: `t${index}` }],
});
const rulesDocument = (count: number, from = 0) => ({
  format: 'leadstream.enrichment-rules',
  version: 1,
  exported_at: AT,
  rules: Array.from({ length: count }, (_, index) => ({ ...rule(from + index), id: `rule_old_${from + index}` })),
});
const mappings = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, `v${index}`]));

type Answer = { status: number; body: Record<string, unknown> };
const errorOf = (answer: Answer) =>
  answer.body['error'] as { code: string; message: string; details?: Array<{ field: string; message: string }> };
const listed = async (api: UserApi, path: string) => ((await api.call('GET', path)).body['data'] as unknown[]).length;

describe.each(engines)('plan limits on %s', (name, engine) => {
  let server: ApiTestServer;
  let cleanup: () => Promise<void> = async () => undefined;
  let owner: Awaited<ReturnType<typeof UserApi.owner>>;

  beforeAll(async () => {
    const opened = await engine.open();
    cleanup = opened.cleanup;
    server = await startApiTestServer({
      dir: mkdtempSync(join(tmpdir(), 'leadstream-plan-limits-')),
      mailer: new CapturingMailer(),
      topics: [TOPICS.calculationRequests, TOPICS.configChanged],
      repositories: REPOSITORIES,
      ...(opened.store ? { store: opened.store } : {}),
    });
  });

  afterAll(async () => {
    await server?.close();
    await cleanup();
  });

  async function newOwner(): Promise<Awaited<ReturnType<typeof UserApi.owner>>> {
    return UserApi.owner(server.url, `limits.${randomUUID().slice(0, 8)}@example.edu`, 'Limits College');
  }

  /** The limit answer: 422 PLAN_LIMIT_REACHED, one detail on `field` naming the limit, the count and the plan. */
  function expectLimit(answer: Answer, field: string, words: RegExp[]): void {
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(422);
    const error = errorOf(answer);
    expect(error.code).toBe('PLAN_LIMIT_REACHED');
    expect(error.details?.map((detail) => detail.field)).toEqual([field]);
    for (const word of words) expect(error.details?.[0]?.message).toMatch(word);
  }

  it(`refuses the enrichment rule past the education plan's ${EDUCATION.enrichmentRules} and stores nothing (${name})`, async () => {
    owner = await newOwner();
    const imported = await owner.call('POST', '/api/enrichment/rules/import', rulesDocument(EDUCATION.enrichmentRules));
    expect(imported.status, JSON.stringify(imported.body).slice(0, 500)).toBe(201);
    expect(await listed(owner, '/api/enrichment/rules')).toBe(EDUCATION.enrichmentRules);

    const refused = await owner.call('POST', '/api/enrichment/rules', rule(1_000));
    expectLimit(refused, 'enrichment_rules', [/at most 300/, /education plan/, /has 300/]);
    expect(errorOf(refused).message).toBe(
      'Plan limit reached: the education plan allows at most 300 enrichment rules per organization',
    );
    expect(await listed(owner, '/api/enrichment/rules')).toBe(EDUCATION.enrichmentRules);
  });

  it('refuses a whole import that would cross the limit, storing none of its rules', async () => {
    const importer = await newOwner();
    expect((await importer.call('POST', '/api/enrichment/rules/import', rulesDocument(250))).status).toBe(201);
    const before = (await importer.call('GET', '/api/enrichment/rules')).body['data'];

    const crossing = await importer.call('POST', '/api/enrichment/rules/import', rulesDocument(51, 250));
    expectLimit(crossing, 'enrichment_rules', [/at most 300/, /education plan/, /has 250/, /adds 51/]);
    expect((await importer.call('GET', '/api/enrichment/rules')).body['data']).toEqual(before);

    // Exactly up to the limit is allowed.
    expect((await importer.call('POST', '/api/enrichment/rules/import', rulesDocument(50, 250))).status).toBe(201);
    expect(await listed(importer, '/api/enrichment/rules')).toBe(300);
  });

  it('lets an enterprise organization go past the education limits', async () => {
    const enterprise = await newOwner();
    await server.store
      .collection('organizations')
      .updateOne({ _id: enterprise.organizationId }, { $set: { plan: 'enterprise' } });
    expect(
      (await enterprise.call('POST', '/api/enrichment/rules/import', rulesDocument(EDUCATION.enrichmentRules))).status,
    ).toBe(201);
    const created = await enterprise.call('POST', '/api/enrichment/rules', rule(301));
    expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
    expect(await listed(enterprise, '/api/enrichment/rules')).toBe(EDUCATION.enrichmentRules + 1);
  });

  it('refuses lookup mappings past the rows per table, on create and on replacement', async () => {
    const tables = await newOwner();
    const tooMany = await tables.call('POST', '/api/enrichment/lookup-tables', {
      name: 'zips',
      mappings: mappings(EDUCATION.lookupRows + 1),
    });
    expectLimit(tooMany, 'mappings', [/at most 5000/, /education plan/, /5001/]);
    expect(await listed(tables, '/api/enrichment/lookup-tables')).toBe(0);

    const created = await tables.call('POST', '/api/enrichment/lookup-tables', {
      name: 'zips',
      mappings: mappings(EDUCATION.lookupRows),
    });
    expect(created.status).toBe(201);
    const id = String((created.body['data'] as { id: string }).id);
    const replaced = await tables.call('PATCH', `/api/enrichment/lookup-tables/${id}`, {
      mappings: mappings(EDUCATION.lookupRows + 1),
    });
    expectLimit(replaced, 'mappings', [/at most 5000/, /education plan/, /5001/]);
    const stored = (await tables.call('GET', `/api/enrichment/lookup-tables/${id}`)).body['data'] as {
      mappings: Record<string, string>;
    };
    expect(Object.keys(stored.mappings)).toHaveLength(EDUCATION.lookupRows);
  });

  it(`refuses the lookup table past the education plan's ${EDUCATION.lookupTables}`, async () => {
    const tables = await newOwner();
    for (let index = 0; index < EDUCATION.lookupTables; index++) {
      expect(
        (await tables.call('POST', '/api/enrichment/lookup-tables', { name: `table_${index}`, mappings: { a: 'b' } }))
          .status,
      ).toBe(201);
    }
    const refused = await tables.call('POST', '/api/enrichment/lookup-tables', {
      name: 'one_more',
      mappings: { a: 'b' },
    });
    expectLimit(refused, 'lookup_tables', [/at most 20/, /education plan/, /has 20/]);
    expect(await listed(tables, '/api/enrichment/lookup-tables')).toBe(EDUCATION.lookupTables);
  });

  it('refuses the validation rule, calculated field and routing rule past their limits', async () => {
    const org = await newOwner();
    const ids = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}_${index}`);
    await new ValidationRuleRepository(server.store).createMany(
      org.organizationId,
      ids(EDUCATION.validationRules, 'vrule').map((id, index) => ({
        id,
        settings: {
          name: `V${index}`,
          field: 'first_name',
          rule_type: 'required',
          condition: 'present',
          value: null,
          action: 'warn',
          message: 'm',
          priority: index,
          enabled: true,
        },
      })),
      AT,
    );
    await new CalculatedFieldRepository(server.store).createMany(
      org.organizationId,
      ids(EDUCATION.calculatedFields, 'calc').map((id, index) => ({
        id,
        settings: {
          name: `field_${index}`,
          label: `F${index}`,
          formula: '{{first_name}}',
          type: 'text',
          recalculate_on_change: false,
          description: null,
        },
      })),
      AT,
    );
    await new RoutingRuleRepository(server.store).createMany(
      org.organizationId,
      ids(EDUCATION.routingRules, 'rroute').map((id, index) => ({
        id,
        settings: {
          name: `R${index}`,
          description: null,
          priority: index,
          enabled: true,
          conditions: { operator: 'AND' as const, rules: [{ field: 'email', operator: 'is_not_empty' as const }] },
          distribution: 'single' as const,
          targets: [{ connection_id: 'crm_a', owner: null, queue: null, weight: null }],
        },
      })),
      AT,
    );

    const validation = await org.call('POST', '/api/validation', {
      name: 'One more',
      field: 'first_name',
      rule_type: 'required',
      condition: 'present',
      action: 'warn',
      message: 'first name missing',
      priority: 1,
    });
    expectLimit(validation, 'validation_rules', [/at most 200/, /education plan/, /has 200/]);
    expect(await listed(org, '/api/validation')).toBe(EDUCATION.validationRules);

    const field = await org.call('POST', '/api/calculated-fields', {
      name: 'one_more',
      label: 'One more',
      formula: '{{last_name}}',
      type: 'text',
    });
    expectLimit(field, 'calculated_fields', [/at most 100/, /education plan/, /has 100/]);
    expect(await listed(org, '/api/calculated-fields')).toBe(EDUCATION.calculatedFields);

    await server.store.collection('crm_connections').insertOne({
      _id: `crm_${randomUUID().slice(0, 8)}`,
      organization_id: org.organizationId,
      environment: 'live',
      name: 'CRM',
      type: 'webhook_json',
      enabled: true,
      created_at: AT,
    });
    const connection = (
      (await server.store.collection('crm_connections').find({ organization_id: org.organizationId })) as Array<{
        _id: string;
      }>
    )[0]!._id;
    const routing = await org.call('POST', '/api/routing/rules', {
      name: 'One more',
      priority: 1,
      targets: [{ connection_id: connection }],
    });
    expectLimit(routing, 'routing_rules', [/at most 200/, /education plan/, /has 200/]);
    expect(await listed(org, '/api/routing/rules')).toBe(EDUCATION.routingRules);
  });
});
