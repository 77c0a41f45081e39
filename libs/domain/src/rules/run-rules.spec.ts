import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseEnrichmentRuleCreate,
  parseEnrichmentRulePatch,
  parseRuleReorder,
  type EnrichmentRuleSettings,
} from './enrichment-rule';
import { exportRulesDocument, parseRulesImport } from './rules-document';
import { renderTemplate, runRules, type EnrichmentRule, type RuleRunContext } from './run-rules';
import { titleCase, transformValue, type RuleAction } from './rule-action';

const at = '2026-11-24T10:00:00.000Z';
let counter = 0;
function rule(settings: Partial<EnrichmentRuleSettings> & Pick<EnrichmentRuleSettings, 'actions'>): EnrichmentRule {
  counter++;
  return {
    id: `rule_${counter}`,
    name: `Rule ${counter}`,
    description: null,
    priority: counter,
    enabled: true,
    conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
    created_at: at,
    updated_at: at,
    ...settings,
  };
}

const context: RuleRunContext = {
  lookupTables: new Map([['zip_states', { '90210': 'CA', ' 10001 ': 'NY' }]]),
  calculate: (formula, subject, field) =>
    formula === 'boom'
      ? { ok: false, error: 'division by zero' }
      : { ok: true, value: `${String(subject['first_name'])}@${field}` },
};

