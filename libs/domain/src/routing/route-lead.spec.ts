import { describe, expect, it } from 'vitest';
import { routeLead, stableHash, weightedTarget, type RoutableLead } from './route-lead';
import { DEFAULT_ROUTING_SETTINGS, MATCH_EVERY_LEAD, type RoutingRule, type RoutingTarget } from './routing-rule';

let created = 0;
function rule(overrides: Partial<RoutingRule> & Pick<RoutingRule, 'id'>): RoutingRule {
  created += 1;
  return {
    name: overrides.id,
    description: null,
    priority: 0,
    enabled: true,
    conditions: MATCH_EVERY_LEAD,
    targets: [target('crm_a')],
    distribution: 'single',
    created_at: `2026-01-01T00:00:${String(created).padStart(2, '0')}.000Z`,
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function target(connection: string, extra: Partial<RoutingTarget> = {}): RoutingTarget {
  return { connection_id: connection, owner: null, queue: null, weight: null, ...extra };
}

function lead(id: string, fields: Record<string, unknown> = {}): RoutableLead {
  return { id, subject: { email: `${id}@example.edu`, custom_fields: {}, enrichment_data: {}, ...fields } };
}

const californians = {
  operator: 'AND' as const,
  rules: [{ field: 'custom_fields.state', operator: 'equals' as const, value: 'CA' }],
};
const noConnections = { connections: [] };

describe('routeLead', () => {
  it('lets the first matching rule in ascending priority win, whatever order the rules are listed in', () => {
    const rules = [
      rule({ id: 'rr_catch_all', priority: 50, targets: [target('crm_general')] }),
      rule({
        id: 'rr_ca',
        priority: 10,
        conditions: californians,
        targets: [target('crm_west', { owner: 'ana@school.edu', queue: 'west' })],
      }),
    ];
    expect(
      routeLead(lead('lead_1', { custom_fields: { state: 'ca' } }), rules, DEFAULT_ROUTING_SETTINGS, noConnections),
    ).toEqual({
      rule_id: 'rr_ca',
      reason: 'rule',
      targets: [{ connection_id: 'crm_west', owner: 'ana@school.edu', queue: 'west' }],
      position: null,
    });
    expect(
      routeLead(lead('lead_2', { custom_fields: { state: 'NY' } }), rules, DEFAULT_ROUTING_SETTINGS, noConnections)
        .rule_id,
    ).toBe('rr_catch_all');
  });

  it('breaks priority ties by creation time', () => {
    const first = rule({ id: 'rr_z_first', targets: [target('crm_1')] });
    const second = rule({ id: 'rr_a_second', targets: [target('crm_2')] });
    expect(routeLead(lead('lead_1'), [second, first], DEFAULT_ROUTING_SETTINGS, noConnections).rule_id).toBe(
      'rr_z_first',
    );
  });

  it('skips disabled rules', () => {
    const rules = [
      rule({ id: 'rr_off', priority: 1, enabled: false, targets: [target('crm_off')] }),
      rule({ id: 'rr_on', priority: 2, targets: [target('crm_on')] }),
    ];
    expect(routeLead(lead('lead_1'), rules, DEFAULT_ROUTING_SETTINGS, noConnections)).toMatchObject({
      rule_id: 'rr_on',
      targets: [{ connection_id: 'crm_on' }],
    });
  });

  it('sends an unmatched lead to the default targets, all of them', () => {
    const settings = {
      default_targets: [
        { connection_id: 'crm_1', owner: 'desk', queue: null },
        { connection_id: 'crm_2', owner: null, queue: 'triage' },
      ],
      when_unmatched: 'all_connections' as const,
    };
    expect(
      routeLead(
        lead('lead_1', { custom_fields: { state: 'NY' } }),
        [rule({ id: 'rr_ca', conditions: californians })],
        settings,
        { connections: ['crm_3'] },
      ),
    ).toEqual({
      rule_id: null,
      reason: 'default',
      targets: settings.default_targets,
      position: null,
    });
  });

  it('with no rule matching and no default, sends to every enabled CRM connection, or nowhere when told so', () => {
    const state = { connections: ['crm_b', 'crm_a'] };
    expect(routeLead(lead('lead_1'), [], DEFAULT_ROUTING_SETTINGS, state)).toEqual({
      rule_id: null,
      reason: 'all_connections',
      targets: [
        { connection_id: 'crm_a', owner: null, queue: null },
        { connection_id: 'crm_b', owner: null, queue: null },
      ],
      position: null,
    });
    expect(routeLead(lead('lead_1'), [], { default_targets: [], when_unmatched: 'none' }, state)).toEqual({
      rule_id: null,
      reason: 'none',
      targets: [],
      position: null,
    });
    expect(routeLead(lead('lead_1'), [], DEFAULT_ROUTING_SETTINGS, noConnections).reason).toBe('none');
  });

  it('sends to every target of an `all` rule', () => {
    const fanOut = rule({
      id: 'rr_all',
      distribution: 'all',
      targets: [target('crm_sf'), target('crm_hs', { owner: 'x' })],
    });
    expect(
      routeLead(lead('lead_1'), [fanOut], DEFAULT_ROUTING_SETTINGS, noConnections).targets.map((t) => t.connection_id),
    ).toEqual(['crm_sf', 'crm_hs']);
  });

  it('takes round-robin targets in turn by the position the counter assigned', () => {
    const counsellors = rule({
      id: 'rr_rr',
      distribution: 'round_robin',
      targets: ['ana', 'ben', 'cy'].map((owner) => target('crm_1', { owner })),
    });
    const owners = [0, 1, 2, 3, 4, 5, 6].map((position) =>
      routeLead(lead(`lead_${position}`), [counsellors], DEFAULT_ROUTING_SETTINGS, { connections: [], position }),
    );
    expect(owners.map((decision) => decision.targets[0]?.owner)).toEqual([
      'ana',
      'ben',
      'cy',
      'ana',
      'ben',
      'cy',
      'ana',
    ]);
    expect(owners.map((decision) => decision.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // The same lead at the same position (a redelivery re-using its stored position) lands on the same owner.
    expect(
      routeLead(lead('lead_x'), [counsellors], DEFAULT_ROUTING_SETTINGS, { connections: [], position: 4 }).targets[0]
        ?.owner,
    ).toBe('ben');
  });

  it('spreads weighted leads within 3 points of the weights over 20 000 ids, and routes each id the same way every time', () => {
    const split = rule({
      id: 'rr_w',
      distribution: 'weighted',
      targets: [target('crm_1', { weight: 70 }), target('crm_2', { weight: 20 }), target('crm_3', { weight: 10 })],
    });
    const counts = new Map<string, number>();
    const first = new Map<string, string>();
    for (let index = 0; index < 20_000; index++) {
      const id = `lead_${index.toString(36)}${(index * 7919).toString(36)}`;
      const connection = routeLead(lead(id), [split], DEFAULT_ROUTING_SETTINGS, noConnections).targets[0]!
        .connection_id;
      counts.set(connection, (counts.get(connection) ?? 0) + 1);
      first.set(id, connection);
    }
    expect(Math.abs((counts.get('crm_1') ?? 0) / 20_000 - 0.7)).toBeLessThan(0.03);
    expect(Math.abs((counts.get('crm_2') ?? 0) / 20_000 - 0.2)).toBeLessThan(0.03);
    expect(Math.abs((counts.get('crm_3') ?? 0) / 20_000 - 0.1)).toBeLessThan(0.03);
    for (const [id, connection] of [...first].slice(0, 500))
      expect(routeLead(lead(id), [split], DEFAULT_ROUTING_SETTINGS, noConnections).targets[0]!.connection_id).toBe(
        connection,
      );
  });

  it('hashes stably (the same number on every run and machine)', () => {
    // Fixed values: a change of the hash would move every weighted lead already routed.
    expect(stableHash('rr_w:lead_abc')).toBe(2679805257);
    expect(stableHash('')).toBe(2872998923);
    expect(weightedTarget([{ weight: 1, id: 'only' }], 'anything').id).toBe('only');
    expect(
      weightedTarget(
        [
          { weight: 0, id: 'a' },
          { weight: 5, id: 'b' },
        ],
        'k',
      ).id,
    ).toBe('b');
  });

  it('matches with the enrichment evaluator (case-insensitive text, nested groups)', () => {
    const either = rule({
      id: 'rr_or',
      conditions: {
        operator: 'OR',
        rules: [
          { field: 'utm_source', operator: 'equals', value: 'Google' },
          { operator: 'AND', rules: [{ field: 'program_interest', operator: 'contains', value: 'nurs' }] },
        ],
      },
    });
    expect(
      routeLead(lead('lead_1', { utm_source: ' google ' }), [either], DEFAULT_ROUTING_SETTINGS, noConnections).reason,
    ).toBe('rule');
    expect(
      routeLead(lead('lead_2', { program_interest: 'BSc Nursing' }), [either], DEFAULT_ROUTING_SETTINGS, noConnections)
        .reason,
    ).toBe('rule');
    expect(
      routeLead(lead('lead_3', { utm_source: 'bing' }), [either], DEFAULT_ROUTING_SETTINGS, noConnections).reason,
    ).toBe('none');
  });
});
