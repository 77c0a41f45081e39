import { describe, expect, it } from 'vitest';
import type { CalculatedFieldDefinition } from '../formula';
import type { EnrichmentRule } from '../rules';
import { enrichLead, ruleSubjectOf, type EnrichmentConfig } from './enrich-lead';
import { changedPaths, recalculateLead } from './recalculate';

const at = '2026-11-24T00:00:00.000Z';
const now = new Date(at);
const calc = (
  name: string,
  formula: string,
  type: CalculatedFieldDefinition['type'] = 'text',
): CalculatedFieldDefinition => ({
  id: `calc_${name}`,
  name,
  label: name,
  formula,
  type,
  recalculate_on_change: false,
  description: null,
});
const rule = (id: string, priority: number, rest: Pick<EnrichmentRule, 'conditions' | 'actions'>): EnrichmentRule => ({
  id,
  name: id,
  description: null,
  priority,
  enabled: true,
  created_at: at,
  updated_at: at,
  ...rest,
});

const config: EnrichmentConfig = {
  rules: [
    rule('rule_honors', 1, {
      conditions: { operator: 'AND', rules: [{ field: 'gpa_band', operator: 'equals', value: 'high' }] },
      actions: [{ type: 'set_field', field: 'last_name', value: 'Honors' }],
    }),
    rule('rule_score', 2, {
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
      actions: [{ type: 'calculate', field: 'custom_fields.score', formula: '{{custom_fields.gpa | times: 10}}' }],
    }),
  ],
  lookupTables: [],
  calculatedFields: [
    calc('label', '{{first_name}} {{last_name}}'),
    calc('gpa_band', '{{if custom_fields.gpa >= 3.5}}high{{else}}normal{{/if}}'),
  ],
  customFieldTypes: new Map([['score', 'number']]),
};

describe('enrichLead', () => {
  it('computes calculated fields first (rules read them), runs rules, then computes them again on the result', () => {
    const outcome = enrichLead(
      ruleSubjectOf({ email: 'a@b.edu', first_name: 'Ada', last_name: 'Lee', custom_fields: { gpa: 3.8 } }),
      config,
      now,
    );
    expect(outcome.run.matched_rule_ids).toEqual(['rule_honors', 'rule_score']);
    expect(outcome.calculated).toEqual({ label: 'Ada Honors', gpa_band: 'high' });
    expect(outcome.subject['custom_fields']).toEqual({ gpa: 3.8, score: 38 });
  });

  it('gives a calculate action into a number custom field a number', () => {
    const outcome = enrichLead(ruleSubjectOf({ email: 'a@b.edu', custom_fields: { gpa: '3.1' } }), config, now);
    expect((outcome.subject['custom_fields'] as Record<string, unknown>)['score']).toBe(31);
  });
});

describe('recalculateLead', () => {
  const fields = [
    calc('label', '{{first_name}} {{last_name}}'),
    calc('shout', '{{label | upcase}}'),
    calc('gpa_band', '{{custom_fields.gpa | round}}', 'number'),
  ];

  it('recomputes only the fields asked for and the fields that use them', () => {
    const lead = {
      first_name: 'Ada',
      last_name: 'Byron',
      custom_fields: { gpa: 3.6 },
      calculated_fields: { label: 'Ada Lee', shout: 'ADA LEE', gpa_band: 9 },
    };
    expect(recalculateLead({ lead, fields, lookupTables: [], only: ['label'], now })).toEqual({
      values: { label: 'Ada Byron', shout: 'ADA BYRON', gpa_band: 9 },
      errors: [],
    });
    expect(recalculateLead({ lead, fields, lookupTables: [], now })?.values).toEqual({
      label: 'Ada Byron',
      shout: 'ADA BYRON',
      gpa_band: 4,
    });
    expect(
      recalculateLead({
        lead: { ...lead, calculated_fields: { label: 'Ada Byron', shout: 'ADA BYRON', gpa_band: 4 } },
        fields,
        lookupTables: [],
        now,
      }),
    ).toBeNull();
  });

  it('names the changed custom fields one by one', () => {
    expect(
      changedPaths({
        last_name: { old: 'a', new: 'b' },
        custom_fields: { old: { gpa: 3, zip: '1' }, new: { gpa: 4, zip: '1', new_one: true } },
      }),
    ).toEqual(['last_name', 'custom_fields.gpa', 'custom_fields.new_one']);
  });
});