describe('runRules', () => {
  it('runs enabled rules in ascending priority, later rules seeing earlier changes', () => {
    const late = rule({
      priority: 20,
      conditions: { operator: 'AND', rules: [{ field: 'enrichment_data.state', operator: 'equals', value: 'CA' }] },
      actions: [{ type: 'set_field', field: 'enrichment_data.region', value: 'west' }],
    });
    const early = rule({
      priority: 10,
      actions: [
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.zip',
        },
      ],
    });
    const off = rule({ priority: 1, enabled: false, actions: [{ type: 'reject', reason: 'never' }] });
    const run = runRules(
      [late, early, off],
      { email: 'a@b.edu', custom_fields: { zip: '90210' }, enrichment_data: {} },
      context,
    );
    expect(run.results.map((result) => result.rule_id)).toEqual([early.id, late.id]);
    expect(run.subject['enrichment_data']).toEqual({ state: 'CA', region: 'west' });
    expect(run.changes).toEqual([
      { rule_id: early.id, changes: { 'enrichment_data.state': { from: null, to: 'CA' } } },
      { rule_id: late.id, changes: { 'enrichment_data.region': { from: null, to: 'west' } } },
    ]);
    expect(run.final_outcome).toBe('accepted');
  });

  it('reports an empty field a rule filled as from: null in actions_taken, as the changes do', () => {
    const tag = rule({
      actions: [
        { type: 'set_field', field: 'source', value: 'Google Ads' },
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.zip',
        },
      ],
    });
    const run = runRules(
      [tag],
      { email: 'a@b.edu', source: null, custom_fields: { zip: '90210' }, enrichment_data: {} },
      context,
    );
    expect(run.results[0]?.actions_taken).toEqual([
      { type: 'set_field', field: 'source', from: null, to: 'Google Ads' },
      { type: 'lookup', field: 'enrichment_data.state', from: null, to: 'CA' },
    ]);
    // A value already there is reported as it was, changed or not.
    const again = runRules(
      [tag],
      { email: 'a@b.edu', source: 'Google Ads', custom_fields: { zip: '90210' }, enrichment_data: { state: 'CA' } },
      context,
    );
    expect(again.results[0]?.actions_taken).toEqual([
      { type: 'set_field', field: 'source', from: 'Google Ads', to: 'Google Ads' },
      { type: 'lookup', field: 'enrichment_data.state', from: 'CA', to: 'CA' },
    ]);
  });

  it('stops at a reject and reports later rules as not matched', () => {
    const reject = rule({
      actions: [
        { type: 'reject', reason: 'test lead' },
        { type: 'set_field', field: 'source', value: 'never' },
      ],
    });
    const later = rule({ actions: [{ type: 'flag', reason: 'x', severity: 'high' }] });
    const run = runRules([reject, later], { email: 'a@b.edu' }, context);
    expect(run).toMatchObject({
      final_outcome: 'rejected',
      rejection_reason: 'test lead',
      rejected_by: reject.id,
      flags: [],
    });
    expect(run.results).toEqual([
      {
        rule_id: reject.id,
        rule_name: reject.name,
        priority: reject.priority,
        matched: true,
        actions_taken: [{ type: 'reject', reason: 'test lead' }],
        processing_stopped: true,
      },
      {
        rule_id: later.id,
        rule_name: later.name,
        priority: later.priority,
        matched: false,
        reason: `processing stopped by rule ${reject.id}`,
      },
    ]);
    expect(run.subject['source']).toBeUndefined();
  });

  it('stop_processing ends later rules without rejecting; flags make the outcome flagged', () => {
    const flag = rule({
      actions: [{ type: 'flag', reason: 'call first', severity: 'high' }, { type: 'stop_processing' }],
    });
    const later = rule({ actions: [{ type: 'set_field', field: 'source', value: 'x' }] });
    const run = runRules([flag, later], { email: 'a@b.edu' }, context);
    expect(run.final_outcome).toBe('flagged');
    expect(run.flags).toEqual([{ rule_id: flag.id, reason: 'call first', severity: 'high' }]);
    expect(run.results[1]).toMatchObject({ matched: false, reason: `processing stopped by rule ${flag.id}` });
  });

  it('reports unmatched conditions, lookup misses and calculation errors without throwing', () => {
    const miss = rule({
      conditions: { operator: 'AND', rules: [{ field: 'first_name', operator: 'equals', value: 'Zed' }] },
      actions: [{ type: 'stop_processing' }],
    });
    const lookup = rule({
      actions: [
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.zip',
        },
        {
          type: 'lookup',
          target_field: 'enrichment_data.x',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.none',
        },
      ],
    });
    const calc = rule({
      actions: [
        { type: 'calculate', field: 'enrichment_data.label', formula: 'boom' },
        { type: 'calculate', field: 'enrichment_data.ok', formula: 'fine' },
      ],
    });
    const run = runRules(
      [miss, lookup, calc],
      { email: 'a@b.edu', first_name: 'Ann', custom_fields: { zip: '99999' }, enrichment_data: { state: 'TX' } },
      context,
    );
    expect(run.results[0]).toMatchObject({ matched: false, reason: 'conditions not met' });
    expect(run.results[1]!.actions_taken).toEqual([
      { type: 'lookup', field: 'enrichment_data.state', note: 'no entry for "99999" in zip_states' },
      { type: 'lookup', field: 'enrichment_data.x', note: 'no entry for null in zip_states' },
    ]);
    expect((run.subject['enrichment_data'] as Record<string, unknown>)['state']).toBe('TX');
    expect(run.results[2]!.actions_taken).toEqual([
      { type: 'calculate', field: 'enrichment_data.label', to: null, note: 'division by zero' },
      { type: 'calculate', field: 'enrichment_data.ok', to: 'Ann@enrichment_data.ok' },
    ]);
  });

  it('flags a rule whose conditions cannot be evaluated for review, naming the rule and the error, and runs the later rules', () => {
    // A pattern saved before the pattern limits existed: it is never compiled, so nobody knows whether it matches.
    const costly = rule({
      name: 'Spam names',
      conditions: { operator: 'AND', rules: [{ field: 'first_name', operator: 'matches_regex', value: '.{0,600}' }] },
      actions: [{ type: 'reject', reason: 'spam' }],
    });
    const later = rule({ actions: [{ type: 'set_field', field: 'source', value: 'checked' }] });
    const run = runRules([costly, later], { email: 'a@b.edu', first_name: 'Ann' }, context);
    const error = 'conditions.rules[0].value: pattern too costly: counted repetitions add up to 600 (at most 500)';
    expect(run.results).toEqual([
      {
        rule_id: costly.id,
        rule_name: 'Spam names',
        priority: costly.priority,
        matched: false,
        reason: 'cannot be evaluated',
        error,
      },
      {
        rule_id: later.id,
        rule_name: later.name,
        priority: later.priority,
        matched: true,
        actions_taken: [expect.objectContaining({ type: 'set_field', field: 'source', to: 'checked' })],
        processing_stopped: false,
      },
    ]);
    expect(run.subject['source']).toBe('checked');
    expect(run.unevaluable).toEqual([{ rule_id: costly.id, rule_name: 'Spam names', error }]);
    expect(run.flags).toEqual([
      {
        rule_id: costly.id,
        rule_name: 'Spam names',
        reason: `rule "Spam names" cannot be evaluated: ${error}`,
        severity: 'high',
        error,
      },
    ]);
    expect(run).toMatchObject({ final_outcome: 'flagged', rejection_reason: null, matched_rule_ids: [later.id] });
  });

  it('flags a rule whose actions cannot be applied (a lookup table gone, a corrupt stored action) and undoes what it did', () => {
    const gone = rule({
      name: 'Tier',
      actions: [
        { type: 'set_field', field: 'enrichment_data.tier', value: 'A' },
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'deleted_table',
          lookup_field: 'custom_fields.zip',
        },
      ],
    });
    const corrupt = rule({
      name: 'Broken',
      actions: [{ type: 'flag', reason: 'vip', severity: 'low' }, { type: 'explode' } as unknown as RuleAction],
    });
    const noField = rule({ name: 'No field', actions: [{ type: 'set_field', value: 'x' } as unknown as RuleAction] });
    const run = runRules(
      [gone, corrupt, noField],
      { email: 'a@b.edu', custom_fields: { zip: '90210' }, enrichment_data: {} },
      context,
    );
    expect(run.unevaluable).toEqual([
      { rule_id: gone.id, rule_name: 'Tier', error: 'actions[1].table_name: no lookup table named deleted_table' },
      { rule_id: corrupt.id, rule_name: 'Broken', error: 'actions[1].type: unknown action type "explode"' },
      {
        rule_id: noField.id,
        rule_name: 'No field',
        error: 'actions[0].field: must be a field name such as email or custom_fields.gpa',
      },
    ]);
    expect(run.results.map((result) => [result.matched, result.reason])).toEqual([
      [false, 'cannot be evaluated'],
      [false, 'cannot be evaluated'],
      [false, 'cannot be evaluated'],
    ]);
    // Nothing of a rule that could not be applied stays: not its field, not its own flag.
    expect(run.subject['enrichment_data']).toEqual({});
    expect(run.changes).toEqual([]);
    expect(run.flags.map((flag) => [flag.rule_id, flag.severity, flag.error])).toEqual([
      [gone.id, 'high', 'actions[1].table_name: no lookup table named deleted_table'],
      [corrupt.id, 'high', 'actions[1].type: unknown action type "explode"'],
      [noField.id, 'high', 'actions[0].field: must be a field name such as email or custom_fields.gpa'],
    ]);
    expect(run.matched_rule_ids).toEqual([]);
    expect(run.final_outcome).toBe('flagged');
  });

  it('flags a rule when evaluating it throws, rather than counting it as not matched', () => {
    const throwing = rule({
      name: 'Formula',
      actions: [{ type: 'calculate', field: 'enrichment_data.score', formula: 'x' }],
    });
    const run = runRules(
      [throwing],
      { email: 'a@b.edu' },
      {
        ...context,
        calculate: () => {
          throw new RangeError('Maximum call stack size exceeded');
        },
      },
    );
    expect(run.unevaluable).toEqual([
      { rule_id: throwing.id, rule_name: 'Formula', error: 'actions[0]: Maximum call stack size exceeded' },
    ]);
    expect(run.final_outcome).toBe('flagged');
    expect(run.subject['enrichment_data']).toBeUndefined();
  });

  it('looks keys up exactly, then ignoring case and spaces', () => {
    const lookup = rule({
      actions: [
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.zip',
        },
      ],
    });
    expect(
      (
        runRules([lookup], { email: 'a@b.edu', custom_fields: { zip: '10001' } }, context).subject[
          'enrichment_data'
        ] as Record<string, unknown>
      )['state'],
    ).toBe('NY');
  });

  it('renders webhook payloads from the lead, keeping the type of a whole-tag value', () => {
    const hook = rule({
      actions: [
        {
          type: 'webhook',
          url: 'https://hooks.example.com/x',
          method: 'POST',
          payload: {
            who: '{{email}}',
            gpa: '{{custom_fields.gpa}}',
            note: 'GPA {{custom_fields.gpa}} for {{first_name}}',
            nested: ['{{custom_fields.none}}'],
          },
        },
      ],
    });
    const run = runRules([hook], { email: 'a@b.edu', custom_fields: { gpa: 3.9 } }, context);
    expect(run.webhooks).toEqual([
      {
        rule_id: hook.id,
        url: 'https://hooks.example.com/x',
        method: 'POST',
        headers: {},
        body: { who: 'a@b.edu', gpa: 3.9, note: 'GPA 3.9 for ', nested: [null] },
      },
    ]);
    expect(renderTemplate('{{ email }}', { email: 'x' })).toBe('x');
  });
});

