/**
 * Regular expressions organizations save (matches_regex conditions of enrichment and routing rules,
 * format validation rules, custom field patterns) are checked against bounded limits before RE2
 * compiles them, and a refused pattern is a 400 in the validation format with a short message:
 * never RE2's wasm abort text with its JavaScript stack and server paths.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CustomFieldRepository,
  EnrichmentRuleRepository,
  RoutingRuleRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer, UserApi } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

let server: ApiTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;

beforeAll(async () => {
  server = await startApiTestServer({
    dir: mkdtempSync(join(tmpdir(), 'leadstream-rule-patterns-')),
    mailer: new CapturingMailer(),
    topics: ['config.changed'],
    repositories: [EnrichmentRuleRepository, RoutingRuleRepository, ValidationRuleRepository, CustomFieldRepository],
  });
  owner = await UserApi.owner(server.url, 'patterns.owner@example.edu', 'Patterns College');
});

afterAll(async () => {
  await server.close();
});

type ErrorBody = { code: string; details: Array<{ field: string; message: string }> };
const errorOf = (body: Record<string, unknown>): ErrorBody => body['error'] as ErrorBody;

/** Neither a stack frame, a wasm abort nor a file path of the server. */
function expectNoInternals(body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/abort\(|Cannot enlarge memory|node_modules|\.js:\d+|\\n\s+at /);
}

const costly = '[a-z]{0,1000}[a-z]{0,1000}[a-z]{0,1000}m$';
const tooCostly = 'pattern too costly: counted repetitions add up to 3000 (at most 500)';

describe('patterns at save', () => {
  it('refuses an enrichment rule whose patterns are too costly, naming each condition, without compiling them', async () => {
    const started = Date.now();
    const response = await owner.call('POST', '/api/enrichment/rules', {
      name: 'Costly',
      priority: 1,
      conditions: {
        operator: 'AND',
        rules: [0, 1, 2, 3].map(() => ({ field: 'first_name', operator: 'matches_regex', value: costly })),
      },
      actions: [{ type: 'flag', reason: 'x', severity: 'low' }],
    });
    expect(response.status).toBe(400);
    expect(errorOf(response.body)).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [0, 1, 2, 3].map((index) => ({ field: `conditions.rules[${index}].value`, message: tooCostly })),
    });
    // Compiling them took 10.6 s and stalled every other request.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a routing rule whose pattern is too costly', async () => {
    const response = await owner.call('POST', '/api/routing/rules', {
      name: 'Costly',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'first_name', operator: 'matches_regex', value: '.{0,600}' }] },
      targets: [{ connection_id: 'crm_sf' }],
    });
    expect(response.status).toBe(400);
    expect(errorOf(response.body).details).toContainEqual({
      field: 'conditions.rules[0].value',
      message: 'pattern too costly: counted repetitions add up to 600 (at most 500)',
    });
  });

  it('refuses a format validation rule the engine could not hold, with a plain message and no stack trace', async () => {
    // \p{L}{0,100} made RE2 abort while compiling: its message carried a stack and server paths.
    const response = await owner.call('POST', '/api/validation', {
      name: 'Letters',
      field: 'first_name',
      rule_type: 'format',
      condition: 'matches',
      value: '\\p{L}{0,100}',
      action: 'reject',
      message: 'letters only',
      priority: 1,
    });
    expect(response.status).toBe(400);
    expect(errorOf(response.body).details).toEqual([
      {
        field: 'value',
        message: 'pattern too costly: it holds 100 Unicode classes such as \\p{L}, counting repetitions (at most 10)',
      },
    ]);
    expectNoInternals(response.body);
  });

  it("names a syntax error with RE2's short reason", async () => {
    const rule = await owner.call('POST', '/api/validation', {
      name: 'Backref',
      field: 'first_name',
      rule_type: 'format',
      condition: 'matches',
      value: '(a)\\1',
      action: 'reject',
      message: 'x',
      priority: 1,
    });
    expect(rule.status).toBe(400);
    expect(errorOf(rule.body).details).toEqual([
      { field: 'value', message: 'invalid regular expression: invalid escape sequence: \\1' },
    ]);
    const field = await owner.call('POST', '/api/enrichment/custom-fields', {
      name: 'code',
      type: 'string',
      validation: { pattern: '([a-z' },
    });
    expect(field.status).toBe(400);
    expect(errorOf(field.body).details).toEqual([
      { field: 'validation.pattern', message: 'invalid regular expression: missing ]: [a-z' },
    ]);
    expectNoInternals(field.body);
  });

  it('refuses a custom field pattern that is too costly, and takes an ordinary one', async () => {
    const refused = await owner.call('POST', '/api/enrichment/custom-fields', {
      name: 'nickname',
      type: 'string',
      validation: { pattern: costly },
    });
    expect(refused.status).toBe(400);
    expect(errorOf(refused.body).details).toEqual([{ field: 'validation.pattern', message: tooCostly }]);
    const taken = await owner.call('POST', '/api/enrichment/custom-fields', {
      name: 'zip',
      type: 'string',
      validation: { pattern: '^\\d{5}(-\\d{4})?$' },
    });
    expect(taken.status).toBe(201);
    expect(
      (
        (await owner.call('GET', '/api/enrichment/custom-fields')).body['data'] as Array<{
          name: string;
          validation: unknown;
        }>
      ).find((definition) => definition.name === 'zip')?.validation,
    ).toEqual({ pattern: '^\\d{5}(-\\d{4})?$' });
  });
});
