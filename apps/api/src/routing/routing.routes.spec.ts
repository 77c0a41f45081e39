/**
 * The routing endpoints of the user API over real HTTP on the embedded engines: rule and settings
 * bodies, errors naming the field, targets that must be CRM connections of the organization, the
 * test endpoint (which stores nothing), roles and tenancy. What routing does to ingested leads is
 * in apps/leadstream/src/routing.integration.spec.ts (both engine sets).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RoutingCounterRepository, RoutingRuleRepository } from '@leadstream/dal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingMailer, dataOf, forbidden, UserApi } from '../accounts/accounts.test-support';
import { startApiTestServer, type ApiTestServer } from '../api.test-support';

let server: ApiTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;
let other: Awaited<ReturnType<typeof UserApi.owner>>;

/** A CRM connection as the CRM feature stores it (only the fields routing reads). */
async function addConnection(
  organizationId: string,
  id: string,
  options: { enabled?: boolean; environment?: 'live' | 'sandbox'; createdAt?: string } = {},
): Promise<void> {
  await server.store.collection('crm_connections').insertOne({
    _id: id,
    organization_id: organizationId,
    environment: options.environment ?? 'live',
    name: id,
    type: 'webhook_json',
    enabled: options.enabled ?? true,
    created_at: options.createdAt ?? new Date().toISOString(),
  });
}

function detailFields(response: { body: Record<string, unknown> }): string[] {
  return ((response.body['error'] as { details?: Array<{ field: string }> } | undefined)?.details ?? []).map(
    (detail) => detail.field,
  );
}

beforeAll(async () => {
  server = await startApiTestServer({
    dir: mkdtempSync(join(tmpdir(), 'leadstream-routing-')),
    mailer: new CapturingMailer(),
    topics: ['config.changed'],
    repositories: [RoutingRuleRepository],
  });
  owner = await UserApi.owner(server.url, 'routing.owner@example.edu', 'Routing College');
  other = await UserApi.owner(server.url, 'routing.other@example.edu', 'Other College');
  await addConnection(owner.organizationId, 'crm_sf', { createdAt: '2026-01-01T00:00:00.000Z' });
  await addConnection(owner.organizationId, 'crm_hs', { createdAt: '2026-01-02T00:00:00.000Z' });
  await addConnection(owner.organizationId, 'crm_off', { enabled: false });
  await addConnection(owner.organizationId, 'crm_sandbox_only', { environment: 'sandbox' });
  await addConnection(other.organizationId, 'crm_theirs');
});

afterAll(async () => {
  await server.close();
});

const westRule = {
  name: 'West coast',
  priority: 10,
  conditions: { operator: 'AND', rules: [{ field: 'custom_fields.state', operator: 'in', value: ['CA', 'OR', 'WA'] }] },
  targets: [{ connection_id: 'crm_sf', owner: 'ana@school.edu', queue: 'west' }],
};