describe('transformations', () => {
  it.each([
    ['uppercase', 'ann', 'ANN'],
    ['lowercase', 'ANN', 'ann'],
    ['titlecase', "mary-jane o'neil", "Mary-Jane O'Neil"],
    ['trim', '  Ann   Lee ', 'Ann Lee'],
    ['phone_format', '(415) 555-2671', '+14155552671'],
    ['email_domain', 'ann@College.edu', 'college.edu'],
  ] as const)('%s', (transformation, input, output) => {
    expect(transformValue(input, transformation)).toBe(output);
  });

  it('does not apply to what is not text, or not a phone', () => {
    expect(transformValue(12, 'uppercase')).toBeUndefined();
    expect(transformValue('not a phone', 'phone_format')).toBeUndefined();
    expect(titleCase('ÉLODIE DUPONT')).toBe('Élodie Dupont');
  });
});

const valid = {
  name: 'Honors',
  priority: 5,
  conditions: {
    operator: 'OR',
    rules: [
      { field: 'custom_fields.gpa', operator: 'greater_than', value: 3.5 },
      { operator: 'AND', rules: [{ field: 'email', operator: 'is_empty' }] },
    ],
  },
  actions: [{ type: 'flag', reason: 'honors', severity: 'high' }],
};

describe('parsing rules', () => {
  it('refuses a set_field value no lead could hold (a list in a list, a key with a dot), as a submitted custom field is refused', () => {
    const withValue = (value: unknown): string[] => {
      const parsed = parseEnrichmentRuleCreate({
        ...valid,
        actions: [{ type: 'set_field', field: 'enrichment_data.tier', value }],
      });
      return parsed.ok ? [] : parsed.details.map((detail) => `${detail.field}: ${detail.message}`);
    };
    expect(withValue([[1]])).toEqual(['actions[0].value: value must not have a list directly inside a list']);
    expect(withValue({ 'a.b': 1 })).toEqual([
      `actions[0].value: value has the key "a.b": keys may not contain '.' or start with '$'`,
    ]);
    expect(withValue({ a: [1, { b: 2 }] })).toEqual([]);
  });

  it('takes a valid rule with defaults', () => {
    expect(parseEnrichmentRuleCreate(valid)).toEqual({
      ok: true,
      value: { ...valid, description: null, enabled: true },
    });
  });

  it('names every problem with its path', () => {
    const parsed = parseEnrichmentRuleCreate(
      {
        name: '',
        priority: 1.5,
        conditions: {
          operator: 'XOR',
          rules: [
            { field: 'email', operator: 'bigger', value: 1 },
            { field: 'custom_fields.gpa', operator: 'contains', value: '3' },
            { field: 'first_name', operator: 'greater_than', value: 'b' },
            { field: 'email', operator: 'in', value: 'a' },
          ],
        },
        actions: [
          { type: 'explode' },
          { type: 'set_field', field: 'email', value: 'x' },
          { type: 'lookup', target_field: 'enrichment_data.s', table_name: 'nope', lookup_field: 'email' },
        ],
        color: 'red',
      },
      { customFields: [{ name: 'gpa', type: 'number' }], lookupTables: new Set(['zips']) },
    );
    expect(parsed.ok).toBe(false);
    const fields = parsed.ok ? [] : parsed.details.map((detail) => detail.field);
    expect(fields).toEqual([
      'color',
      'name',
      'priority',
      'conditions.operator',
      'conditions.rules[0].operator',
      'conditions.rules[1].operator',
      'conditions.rules[2].value',
      'conditions.rules[2].operator',
      'conditions.rules[3].value',
      'actions[0].type',
      'actions[1].field',
      'actions[2].table_name',
    ]);
  });

  it('refuses missing conditions and actions, empty groups and groups deeper than 10', () => {
    const missing = parseEnrichmentRuleCreate({ name: 'x', priority: 1 });
    expect(missing.ok ? [] : missing.details.map((detail) => detail.field)).toEqual(['conditions', 'actions']);
    let deep: Record<string, unknown> = { field: 'email', operator: 'is_empty' };
    for (let level = 0; level < 11; level++) deep = { operator: 'AND', rules: [deep] };
    const tooDeep = parseEnrichmentRuleCreate({ ...valid, conditions: deep });
    expect(tooDeep.ok ? '' : tooDeep.details[0]!.message).toContain('at most 10 deep');
    const empty = parseEnrichmentRuleCreate({ ...valid, conditions: { operator: 'AND', rules: [] } });
    expect(empty.ok ? [] : empty.details.map((detail) => detail.field)).toEqual(['conditions.rules']);
  });

  it('patches any subset of fields', () => {
    const current = parseEnrichmentRuleCreate(valid);
    if (!current.ok) throw new Error('valid rule refused');
    expect(parseEnrichmentRulePatch({ enabled: false, priority: 9 }, current.value)).toEqual({
      ok: true,
      value: { ...current.value, enabled: false, priority: 9 },
    });
    expect(parseEnrichmentRulePatch({ actions: [] }, current.value).ok).toBe(false);
  });

  it('parses a reorder', () => {
    expect(
      parseRuleReorder({
        rules: [
          { id: 'a', priority: 2 },
          { id: 'b', priority: 1 },
        ],
      }),
    ).toEqual({
      ok: true,
      value: [
        { id: 'a', priority: 2 },
        { id: 'b', priority: 1 },
      ],
    });
    const twice = parseRuleReorder({
      rules: [
        { id: 'a', priority: 2 },
        { id: 'a', priority: 1 },
      ],
    });
    expect(twice.ok ? [] : twice.details).toEqual([{ field: 'rules[1].id', message: 'a is listed twice' }]);
  });
});

