/**
 * Free-form JSON in an organization's configuration on a MongoDB-protocol server (FerretDB in our
 * infra), which refuses keys with '.' or a leading '$' and lists directly inside lists. Found by
 * Schemathesis as 500s: what the API accepts on the embedded store it must accept here and give
 * back unchanged (lookup keys like "St. Louis", webhook payload keys), and what becomes a lead's
 * value must be refused at the edge as a lead's custom field is. Skips with a printed reason when
 * no server is configured (README.md "Tests").
 */
import { randomBytes } from 'node:crypto';
import { CustomFieldRepository, EnrichmentRuleRepository, LookupTableRepository } from '@leadstream/dal';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CapturingMailer,
  dataOf,
  startAccountsServer,
  UserApi,
  type AccountsTestServer,
} from './accounts/accounts.test-support';

const infra = lookupInfra('MONGODB_URI');
const dbName = `leadstream_free_json_${randomBytes(4).toString('hex')}`;

describe.skipIf(!infra.value)('free-form JSON in configuration on a MongoDB-protocol server', () => {
  let store: DocumentStore;
  let server: AccountsTestServer;
  let owner: UserApi;

  beforeAll(async () => {
    store = await openMongoStore({ uri: infra.value!, dbName });
    for (const repository of [CustomFieldRepository, EnrichmentRuleRepository, LookupTableRepository])
      await repository.ensureIndexes(store);
    server = await startAccountsServer({ store, mailer: new CapturingMailer() });
    owner = await UserApi.owner(server.url, 'json.fer@college.edu', 'JSON Ferret');
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    const client = new MongoClient(infra.value!);
    try {
      await client.connect();
      await client.db(dbName).dropDatabase();
    } finally {
      await client.close();
    }
  });

  it('keeps lookup keys with dots and a leading $, and gives them back unchanged', async () => {
    const mappings = { 'St. Louis': 'MO', '$5 fee': 'fee', 'a.b.c': 'x', plain: 'y' };
    const created = await owner.call('POST', '/api/enrichment/lookup-tables', { name: 'cities', mappings });
    expect(created.status).toBe(201);
    const id = String(dataOf(created)['id']);
    expect(dataOf(await owner.call('GET', `/api/enrichment/lookup-tables/${id}`))['mappings']).toEqual(mappings);
    const changed = { 'Washington D.C.': 'DC' };
    expect((await owner.call('PATCH', `/api/enrichment/lookup-tables/${id}`, { mappings: changed })).status).toBe(200);
    expect(dataOf(await owner.call('GET', `/api/enrichment/lookup-tables/${id}`))['mappings']).toEqual(changed);
  });

  it('keeps a webhook action payload with such keys and lists in lists', async () => {
    const payload = { 'lead.email': '{{email}}', $schema: 'v1', matrix: [[1, 2], [3]] };
    // A public address written as one: a webhook URL's host is resolved when the rule is saved.
    const rule = {
      name: 'Notify',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
      actions: [{ type: 'webhook', url: 'https://93.184.215.14/x', method: 'POST', payload }],
    };
    const created = await owner.call('POST', '/api/enrichment/rules', rule);
    expect(created.status).toBe(201);
    const shown = dataOf(await owner.call('GET', `/api/enrichment/rules/${String(dataOf(created)['id'])}`));
    expect(shown['actions']).toEqual(rule.actions);
  });

  it('refuses a custom field default or allowed value a lead could not hold, as it refuses such a lead', async () => {
    const cases = [
      { name: 'grid', type: 'array', default_value: [[1]] },
      { name: 'meta', type: 'object', default_value: { 'a.b': 1 } },
      { name: 'dollar', type: 'object', default_value: { nested: { $x: 1 } } },
      { name: 'choice', type: 'array', validation: { enum: [[['a']]] } },
    ];
    for (const field of cases) {
      const response = await owner.call('POST', '/api/enrichment/custom-fields', field);
      expect(response, field.name).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
    }
    expect(
      (
        await owner.call('POST', '/api/enrichment/custom-fields', {
          name: 'tags',
          type: 'array',
          default_value: ['a', { 'b c': [1] }],
        })
      ).status,
    ).toBe(201);
  });
});
