/**
 * Rules on real ingested leads (docs/decisions.md "Rules"), black box: the real `leadstream start`
 * process on each engine set, driven over HTTP. Every test saves configuration through the user API
 * and ingests in the very next request (no waiting, no retries): enrichment rules, lookup tables,
 * calculated fields and validation rules change the lead exactly as the test endpoints predict. A
 * rule webhook reaches a real HTTP server on loopback.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient, type JsonResponse } from './test-support/json-client';

const setups = engineSetups('rules');

// Longer than a test's wait for the pipeline (`eventually`, 60 s), so a slow pipeline fails with the
// name of what was awaited instead of vitest's bare test timeout.
const WAITING_TEST = { timeout: 150_000 };

describe.each(setups)('rules on the %s', WAITING_TEST, (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base: string;
  let owner: string;
  let key: string;
  let hooks: http.Server;
  let hookUrl: string;
  const received: Array<{ method: string | undefined; body: unknown }> = [];
  const call = jsonClient(() => base);

  async function admin(
    method: string,
    path: string,
    body: unknown,
    expected: number,
  ): Promise<Record<string, unknown>> {
    const response = await call(method, path, body, owner);
    if (response.status !== expected)
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  }

  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

  function ingest(lead: Record<string, unknown> = {}): Promise<JsonResponse> {
    return call(
      'POST',
      '/api/v1/leads/ingest',
      {
        email: `lead.${randomUUID().slice(0, 8)}@example.edu`,
        first_name: 'ada',
        last_name: 'lovelace',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
        ...lead,
      },
      key,
    );
  }

  async function lead(id: string): Promise<Record<string, unknown>> {
    return data(await admin('GET', `/api/leads/${id}`, undefined, 200));
  }

  /**
   * Waits for something the pipeline does after answering (activity, a rule webhook, a background
   * job). Polls twice a second: the lead routes allow 200 requests a minute, and on Kafka a
   * consumer group's first assignment can take tens of seconds.
   */
  async function eventually<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  async function activity(id: string): Promise<Array<Record<string, unknown>>> {
    return (await admin('GET', `/api/leads/${id}/activity`, undefined, 200))['data'] as Array<Record<string, unknown>>;
  }

  /** Deletes every rule of a kind, so each test starts from none. */
  async function clear(path: string): Promise<void> {
    for (const record of (await admin('GET', path, undefined, 200))['data'] as Array<{ id: string }>)
      await admin('DELETE', `${path}/${record.id}`, undefined, 204);
  }

  beforeAll(async () => {
    hooks = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push({ method: request.method, body: body ? JSON.parse(body) : null });
        response.writeHead(request.url === '/fail' ? 500 : 200).end('{}');
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}`;

    const store = await setup.openStore();
    await ensureAllIndexes(store);
    await store.close();
    server = CliProcess.start(
      ['start'],
      serviceEnv({
        TOPIC_PARTITIONS: '3',
        DECISION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        ...setup.env,
      }),
    );
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
    base = String(listening['url']);
    const registered = await call('POST', '/api/auth/register', {
      email: `owner.${randomUUID().slice(0, 6)}@college.edu`,
      password: 'Passw0rd!',
      first_name: 'Olive',
      last_name: 'Owner',
      organization_name: 'Rules College',
    });
    expect(registered.status).toBe(201);
    owner = String(registered.body['token']);
    const vendor = data(await admin('POST', '/api/vendors', { name: 'Fair vendor', type: 'inquiry' }, 201));
    key = String(
      data(
        await admin(
          'POST',
          '/api/api-keys',
          { name: 'fair', vendor_id: vendor['id'], permissions: ['read', 'write'] },
          201,
        ),
      )['key'],
    );
    await admin('POST', '/api/enrichment/custom-fields', { name: 'zip', label: 'Zip', type: 'string' }, 201);
    await admin('POST', '/api/enrichment/custom-fields', { name: 'gpa', label: 'GPA', type: 'number' }, 201);
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
    hooks?.closeAllConnections();
    await new Promise((resolve) => hooks?.close(resolve));
  });

  it('applies a rule saved in the previous request, exactly as /api/enrichment/test predicts', async () => {
    await clear('/api/enrichment/rules');
    // A lead before the rule: nothing changes.
    const before = await ingest({ custom_fields: { zip: '90210', gpa: 3.9 } });
    expect(before.status).toBe(201);
    expect((await lead(String(before.body['lead_id'])))['enrichment_data']).toEqual({});

    await admin(
      'POST',
      '/api/enrichment/lookup-tables',
      { name: `zips_${randomUUID().slice(0, 4)}`, mappings: { '90210': 'CA' } },
      201,
    ).then(async (created) => {
      const table = String(data(created)['name']);
      await admin(
        'POST',
        '/api/enrichment/rules',
        {
          name: 'Honors from California',
          priority: 1,
          conditions: {
            operator: 'AND',
            rules: [
              { field: 'custom_fields.gpa', operator: 'greater_than_or_equal', value: 3.5 },
              { operator: 'OR', rules: [{ field: 'custom_fields.zip', operator: 'starts_with', value: '9' }] },
            ],
          },
          actions: [
            {
              type: 'lookup',
              target_field: 'enrichment_data.state',
              table_name: table,
              lookup_field: 'custom_fields.zip',
            },
            { type: 'transform', field: 'first_name', transformation: 'titlecase' },
            { type: 'set_field', field: 'enrichment_data.tier', value: 'honors' },
            { type: 'flag', reason: 'call first', severity: 'high' },
          ],
        },
        201,
      );
    });
    const submission = {
      email: `honors.${randomUUID().slice(0, 8)}@example.edu`,
      first_name: 'ada',
      custom_fields: { zip: '90210', gpa: 3.9 },
    };
    const predicted = await admin('POST', '/api/enrichment/test', { lead_data: submission }, 200);
    expect(predicted).toMatchObject({ final_outcome: 'flagged', rejection_reason: null, results: [{ matched: true }] });

    const response = await ingest(submission);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ success: true, flags: ['manual_review'] });
    const id = String(response.body['lead_id']);
    const stored = await lead(id);
    expect(stored).toMatchObject({
      first_name: 'Ada',
      enrichment_data: { state: 'CA', tier: 'honors' },
      review_flags: [expect.objectContaining({ reason: 'call first', severity: 'high' })],
    });
    const enriched = await eventually(
      async () => (await activity(id)).find((entry) => entry['event'] === 'lead.enriched'),
      'the lead.enriched activity entry',
    );
    expect(enriched['metadata']).toMatchObject({
      rule_id: expect.stringMatching(/^rule_/),
      changes: {
        enrichment_data: { old: {}, new: { state: 'CA', tier: 'honors' } },
        first_name: { old: 'ada', new: 'Ada' },
      },
    });
    const ruleId = String((enriched['metadata'] as { rule_id: string }).rule_id);
    expect(data(await admin('GET', `/api/enrichment/rules/${ruleId}`, undefined, 200))['stats']).toEqual({
      total_matches: 1,
      last_30_days: 1,
    });
  });

  it('rejects the next lead with a reject rule: 422 with the rule id', async () => {
    await clear('/api/enrichment/rules');
    const created = await admin(
      'POST',
      '/api/enrichment/rules',
      {
        name: 'No test domains',
        priority: 1,
        conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'ends_with', value: '@example.test' }] },
        actions: [{ type: 'reject', reason: 'test domain' }],
      },
      201,
    );
    const ruleId = String(data(created)['id']);
    const response = await ingest({ email: `x.${randomUUID().slice(0, 6)}@example.test` });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      error: 'Lead rejected',
      reason: 'failed_custom_rule',
      rule_id: ruleId,
      message: 'test domain',
    });
    // The batch answer says why too.
    const email = `y.${randomUUID().slice(0, 6)}@example.test`;
    const batch = await call(
      'POST',
      '/api/v1/leads/bulk-ingest',
      {
        leads: [
          {
            email,
            first_name: 'ada',
            last_name: 'lovelace',
            form_started_at: new Date(Date.now() - 30_000).toISOString(),
          },
        ],
      },
      key,
    );
    expect(batch.status).toBe(200);
    expect((batch.body['results'] as unknown[])[0]).toEqual({
      index: 0,
      success: false,
      email,
      error: 'Lead rejected: failed_custom_rule',
      reason: 'failed_custom_rule',
      rule_id: ruleId,
      message: 'test domain',
    });
    expect((await ingest()).status).toBe(201);
    await admin('DELETE', `/api/enrichment/rules/${ruleId}`, undefined, 204);
  });

  it('calls a rule webhook with the rendered payload and records the call in the activity log', async () => {
    await clear('/api/enrichment/rules');
    await admin(
      'POST',
      '/api/enrichment/rules',
      {
        name: 'Tell the CRM',
        priority: 1,
        conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'contains', value: 'hook' }] },
        actions: [
          {
            type: 'webhook',
            url: `${hookUrl}/leads`,
            method: 'POST',
            payload: { who: '{{email}}', gpa: '{{custom_fields.gpa}}' },
          },
        ],
      },
      201,
    );
    const email = `hook.${randomUUID().slice(0, 6)}@example.edu`;
    const response = await ingest({ email, custom_fields: { gpa: 3.2 } });
    expect(response.status).toBe(201);
    const call = await eventually(
      async () => received.find((entry) => (entry.body as { who?: string } | null)?.who === email),
      'the rule webhook',
    );
    expect(call).toEqual({ method: 'POST', body: { who: email, gpa: 3.2 } });
    const entry = await eventually(
      async () => (await activity(String(response.body['lead_id']))).find((item) => item['event'] === 'rule.webhook'),
      'the rule.webhook activity entry',
    );
    expect(entry['metadata']).toMatchObject({ success: true, response_status: 200, url: `${hookUrl}/leads` });
  });

  it('computes calculated fields on creation, on a source update, and in a recalculation job', async () => {
    await clear('/api/enrichment/rules');
    await admin(
      'POST',
      '/api/calculated-fields',
      {
        name: 'display_name',
        label: 'Display name',
        formula: '{{first_name | capitalize}} {{last_name | upcase}}',
        type: 'text',
      },
      201,
    );
    const response = await ingest({ first_name: 'grace', last_name: 'hopper' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const id = String(response.body['lead_id']);
    expect((await lead(id))['calculated_fields'], 'the calculated field of the lead just created').toMatchObject({
      display_name: 'Grace HOPPER',
    });

    await admin('PATCH', `/api/leads/${id}`, { last_name: 'Murray' }, 200);
    expect((await lead(id))['calculated_fields'], 'the calculated field after the source field changed').toMatchObject({
      display_name: 'Grace MURRAY',
    });

    const field = (
      (await admin('GET', '/api/calculated-fields', undefined, 200))['data'] as Array<{ id: string; name: string }>
    ).find((item) => item.name === 'display_name')!;
    await admin('PATCH', `/api/calculated-fields/${field.id}`, { formula: '{{last_name}}, {{first_name}}' }, 200);
    const job = data(await admin('POST', `/api/calculated-fields/${field.id}/recalculate`, undefined, 202));
    const done = await eventually(async () => {
      const shown = data(await admin('GET', `/api/calculated-fields/jobs/${String(job['id'])}`, undefined, 200));
      return shown['status'] === 'completed' ? shown : undefined;
    }, 'the recalculation job');
    expect(done['processed'], 'the leads the recalculation job went through').toBeGreaterThanOrEqual(1);
    expect((await lead(id))['calculated_fields'], 'the calculated field after the recalculation job').toMatchObject({
      display_name: 'Murray, grace',
    });

    const snapshot = data(await admin('POST', `/api/calculated-fields/${field.id}/snapshot`, { lead_id: id }, 201));
    expect(snapshot).toMatchObject({ lead_id: id, field: 'display_name', value: 'Murray, grace' });
    expect(
      (await activity(id)).find((entry) => entry['event'] === 'calculated_field.snapshot')?.['metadata'],
      'the activity entry of the snapshot',
    ).toMatchObject({ field: 'display_name', value: 'Murray, grace' });
    await admin('DELETE', `/api/calculated-fields/${field.id}`, undefined, 204);
  });

  it('applies a validation rule saved in the previous request, exactly as /api/validation/check predicts', async () => {
    const created = await admin(
      'POST',
      '/api/validation',
      {
        name: 'Campaign style',
        field: 'utm_campaign',
        rule_type: 'format',
        condition: 'matches',
        value: '^[a-z-]+$',
        action: 'reject',
        message: 'campaign must be lowercase words',
        priority: 1,
      },
      201,
    );
    const ruleId = String(data(created)['id']);
    await admin(
      'POST',
      '/api/validation',
      {
        name: 'Short name',
        field: 'first_name',
        rule_type: 'length',
        condition: 'min',
        value: 2,
        action: 'warn',
        message: 'first name looks short',
        priority: 2,
      },
      201,
    );
    const bad = { email: `v.${randomUUID().slice(0, 6)}@example.edu`, utm_campaign: 'Spring Fair' };
    expect(await admin('POST', '/api/validation/check', bad, 200)).toMatchObject({
      valid: false,
      errors: [{ rule_id: ruleId }],
    });
    const refused = await ingest(bad);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      success: false,
      error: 'Lead rejected',
      reason: 'failed_custom_rule',
      rule_id: ruleId,
      message: 'campaign must be lowercase words',
    });

    const short = { email: `w.${randomUUID().slice(0, 6)}@example.edu`, first_name: 'A', utm_campaign: 'spring-fair' };
    expect(await admin('POST', '/api/validation/check', short, 200)).toMatchObject({
      valid: true,
      warnings: [{ field: 'first_name', message: 'first name looks short' }],
    });
    const warned = await ingest(short);
    expect(warned.status).toBe(201);
    expect(warned.body['warnings']).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'first_name', message: 'first name looks short' })]),
    );
    await clear('/api/validation');
  });
});
