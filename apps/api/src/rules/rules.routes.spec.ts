/**
 * The rules endpoints of the user API (docs/enrichment-rules.md, formula-language.md,
 * validation-rules.md) over real HTTP on the embedded engines: bodies, errors with details naming
 * the path, the test endpoints, export and import, and who may call them. What rules do to ingested
 * leads is in apps/leadstream/src/rules.integration.spec.ts (both engine sets).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CalculatedFieldRepository,
  EnrichmentRuleRepository,
  LookupTableRepository,
  RuleMatchRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { TOPICS } from '@leadstream/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer, forbidden, UserApi } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

let server: ApiTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;

beforeAll(async () => {
  server = await startApiTestServer({
    dir: mkdtempSync(join(tmpdir(), 'leadstream-rules-')),
    mailer: new CapturingMailer(),
    topics: [TOPICS.calculationRequests, TOPICS.configChanged],
    repositories: [
      EnrichmentRuleRepository,
      LookupTableRepository,
      CalculatedFieldRepository,
      ValidationRuleRepository,
      RuleMatchRepository,
    ],
  });
  owner = await UserApi.owner(server.url, 'rules.owner@example.edu', 'Rules College');
});

afterAll(async () => {
  await server.close();
});

const stateRule = {
  name: 'State from zip',
  description: 'Fills the state',
  priority: 10,
  conditions: { operator: 'AND', rules: [{ field: 'custom_fields.zip', operator: 'is_not_empty' }] },
  actions: [
    {
      type: 'lookup',
      target_field: 'enrichment_data.state',
      table_name: 'zip_states',
      lookup_field: 'custom_fields.zip',
    },
  ],
};

describe('enrichment rules', () => {
  let ruleId: string;

  it('creates a rule with the body of 4.7 and lists it', async () => {
    expect(
      (
        await owner.call('POST', '/api/enrichment/lookup-tables', {
          name: 'zip_states',
          description: 'US zips',
          mappings: { '90210': 'CA' },
        })
      ).status,
    ).toBe(201);
    const created = await owner.call('POST', '/api/enrichment/rules', stateRule);
    expect(created.status).toBe(201);
    const data = created.body['data'] as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(['created_at', 'enabled', 'id', 'name', 'priority']);
    expect(data).toMatchObject({ name: 'State from zip', priority: 10, enabled: true });
    expect(String(data['id'])).toMatch(/^rule_[0-9a-f]{32}$/);
    ruleId = String(data['id']);
    const list = await owner.call('GET', '/api/enrichment/rules');
    expect(list.status).toBe(200);
    expect(list.body['data']).toEqual([
      expect.objectContaining({
        id: ruleId,
        name: 'State from zip',
        conditions: stateRule.conditions,
        actions: stateRule.actions,
      }),
    ]);
  });

  it('answers get-by-id with stats, and PATCH with the body of 4.7', async () => {
    const one = await owner.call('GET', `/api/enrichment/rules/${ruleId}`);
    expect(one.status).toBe(200);
    expect(one.body['data']).toMatchObject({
      id: ruleId,
      description: 'Fills the state',
      stats: { total_matches: 0, last_30_days: 0 },
    });
    const patched = await owner.call('PATCH', `/api/enrichment/rules/${ruleId}`, { priority: 5, enabled: false });
    expect(patched.status).toBe(200);
    expect(Object.keys(patched.body['data'] as object).sort()).toEqual([
      'enabled',
      'id',
      'name',
      'priority',
      'updated_at',
    ]);
    expect(patched.body['data']).toMatchObject({ id: ruleId, priority: 5, enabled: false });
    await owner.call('PATCH', `/api/enrichment/rules/${ruleId}`, { enabled: true });
  });

  it('refuses invalid rules with 400 VALIDATION_ERROR and details naming the path', async () => {
    const response = await owner.call('POST', '/api/enrichment/rules', {
      name: 'Broken',
      priority: 1,
      conditions: {
        operator: 'AND',
        rules: [
          { field: 'email', operator: 'equals', value: 'a' },
          { operator: 'OR', rules: [{ field: 'first_name', operator: 'bigger', value: 1 }] },
        ],
      },
      actions: [
        { type: 'set_field', field: 'enrichment_data.tier', value: 'A' },
        { type: 'calculate', field: 'enrichment_data.x', formula: '{{if first_name}}' },
      ],
    });
    expect(response.status).toBe(400);
    const error = response.body['error'] as { code: string; details: Array<{ field: string; message: string }> };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.details.map((detail) => detail.field)).toContain('conditions.rules[1].rules[0].operator');
    const missing = await owner.call('POST', '/api/enrichment/rules', {
      name: 'No actions',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_empty' }] },
    });
    expect(missing.status).toBe(400);
    expect(
      (missing.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field),
    ).toContain('actions');
    const regex = await owner.call('POST', '/api/enrichment/rules', {
      ...stateRule,
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'matches_regex', value: '([a-z' }] },
    });
    expect(regex.status).toBe(400);
    expect(
      (regex.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field),
    ).toEqual(['conditions.rules[0].value']);
  });

  it('refuses a calculate action whose formula does not parse, with its line and column', async () => {
    const response = await owner.call('POST', '/api/enrichment/rules', {
      ...stateRule,
      actions: [{ type: 'calculate', field: 'enrichment_data.x', formula: 'Hi {{first_name | upcase' }],
    });
    expect(response.status).toBe(400);
    const detail = (response.body['error'] as { details: Array<{ field: string; message: string }> }).details[0]!;
    expect(detail.field).toBe('actions[0].formula');
    expect(detail.message).toMatch(/line 1, column \d+/);
  });

  it('predicts a lead with POST /api/enrichment/test and creates nothing', async () => {
    const reject = await owner.call('POST', '/api/enrichment/rules', {
      name: 'No test emails',
      priority: 20,
      conditions: { operator: 'OR', rules: [{ field: 'email', operator: 'ends_with', value: '@test.invalid' }] },
      actions: [{ type: 'reject', reason: 'test address' }],
    });
    const rejectId = String((reject.body['data'] as { id: string }).id);
    const tail = await owner.call('POST', '/api/enrichment/rules', {
      name: 'Tail',
      priority: 30,
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
      actions: [{ type: 'flag', reason: 'late', severity: 'high' }],
    });
    const tailId = String((tail.body['data'] as { id: string }).id);
    const before = (await owner.call('GET', '/api/enrichment/rules')).body['data'] as unknown[];

    const accepted = await owner.call('POST', '/api/enrichment/test', {
      lead_data: { email: 'ann@college.edu', custom_fields: { zip: '90210' } },
    });
    expect(accepted.status).toBe(200);
    expect(Object.keys(accepted.body).sort()).toEqual(['final_outcome', 'rejection_reason', 'results']);
    expect(accepted.body['rejection_reason']).toBeNull();
    const results = accepted.body['results'] as Array<Record<string, unknown>>;
    expect(results.map((result) => result['rule_id'])).toEqual([ruleId, rejectId, tailId]);
    expect(results[0]).toMatchObject({
      rule_name: 'State from zip',
      priority: 5,
      matched: true,
      processing_stopped: false,
    });
    expect(results[1]).toMatchObject({ matched: false });
    expect(results[2]).toMatchObject({ matched: true });

    const rejected = await owner.call('POST', '/api/enrichment/test', { lead_data: { email: 'bot@test.invalid' } });
    expect(rejected.body).toMatchObject({ final_outcome: 'rejected', rejection_reason: 'test address' });
    const stopped = (rejected.body['results'] as Array<Record<string, unknown>>)[2]!;
    expect(stopped).toMatchObject({ rule_id: tailId, matched: false });
    expect(String(stopped['reason'])).toContain(rejectId);

    expect((await owner.call('GET', '/api/enrichment/rules')).body['data']).toEqual(before);
    const bad = await owner.call('POST', '/api/enrichment/test', { lead: {} });
    expect(bad.status).toBe(400);
    expect(
      (bad.body['error'] as { details: Array<{ field: string }> }).details.map((detail) => detail.field).sort(),
    ).toEqual(['lead', 'lead_data']);
    await owner.call('DELETE', `/api/enrichment/rules/${rejectId}`);
    await owner.call('DELETE', `/api/enrichment/rules/${tailId}`);
  });

  it('exports a versioned document and imports it as new rules with new ids, never replacing', async () => {
    const exported = await owner.call('GET', '/api/enrichment/rules/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toContain('attachment');
    expect(exported.body).toMatchObject({ format: 'leadstream.enrichment-rules', version: 1 });
    const imported = await owner.call('POST', '/api/enrichment/rules/import', exported.body);
    expect(imported.status).toBe(201);
    const data = imported.body['data'] as { imported: number; ids: Record<string, string> };
    expect(data.imported).toBe(1);
    expect(data.ids[ruleId]).toMatch(/^rule_/);
    expect(data.ids[ruleId]).not.toBe(ruleId);
    const list = (await owner.call('GET', '/api/enrichment/rules')).body['data'] as Array<{
      id: string;
      conditions: unknown;
    }>;
    expect(list.map((rule) => rule.id).sort()).toEqual([ruleId, data.ids[ruleId]!].sort());
    expect(list[0]!.conditions).toEqual(list[1]!.conditions);

    const wrong = await owner.call('POST', '/api/enrichment/rules/import', {
      format: 'something-else',
      version: 1,
      rules: [],
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body['error'] as { code: string }).code).toBe('VALIDATION_ERROR');
    const badRule = await owner.call('POST', '/api/enrichment/rules/import', {
      ...(exported.body as object),
      rules: [{ ...stateRule, conditions: { operator: 'XOR', rules: [] } }],
    });
    expect(badRule.status).toBe(400);
    expect((badRule.body['error'] as { details: Array<{ field: string }> }).details[0]!.field).toMatch(
      /^rules\[0\]\.conditions/,
    );
    await owner.call('DELETE', `/api/enrichment/rules/${data.ids[ruleId]}`);
  });

  it('answers a method the path does not take with a 405 in the error format', async () => {
    const response = await owner.call('PUT', '/api/enrichment/rules', {});
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' } });
  });

  it('reorders rules by priority', async () => {
    const second = await owner.call('POST', '/api/enrichment/rules', { ...stateRule, name: 'Second', priority: 50 });
    const secondId = String((second.body['data'] as { id: string }).id);
    const reordered = await owner.call('POST', '/api/enrichment/rules/reorder', {
      rules: [
        { id: secondId, priority: 1 },
        { id: ruleId, priority: 2 },
      ],
    });
    expect(reordered.status).toBe(200);
    expect((reordered.body['data'] as Array<{ id: string }>).map((rule) => rule.id)).toEqual([secondId, ruleId]);
    const unknown = await owner.call('POST', '/api/enrichment/rules/reorder', {
      rules: [{ id: 'rule_nope', priority: 1 }],
    });
    expect(unknown.status).toBe(404);
    expect((await owner.call('DELETE', `/api/enrichment/rules/${secondId}`)).status).toBe(204);
    expect((await owner.call('GET', `/api/enrichment/rules/${secondId}`)).status).toBe(404);
  });

  it('keeps rules from viewers (rules:read is for managers and up), and lets a manager read them', async () => {
    const viewer = await owner.member('rules.viewer@example.edu', 'viewer');
    expect(await viewer.call('GET', '/api/enrichment/rules')).toMatchObject(forbidden('viewer', 'rules:read'));
    const manager = await owner.member('rules.manager@example.edu', 'manager');
    const theirs = (await manager.call('GET', '/api/enrichment/rules')).body['data'] as Array<{ id: string }>;
    expect(theirs.map((rule) => rule.id)).toContain(ruleId);
    expect(await viewer.call('POST', '/api/enrichment/rules', stateRule)).toMatchObject(
      forbidden('viewer', 'rules:write'),
    );
    // The refused create made nothing.
    expect((await owner.call('GET', '/api/enrichment/rules')).body['data']).toEqual(theirs);
  });
});

describe('enrichment rule webhooks', () => {
  let hooks: Awaited<ReturnType<typeof UserApi.owner>>;
  beforeAll(async () => {
    hooks = await UserApi.owner(server.url, 'rules.hooks@example.edu', 'Hooks College');
  });

  // A public address written as an address, so the test resolves no name.
  const PUBLIC_URL = 'https://93.184.215.14/h';
  const hookRule = (url: string, headers?: Record<string, string>) => ({
    name: 'Notify',
    priority: 1,
    conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
    actions: [
      { type: 'set_field', field: 'enrichment_data.tier', value: 'A' },
      { type: 'webhook', url, ...(headers ? { headers } : {}) },
    ],
  });
  const fields = (response: { body: Record<string, unknown> }) =>
    ((response.body['error'] as { details?: Array<{ field: string }> } | undefined)?.details ?? []).map(
      (detail) => detail.field,
    );

  it('refuses, when saved, a webhook URL that does not reach a public address (the server does not allow insecure targets)', async () => {
    for (const url of [
      'https://169.254.169.254/x',
      'https://2130706433/h',
      'https://127.0.0.1/h',
      'https://[::1]/h',
      'https://[::127.0.0.1]/h',
      'https://10.0.0.1/h',
      'http://93.184.215.14/h',
    ]) {
      const response = await hooks.call('POST', '/api/enrichment/rules', hookRule(url));
      expect(response.status, url).toBe(400);
      expect(response.body, url).toMatchObject({
        error: { code: 'VALIDATION_ERROR', message: 'Invalid enrichment rule' },
      });
      expect(fields(response), url).toEqual(['actions[1].url']);
    }
    const created = await hooks.call('POST', '/api/enrichment/rules', hookRule(PUBLIC_URL));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = String((created.body['data'] as { id: string }).id);

    const patched = await hooks.call('PATCH', `/api/enrichment/rules/${id}`, {
      actions: [{ type: 'webhook', url: 'https://169.254.169.254/latest/meta-data' }],
    });
    expect(patched.status).toBe(400);
    expect(fields(patched)).toEqual(['actions[0].url']);
    expect((await hooks.call('PATCH', `/api/enrichment/rules/${id}`, { enabled: false })).status).toBe(200);

    const exported = await hooks.call('GET', '/api/enrichment/rules/export');
    const document = exported.body as { rules: Array<Record<string, unknown>> };
    const imported = await hooks.call('POST', '/api/enrichment/rules/import', {
      ...document,
      rules: [...document.rules, { ...hookRule('https://[::ffff:10.0.0.1]/h'), id: 'rule_old' }],
    });
    expect(imported.status).toBe(400);
    expect(fields(imported)).toEqual(['rules[1].actions[1].url']);
    expect((await hooks.call('DELETE', `/api/enrichment/rules/${id}`)).status).toBe(204);
  });

  it('refuses webhook headers that could inject a header or reframe the request', async () => {
    const rulesBefore = (await hooks.call('GET', '/api/enrichment/rules')).body['data'];
    const injected = await hooks.call(
      'POST',
      '/api/enrichment/rules',
      hookRule(PUBLIC_URL, { 'X-A': 'v\r\nX-Injected: 4' }),
    );
    expect(injected.status).toBe(400);
    expect(injected.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: [{ field: 'actions[1].headers.X-A' }] },
    });
    const framing = await hooks.call(
      'POST',
      '/api/enrichment/rules',
      hookRule(PUBLIC_URL, { Host: 'evil.example', 'Content-Length': '5' }),
    );
    expect(framing.status).toBe(400);
    expect(fields(framing)).toEqual(['actions[1].headers.Host', 'actions[1].headers.Content-Length']);
    expect((await hooks.call('GET', '/api/enrichment/rules')).body['data']).toEqual(rulesBefore);
  });
});

describe('enrichment rule webhooks with WEBHOOK_ALLOW_INSECURE_TARGETS', () => {
  let insecure: ApiTestServer;
  beforeAll(async () => {
    insecure = await startApiTestServer({
      dir: mkdtempSync(join(tmpdir(), 'leadstream-rules-insecure-')),
      mailer: new CapturingMailer(),
      topics: [TOPICS.calculationRequests, TOPICS.configChanged],
      repositories: [EnrichmentRuleRepository, LookupTableRepository, RuleMatchRepository],
      webhooks: { allowInsecureTargets: true, timeoutMs: 1_000 },
    });
  });

  afterAll(async () => {
    await insecure?.close();
  });

  it('takes an http loopback webhook URL (development and tests)', async () => {
    const developer = await UserApi.owner(insecure.url, 'rules.dev@example.edu', 'Dev College');
    const rule = {
      name: 'Local hook',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
      actions: [{ type: 'webhook', url: 'http://127.0.0.1:9/h' }],
    };
    const created = await developer.call('POST', '/api/enrichment/rules', rule);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
});

describe('lookup tables', () => {
  it('creates, reads, changes and deletes a table; a taken name is a 400 on name', async () => {
    const created = await owner.call('POST', '/api/enrichment/lookup-tables', {
      name: 'programs',
      description: 'Codes',
      mappings: { BSN: 'Nursing' },
    });
    expect(created.status).toBe(201);
    const table = created.body['data'] as { id: string };
    expect(created.body['data']).toMatchObject({
      name: 'programs',
      description: 'Codes',
      mappings: { BSN: 'Nursing' },
    });
    expect((await owner.call('GET', '/api/enrichment/lookup-tables')).body['data']).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: table.id })]),
    );
    const taken = await owner.call('POST', '/api/enrichment/lookup-tables', { name: 'programs', mappings: {} });
    expect(taken.status).toBe(409);
    expect(taken.body['error']).toMatchObject({
      code: 'ALREADY_EXISTS',
      details: [{ field: 'name', message: expect.stringContaining('already exists') }],
    });
    const patched = await owner.call('PATCH', `/api/enrichment/lookup-tables/${table.id}`, {
      mappings: { MBA: 'Business' },
    });
    expect(patched.body['data']).toMatchObject({ mappings: { MBA: 'Business' } });
    expect((await owner.call('DELETE', `/api/enrichment/lookup-tables/${table.id}`)).status).toBe(204);
    expect((await owner.call('GET', `/api/enrichment/lookup-tables/${table.id}`)).status).toBe(404);
  });
});

describe('calculated fields', () => {
  it('creates a field and refuses formulas beyond the documented limits', async () => {
    const created = await owner.call('POST', '/api/calculated-fields', {
      name: 'full_name',
      label: 'Full name',
      formula: '{{first_name}} {{last_name}}',
      type: 'text',
    });
    expect(created.status).toBe(201);
    expect(created.body['data']).toMatchObject({ name: 'full_name', label: 'Full name', type: 'text' });
    const tooLong = await owner.call('POST', '/api/calculated-fields', {
      name: 'long',
      label: 'Long',
      formula: 'x'.repeat(2_001),
      type: 'text',
    });
    expect(tooLong.status).toBe(400);
    const nested = '{{if a}}'.repeat(6) + 'x' + '{{/if}}'.repeat(6);
    const deep = await owner.call('POST', '/api/calculated-fields', {
      name: 'deep',
      label: 'Deep',
      formula: nested,
      type: 'text',
    });
    expect(deep.status).toBe(400);
    expect((deep.body['error'] as { details: Array<{ field: string }> }).details[0]!.field).toBe('formula');
  });

  it('refuses a circular dependency naming the cycle', async () => {
    expect(
      (
        await owner.call('POST', '/api/calculated-fields', {
          name: 'a_field',
          label: 'A',
          formula: '{{first_name}}',
          type: 'text',
        })
      ).status,
    ).toBe(201);
    const b = await owner.call('POST', '/api/calculated-fields', {
      name: 'b_field',
      label: 'B',
      formula: '{{a_field}}!',
      type: 'text',
    });
    expect(b.status).toBe(201);
    const a = (
      (await owner.call('GET', '/api/calculated-fields')).body['data'] as Array<{ id: string; name: string }>
    ).find((field) => field.name === 'a_field')!;
    const cycle = await owner.call('PATCH', `/api/calculated-fields/${a.id}`, { formula: '{{b_field}}' });
    expect(cycle.status).toBe(400);
    expect(JSON.stringify(cycle.body)).toMatch(/a_field -> b_field -> a_field|b_field -> a_field -> b_field/);
  });

  it('refuses a snapshot of a lead that is not there as a problem of the body (400), and of a field that is not there with 404', async () => {
    const field = await owner.call('POST', '/api/calculated-fields', {
      name: 'snap_field',
      label: 'Snap',
      formula: '{{first_name}}',
      type: 'text',
    });
    const fieldId = String((field.body['data'] as { id: string }).id);
    const unknownLead = await owner.call('POST', `/api/calculated-fields/${fieldId}/snapshot`, {
      lead_id: 'lead_not_here',
    });
    expect(unknownLead.status).toBe(400);
    expect(unknownLead.body['error']).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'lead_id', message: 'lead_id is not a lead of your organization' }],
    });
    expect(
      (await owner.call('POST', '/api/calculated-fields/calc_not_here/snapshot', { lead_id: 'lead_not_here' })).status,
    ).toBe(404);
  });

  it('queues a recalculation job and shows it', async () => {
    const started = await owner.call('POST', '/api/calculated-fields/recalculate-all');
    expect(started.status).toBe(202);
    const job = started.body['data'] as { id: string; status: string };
    expect(job.status).toBe('queued');
    const shown = await owner.call('GET', `/api/calculated-fields/jobs/${job.id}`);
    expect(shown.body['data']).toMatchObject({ id: job.id, status: 'queued', fields: null });
    expect((await owner.call('GET', '/api/calculated-fields/jobs/calcjob_nope')).status).toBe(404);
  });

  it('starts a job when the formula of a field that asks for it changes, and only then', async () => {
    const created = await owner.call('POST', '/api/calculated-fields', {
      name: 'initials',
      label: 'Initials',
      formula: '{{first_name | first}}',
      type: 'text',
      recalculate_on_change: true,
    });
    const id = String((created.body['data'] as { id: string }).id);
    const jobs = async () =>
      (await owner.call('GET', '/api/calculated-fields/jobs')).body['data'] as Array<{
        fields: string[] | null;
        reason: string;
      }>;
    const before = (await jobs()).length;
    expect((await owner.call('PATCH', `/api/calculated-fields/${id}`, { label: 'First initial' })).status).toBe(200);
    expect((await jobs()).length).toBe(before);
    expect(
      (
        await owner.call('PATCH', `/api/calculated-fields/${id}`, {
          formula: '{{first_name | first}}{{last_name | first}}',
        })
      ).status,
    ).toBe(200);
    const after = await jobs();
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ fields: ['initials'], reason: 'formula_changed', status: 'queued' });
  });
});

describe('validation rules', () => {
  it('creates rules and checks leads with them, creating nothing', async () => {
    const zip = await owner.call('POST', '/api/validation', {
      name: 'Zip',
      field: 'utm_campaign',
      rule_type: 'format',
      condition: 'matches',
      value: '^[a-z-]+$',
      action: 'reject',
      message: 'campaign must be lowercase words',
      priority: 1,
    });
    expect(zip.status).toBe(201);
    const zipId = String((zip.body['data'] as { id: string }).id);
    const warn = await owner.call('POST', '/api/validation', {
      name: 'Short name',
      field: 'first_name',
      rule_type: 'length',
      condition: 'min',
      value: 2,
      action: 'warn',
      message: 'first name looks short',
      priority: 2,
    });
    expect(warn.status).toBe(201);

    const ok = await owner.call('POST', '/api/validation/check', {
      email: 'ann@college.edu',
      first_name: 'A',
      utm_campaign: 'spring-fair',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      valid: true,
      errors: [],
      warnings: [expect.objectContaining({ field: 'first_name', message: 'first name looks short' })],
    });
    const refused = await owner.call('POST', '/api/validation/check', {
      email: 'ann@college.edu',
      first_name: 'Ann',
      utm_campaign: 'Spring Fair',
    });
    expect(refused.body).toMatchObject({
      valid: false,
      errors: [{ field: 'utm_campaign', message: 'campaign must be lowercase words', rule_id: zipId }],
    });
    const invalid = await owner.call('POST', '/api/validation/check', { email: 'not-an-email' });
    expect(invalid.body).toMatchObject({ valid: false, errors: [expect.objectContaining({ field: 'email' })] });
    expect(((await owner.call('GET', '/api/validation')).body['data'] as unknown[]).length).toBe(2);
  });

  it('refuses an invalid rule with details', async () => {
    const response = await owner.call('POST', '/api/validation', {
      name: 'Bad',
      field: 'email',
      rule_type: 'format',
      condition: 'matches',
      value: '([',
      action: 'explode',
      message: 'x',
      priority: 1,
    });
    expect(response.status).toBe(400);
    const fields = (response.body['error'] as { details: Array<{ field: string }> }).details.map(
      (detail) => detail.field,
    );
    expect(fields).toEqual(expect.arrayContaining(['value', 'action']));
  });
});