describe('routing rules', () => {
  let westId: string;

  it('creates a rule and answers it whole, with defaults filled in', async () => {
    const created = await owner.call('POST', '/api/routing/rules', westRule);
    expect(created.status).toBe(201);
    const rule = dataOf(created);
    expect(rule).toEqual({
      id: expect.stringMatching(/^rroute_[0-9a-f]{32}$/),
      name: 'West coast',
      description: null,
      priority: 10,
      enabled: true,
      conditions: westRule.conditions,
      targets: [{ connection_id: 'crm_sf', owner: 'ana@school.edu', queue: 'west', weight: null }],
      distribution: 'single',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    westId = String(rule['id']);
    expect((await owner.call('GET', `/api/routing/rules/${westId}`)).body).toEqual({ data: rule });
  });

  it('lists rules in the order they are tried, and reorders them', async () => {
    const catchAll = dataOf(
      await owner.call('POST', '/api/routing/rules', {
        name: 'Everyone else',
        priority: 100,
        targets: [{ connection_id: 'crm_hs' }, { connection_id: 'crm_sf' }],
        distribution: 'all',
      }),
    );
    expect(catchAll['conditions']).toEqual({ operator: 'AND', rules: [] });
    const names = async () =>
      ((await owner.call('GET', '/api/routing/rules')).body['data'] as Array<{ name: string }>).map(
        (rule) => rule.name,
      );
    expect(await names()).toEqual(['West coast', 'Everyone else']);
    const reordered = await owner.call('POST', '/api/routing/rules/reorder', {
      rules: [{ id: catchAll['id'], priority: 1 }],
    });
    expect(reordered.status).toBe(200);
    expect((reordered.body['data'] as Array<{ name: string }>).map((rule) => rule.name)).toEqual([
      'Everyone else',
      'West coast',
    ]);
    expect(
      (await owner.call('POST', '/api/routing/rules/reorder', { rules: [{ id: 'rroute_nope', priority: 1 }] })).status,
    ).toBe(404);
    await owner.call('DELETE', `/api/routing/rules/${String(catchAll['id'])}`);
    expect(await names()).toEqual(['West coast']);
  });

  it('changes some fields with PATCH, checking the rule as a whole', async () => {
    const patched = await owner.call('PATCH', `/api/routing/rules/${westId}`, {
      distribution: 'round_robin',
      targets: [
        { connection_id: 'crm_sf', owner: 'ana' },
        { connection_id: 'crm_sf', owner: 'ben' },
      ],
    });
    expect(patched.status).toBe(200);
    expect(dataOf(patched)).toMatchObject({
      distribution: 'round_robin',
      targets: [{ owner: 'ana' }, { owner: 'ben' }],
      name: 'West coast',
    });
    const single = await owner.call('PATCH', `/api/routing/rules/${westId}`, { distribution: 'single' });
    expect(single.status).toBe(400);
    expect(detailFields(single)).toEqual(['distribution']);
    expect((await owner.call('PATCH', '/api/routing/rules/rroute_nope', { enabled: false })).status).toBe(404);
  });

  it('refuses unknown fields, bad conditions and bad targets with 400 VALIDATION_ERROR and a detail per field', async () => {
    const response = await owner.call('POST', '/api/routing/rules', {
      ...westRule,
      color: 'red',
      conditions: {
        operator: 'AND',
        rules: [
          { field: 'email', operator: 'equals', value: 'a' },
          { operator: 'OR', rules: [{ field: 'first_name', operator: 'bigger', value: 1 }] },
        ],
      },
      targets: [{ connection_id: 'crm_sf', weight: 'heavy' }],
      distribution: 'weighted',
    });
    expect(response.status).toBe(400);
    expect((response.body['error'] as { code: string }).code).toBe('VALIDATION_ERROR');
    expect(detailFields(response).sort()).toEqual([
      'color',
      'conditions.rules[1].rules[0].operator',
      'targets[0].weight',
    ]);
    expect(detailFields(await owner.call('POST', '/api/routing/rules', { name: 'x', targets: [] }))).toEqual([
      'targets',
    ]);
    expect(
      detailFields(await owner.call('POST', '/api/routing/rules', { targets: [{ connection_id: 'crm_sf' }] })),
    ).toEqual(['name']);
  });

  it("refuses a target that is not a CRM connection of the organization (another organization's, a sandbox one, or none)", async () => {
    const response = await owner.call('POST', '/api/routing/rules', {
      ...westRule,
      distribution: 'all',
      targets: [
        { connection_id: 'crm_sf' },
        { connection_id: 'crm_theirs' },
        { connection_id: 'crm_sandbox_only' },
        { connection_id: 'crm_missing' },
      ],
    });
    expect(response.status).toBe(400);
    expect(detailFields(response)).toEqual([
      'targets[1].connection_id',
      'targets[2].connection_id',
      'targets[3].connection_id',
    ]);
    // A disabled connection is still one of the organization's: a rule may name it before it is switched on.
    expect(
      (
        await owner.call('POST', '/api/routing/rules', {
          ...westRule,
          name: 'Later',
          enabled: false,
          targets: [{ connection_id: 'crm_off' }],
        })
      ).status,
    ).toBe(201);
  });

  it("keeps one organization's rules from another", async () => {
    const notFound = { status: 404, body: { error: { code: 'NOT_FOUND' } } };
    expect(await other.call('GET', `/api/routing/rules/${westId}`)).toMatchObject(notFound);
    expect(await other.call('PATCH', `/api/routing/rules/${westId}`, { enabled: false })).toMatchObject(notFound);
    expect(await other.call('DELETE', `/api/routing/rules/${westId}`)).toMatchObject(notFound);
    expect((await other.call('GET', '/api/routing/rules')).body).toEqual({ data: [] });
    // The owner's rule is untouched.
    expect(dataOf(await owner.call('GET', `/api/routing/rules/${westId}`))).toMatchObject({
      id: westId,
      enabled: true,
    });
  });

  it('lets managers configure routing and keeps viewers out, as enrichment rules', async () => {
    const manager = await owner.member('routing.manager@example.edu', 'manager');
    const rules = (await manager.call('GET', '/api/routing/rules')).body['data'] as Array<{ id: string }>;
    expect(rules.map((rule) => rule.id)).toContain(westId);
    expect(dataOf(await manager.call('PUT', '/api/routing/settings', { when_unmatched: 'none' }))).toMatchObject({
      default_targets: [],
      when_unmatched: 'none',
      updated_at: expect.any(String),
    });
    expect(dataOf(await owner.call('GET', '/api/routing/settings'))).toMatchObject({ when_unmatched: 'none' });
    const viewer = await owner.member('routing.viewer@example.edu', 'viewer');
    expect(await viewer.call('GET', '/api/routing/rules')).toMatchObject(forbidden('viewer', 'rules:read'));
    const before = ((await owner.call('GET', '/api/routing/rules')).body['data'] as unknown[]).length;
    expect(await viewer.call('POST', '/api/routing/rules', westRule)).toMatchObject(forbidden('viewer', 'rules:write'));
    expect((await owner.call('GET', '/api/routing/rules')).body['data']).toHaveLength(before);
    expect(await new UserApi(server.url).call('GET', '/api/routing/rules')).toMatchObject({
      status: 401,
      body: { error: { code: 'TOKEN_INVALID' } },
    });
  });
});

describe('routing settings', () => {
  it('answers the defaults until set, and takes the whole settings with PUT', async () => {
    expect((await other.call('GET', '/api/routing/settings')).body).toEqual({
      data: { default_targets: [], when_unmatched: 'all_connections', updated_at: null },
    });
    const put = await other.call('PUT', '/api/routing/settings', {
      default_targets: [{ connection_id: 'crm_theirs', queue: 'triage' }],
      when_unmatched: 'none',
    });
    expect(put.status).toBe(200);
    const expected = {
      default_targets: [{ connection_id: 'crm_theirs', owner: null, queue: 'triage' }],
      when_unmatched: 'none',
      updated_at: expect.any(String),
    };
    expect(dataOf(put)).toEqual(expected);
    expect(dataOf(await other.call('GET', '/api/routing/settings'))).toEqual(expected);
    expect(dataOf(await other.call('PUT', '/api/routing/settings', {}))).toMatchObject({
      default_targets: [],
      when_unmatched: 'all_connections',
    });
  });

  it('refuses unknown fields and connections', async () => {
    const response = await other.call('PUT', '/api/routing/settings', {
      default_targets: [{ connection_id: 'crm_sf' }],
      fallback: 'x',
    });
    expect(response.status).toBe(400);
    expect(detailFields(response)).toEqual(['fallback']);
    const foreign = await other.call('PUT', '/api/routing/settings', {
      default_targets: [{ connection_id: 'crm_sf' }],
    });
    expect(foreign.status).toBe(400);
    expect(detailFields(foreign)).toEqual(['default_targets[0].connection_id']);
  });
});

describe('POST /api/routing/test', () => {
  it('answers which rule and targets a lead gets, and stores nothing', async () => {
    const tester = await UserApi.owner(server.url, 'routing.tester@example.edu', 'Test College');
    await addConnection(tester.organizationId, 'crm_t1', { createdAt: '2026-01-01T00:00:00.000Z' });
    await addConnection(tester.organizationId, 'crm_t2', { createdAt: '2026-01-02T00:00:00.000Z' });
    const test = async (leadData: Record<string, unknown>) =>
      dataOf(await tester.call('POST', '/api/routing/test', { lead_data: leadData }));

    // No rules, no default: every enabled CRM connection.
    expect(await test({ email: 'a@b.edu' })).toEqual({
      rule_id: null,
      rule_name: null,
      reason: 'all_connections',
      targets: [
        { connection_id: 'crm_t1', owner: null, queue: null },
        { connection_id: 'crm_t2', owner: null, queue: null },
      ],
      enrichment_outcome: 'accepted',
    });

    const nursing = dataOf(
      await tester.call('POST', '/api/routing/rules', {
        name: 'Nursing',
        priority: 5,
        conditions: { operator: 'AND', rules: [{ field: 'program_interest', operator: 'contains', value: 'nursing' }] },
        targets: [{ connection_id: 'crm_t2', queue: 'health' }],
      }),
    );
    const shared = dataOf(
      await tester.call('POST', '/api/routing/rules', {
        name: 'Counsellors',
        priority: 9,
        conditions: { operator: 'AND', rules: [{ field: 'utm_source', operator: 'equals', value: 'fair' }] },
        targets: [
          { connection_id: 'crm_t1', owner: 'ana' },
          { connection_id: 'crm_t1', owner: 'ben' },
        ],
        distribution: 'round_robin',
      }),
    );
    await tester.call('PUT', '/api/routing/settings', {
      default_targets: [{ connection_id: 'crm_t1', queue: 'triage' }],
    });

    expect(await test({ email: 'n@b.edu', program_interest: 'BSc Nursing', utm_source: 'fair' })).toEqual({
      rule_id: nursing['id'],
      rule_name: 'Nursing',
      reason: 'rule',
      targets: [{ connection_id: 'crm_t2', owner: null, queue: 'health' }],
      enrichment_outcome: 'accepted',
    });
    expect(await test({ email: 'f@b.edu', utm_source: 'FAIR' })).toMatchObject({
      rule_id: shared['id'],
      reason: 'rule',
      targets: [{ owner: 'ana' }],
    });
    expect(await test({ email: 'x@b.edu' })).toEqual({
      rule_id: null,
      rule_name: null,
      reason: 'default',
      targets: [{ connection_id: 'crm_t1', owner: null, queue: 'triage' }],
      enrichment_outcome: 'accepted',
    });

    // The test never moves the rotation: the next lead of the rule would still get the first owner.
    expect(await test({ email: 'f2@b.edu', utm_source: 'fair' })).toMatchObject({ targets: [{ owner: 'ana' }] });
    expect(
      await new RoutingCounterRepository(server.store).peek(
        { organizationId: tester.organizationId, environment: 'live' },
        String(shared['id']),
      ),
    ).toBe(0);
    // Once the stage has handed out a position, the answer shows the next owner in turn.
    await new RoutingCounterRepository(server.store).reserve(
      { organizationId: tester.organizationId, environment: 'live' },
      String(shared['id']),
      1,
    );
    expect(await test({ email: 'f3@b.edu', utm_source: 'fair' })).toMatchObject({ targets: [{ owner: 'ben' }] });
  });

  it('routes the lead as enrichment leaves it, and says when enrichment would reject it', async () => {
    const enriched = await UserApi.owner(server.url, 'routing.enriched@example.edu', 'Enriched College');
    await addConnection(enriched.organizationId, 'crm_e1');
    expect(
      (
        await enriched.call('POST', '/api/enrichment/rules', {
          name: 'Tier',
          priority: 1,
          conditions: { operator: 'AND', rules: [{ field: 'source', operator: 'equals', value: 'web' }] },
          actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: 'gold' }],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await enriched.call('POST', '/api/enrichment/rules', {
          name: 'No bots',
          priority: 2,
          conditions: { operator: 'AND', rules: [{ field: 'first_name', operator: 'equals', value: 'Bot' }] },
          actions: [{ type: 'reject', reason: 'bot' }],
        })
      ).status,
    ).toBe(201);
    const gold = dataOf(
      await enriched.call('POST', '/api/routing/rules', {
        name: 'Gold',
        conditions: { operator: 'AND', rules: [{ field: 'enrichment_data.tier', operator: 'equals', value: 'gold' }] },
        targets: [{ connection_id: 'crm_e1', owner: 'vip' }],
      }),
    );
    const test = async (leadData: Record<string, unknown>) =>
      dataOf(await enriched.call('POST', '/api/routing/test', { lead_data: leadData }));
    expect(await test({ email: 'a@b.edu', source: 'web' })).toMatchObject({
      rule_id: gold['id'],
      targets: [{ owner: 'vip' }],
      enrichment_outcome: 'accepted',
    });
    expect(await test({ email: 'a@b.edu', source: 'print' })).toMatchObject({
      rule_id: null,
      reason: 'all_connections',
    });
    expect(await test({ email: 'a@b.edu', source: 'web', first_name: 'Bot' })).toMatchObject({
      rule_id: gold['id'],
      enrichment_outcome: 'rejected',
    });
  });

  it('routes a weighted rule by the lead id given, the same way each time', async () => {
    const weigher = await UserApi.owner(server.url, 'routing.weigher@example.edu', 'Weighted College');
    await addConnection(weigher.organizationId, 'crm_w1');
    await addConnection(weigher.organizationId, 'crm_w2');
    await weigher.call('POST', '/api/routing/rules', {
      name: 'Split',
      targets: [
        { connection_id: 'crm_w1', weight: 1 },
        { connection_id: 'crm_w2', weight: 1 },
      ],
      distribution: 'weighted',
    });
    const seen = new Set<string>();
    for (let index = 0; index < 20; index++) {
      const ask = async () =>
        (
          dataOf(
            await weigher.call('POST', '/api/routing/test', {
              lead_data: { email: 'w@b.edu' },
              lead_id: `lead_w${index}`,
            }),
          )['targets'] as Array<{ connection_id: string }>
        )[0]!.connection_id;
      const first = await ask();
      expect(await ask()).toBe(first);
      seen.add(first);
    }
    expect([...seen].sort()).toEqual(['crm_w1', 'crm_w2']);
  });

  it('refuses a body without lead_data or with other fields', async () => {
    const response = await owner.call('POST', '/api/routing/test', { lead: {}, lead_id: 5 });
    expect(response.status).toBe(400);
    expect(detailFields(response)).toEqual(['lead_data', 'lead_id', 'lead']);
  });
});
