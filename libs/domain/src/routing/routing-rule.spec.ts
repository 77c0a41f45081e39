import { describe, expect, it } from 'vitest';
import {
  parseRoutingRuleCreate,
  parseRoutingRulePatch,
  parseRoutingSettings,
  type RoutingRuleSettings,
} from './routing-rule';

const valid = {
  name: ' West coast ',
  priority: 10,
  conditions: { operator: 'AND', rules: [{ field: 'custom_fields.state', operator: 'in', value: ['CA', 'OR'] }] },
  targets: [{ connection_id: 'crm_1', owner: 'ana@school.edu' }],
};

function fieldsOf(result: { ok: boolean; details?: Array<{ field: string }> }): string[] {
  return 'details' in result && result.details ? result.details.map((detail) => detail.field) : [];
}

describe('routing rule bodies', () => {
  it('parses a rule with defaults: enabled, single, owner and queue null when not given', () => {
    const parsed = parseRoutingRuleCreate(valid);
    expect(parsed).toEqual({
      ok: true,
      value: {
        name: 'West coast',
        description: null,
        priority: 10,
        enabled: true,
        conditions: { operator: 'AND', rules: [{ field: 'custom_fields.state', operator: 'in', value: ['CA', 'OR'] }] },
        targets: [{ connection_id: 'crm_1', owner: 'ana@school.edu', queue: null, weight: null }],
        distribution: 'single',
      },
    });
  });

  it('takes a rule without conditions as one that matches every lead', () => {
    const { conditions: _conditions, ...catchAll } = valid;
    const parsed = parseRoutingRuleCreate(catchAll);
    expect(parsed.ok && parsed.value.conditions).toEqual({ operator: 'AND', rules: [] });
    const explicit = parseRoutingRuleCreate({ ...catchAll, conditions: null });
    expect(explicit.ok && explicit.value.conditions).toEqual({ operator: 'AND', rules: [] });
  });

  it('names every problem with its path: unknown fields, bad conditions, bad targets', () => {
    const parsed = parseRoutingRuleCreate({
      name: '',
      colour: 'red',
      conditions: { operator: 'XOR', rules: [{ field: 'custom_fields.state', operator: 'near', value: 'CA' }] },
      targets: [{ connection_id: '', owner: 5, extra: true }],
      distribution: 'random',
    });
    expect(fieldsOf(parsed).sort()).toEqual(
      [
        'colour',
        'conditions.operator',
        'conditions.rules[0].operator',
        'distribution',
        'name',
        'targets[0].connection_id',
        'targets[0].extra',
        'targets[0].owner',
      ].sort(),
    );
  });

  it('requires targets that fit the distribution', () => {
    expect(fieldsOf(parseRoutingRuleCreate({ ...valid, targets: [] }))).toEqual(['targets']);
    expect(
      fieldsOf(parseRoutingRuleCreate({ ...valid, targets: [{ connection_id: 'crm_1' }, { connection_id: 'crm_2' }] })),
    ).toEqual(['targets']);
    expect(
      fieldsOf(
        parseRoutingRuleCreate({
          ...valid,
          distribution: 'all',
          targets: [{ connection_id: 'crm_1' }, { connection_id: 'crm_1' }],
        }),
      ),
    ).toEqual(['targets[1].connection_id']);
    expect(
      fieldsOf(
        parseRoutingRuleCreate({
          ...valid,
          distribution: 'weighted',
          targets: [{ connection_id: 'crm_1', weight: 3 }, { connection_id: 'crm_2' }],
        }),
      ),
    ).toEqual(['targets[1].weight']);
    expect(
      fieldsOf(
        parseRoutingRuleCreate({
          ...valid,
          distribution: 'weighted',
          targets: [{ connection_id: 'crm_1', weight: 0 }],
        }),
      ),
    ).toEqual(['targets[0].weight']);
    expect(
      fieldsOf(
        parseRoutingRuleCreate({
          ...valid,
          distribution: 'round_robin',
          targets: [{ connection_id: 'crm_1', weight: 3 }],
        }),
      ),
    ).toEqual(['targets[0].weight']);
    // Round-robin among owners of one CRM: the same connection may appear with different owners.
    expect(
      parseRoutingRuleCreate({
        ...valid,
        distribution: 'round_robin',
        targets: [
          { connection_id: 'crm_1', owner: 'ana' },
          { connection_id: 'crm_1', owner: 'ben' },
        ],
      }).ok,
    ).toBe(true);
  });

  it('checks a patch against the rule it changes', () => {
    const current: RoutingRuleSettings = {
      name: 'r',
      description: null,
      priority: 0,
      enabled: true,
      conditions: { operator: 'AND', rules: [] },
      targets: [
        { connection_id: 'crm_1', owner: null, queue: null, weight: null },
        { connection_id: 'crm_2', owner: null, queue: null, weight: null },
      ],
      distribution: 'round_robin',
    };
    expect(parseRoutingRulePatch({ enabled: false }, current)).toEqual({
      ok: true,
      value: { ...current, enabled: false },
    });
    expect(fieldsOf(parseRoutingRulePatch({ distribution: 'single' }, current))).toEqual(['distribution']);
    expect(fieldsOf(parseRoutingRulePatch({ distribution: 'weighted' }, current))).toEqual([
      'distribution',
      'distribution',
    ]);
    expect(
      parseRoutingRulePatch(
        {
          distribution: 'weighted',
          targets: [
            { connection_id: 'crm_1', weight: 1 },
            { connection_id: 'crm_2', weight: 2 },
          ],
        },
        current,
      ).ok,
    ).toBe(true);
    expect(fieldsOf(parseRoutingRulePatch({ name: null }, current))).toEqual(['name']);
  });
});

describe('routing settings bodies', () => {
  it('fills what is left out with the defaults', () => {
    expect(parseRoutingSettings({})).toEqual({
      ok: true,
      value: { default_targets: [], when_unmatched: 'all_connections' },
    });
    expect(
      parseRoutingSettings({ default_targets: [{ connection_id: 'crm_1', queue: 'triage' }], when_unmatched: 'none' }),
    ).toEqual({
      ok: true,
      value: { default_targets: [{ connection_id: 'crm_1', owner: null, queue: 'triage' }], when_unmatched: 'none' },
    });
  });

  it('refuses weights, repeated connections, unknown fields and values', () => {
    expect(fieldsOf(parseRoutingSettings({ default_targets: [{ connection_id: 'crm_1', weight: 2 }] }))).toEqual([
      'default_targets[0].weight',
    ]);
    expect(
      fieldsOf(parseRoutingSettings({ default_targets: [{ connection_id: 'crm_1' }, { connection_id: 'crm_1' }] })),
    ).toEqual(['default_targets[1].connection_id']);
    expect(fieldsOf(parseRoutingSettings({ when_unmatched: 'drop', fallback: 1 }))).toEqual([
      'fallback',
      'when_unmatched',
    ]);
    expect(fieldsOf(parseRoutingSettings([]))).toEqual(['(body)']);
  });
});