describe('properties', () => {
  const json = fc.jsonValue({ maxDepth: 4 });

  it('parsing arbitrary JSON never throws, and yields a rule or details', () => {
    fc.assert(
      fc.property(json, (body) => {
        const parsed = parseEnrichmentRuleCreate(body);
        expect(parsed.ok || parsed.details.length > 0).toBe(true);
      }),
    );
  });

  it('a parsed rule parses to itself, and survives export and import', () => {
    const operators = fc.constantFrom('equals', 'contains', 'starts_with', 'in', 'is_empty', 'greater_than');
    const leaf = fc
      .record({
        field: fc.constantFrom('email', 'first_name', 'custom_fields.gpa', 'enrichment_data.state'),
        operator: operators,
      })
      .map(({ field, operator }) => {
        if (operator === 'is_empty') return { field, operator };
        if (operator === 'in') return { field, operator, value: ['a', 'b'] };
        if (operator === 'greater_than') return { field: 'custom_fields.gpa', operator, value: 3 };
        return { field, operator, value: 'x' };
      });
    const group = fc.record({
      operator: fc.constantFrom('AND', 'OR'),
      rules: fc.array(leaf, { minLength: 1, maxLength: 4 }),
    });
    const settings = fc.record({
      name: fc.string({ minLength: 1, maxLength: 20 }).filter((name) => name.trim() === name && name !== ''),
      priority: fc.nat(1000),
      enabled: fc.boolean(),
      conditions: group,
      actions: fc.constant([{ type: 'set_field', field: 'enrichment_data.tier', value: 'A' }]),
    });
    fc.assert(
      fc.property(settings, (body) => {
        const first = parseEnrichmentRuleCreate(body);
        if (!first.ok) throw new Error(JSON.stringify(first.details));
        expect(parseEnrichmentRuleCreate(first.value)).toEqual(first);
        const document = exportRulesDocument([{ ...first.value, id: 'rule_1', created_at: at, updated_at: at }], at);
        expect(parseRulesImport(JSON.parse(JSON.stringify(document)))).toEqual({ ok: true, value: [first.value] });
      }),
    );
  });

  it('runRules never throws for parsed rules over arbitrary leads', () => {
    const parsed = parseEnrichmentRuleCreate({
      ...valid,
      actions: [
        { type: 'transform', field: 'first_name', transformation: 'titlecase' },
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.zip',
        },
        { type: 'webhook', url: 'https://x.example/y', payload: { a: '{{custom_fields.zip}}' } },
      ],
    });
    if (!parsed.ok) throw new Error('refused');
    const subject = fc.dictionary(
      fc.constantFrom('email', 'first_name', 'custom_fields', 'enrichment_data'),
      fc.jsonValue({ maxDepth: 3 }),
    );
    fc.assert(
      fc.property(subject, (lead) => {
        runRules([{ ...parsed.value, id: 'r', created_at: at, updated_at: at }], lead, context);
      }),
    );
  });
});
