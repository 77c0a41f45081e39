import { describe, expect, it } from 'vitest';
import { nextDay } from './lead-filters';
import {
  builderRowsOf,
  conditionRowsOf,
  describeAction,
  describeConditions,
  newAction,
  newCondition,
  ruleAction,
  ruleConditions,
} from './rule-builder';

describe('the rule builder', () => {
  it('makes the documented condition group from its rows', () => {
    const group = ruleConditions('OR', [
      { field: 'email', operator: 'ends_with', value: '@nursing.edu' },
      { field: 'phone', operator: 'is_empty', value: 'ignored' },
      { field: 'utm_source', operator: 'in', value: 'google, bing ,' },
      { field: 'custom_fields.gpa', operator: 'greater_than_or_equal', value: '3.5' },
    ]);
    expect(group).toEqual({
      operator: 'OR',
      rules: [
        { field: 'email', operator: 'ends_with', value: '@nursing.edu' },
        { field: 'phone', operator: 'is_empty' },
        { field: 'utm_source', operator: 'in', value: ['google', 'bing'] },
        { field: 'custom_fields.gpa', operator: 'greater_than_or_equal', value: 3.5 },
      ],
    });
    // A date compared by order stays text.
    expect(
      ruleConditions('AND', [
        { ...newCondition(), field: 'custom_fields.start', operator: 'less_than', value: '2026-09-01' },
      ]).rules[0],
    ).toMatchObject({ value: '2026-09-01' });
  });

  it('makes each documented action type with only its fields', () => {
    const row = newAction();
    expect(ruleAction({ ...row, type: 'set_field', field: 'program', value: 'BSN' })).toEqual({
      type: 'set_field',
      field: 'program',
      value: 'BSN',
    });
    expect(ruleAction({ ...row, type: 'transform', field: 'first_name', value: '' })).toEqual({
      type: 'transform',
      field: 'first_name',
      transformation: 'titlecase',
    });
    expect(
      ruleAction({ ...row, type: 'calculate', field: 'custom_fields.full', value: '{{first_name}} {{last_name}}' }),
    ).toEqual({ type: 'calculate', field: 'custom_fields.full', formula: '{{first_name}} {{last_name}}' });
    expect(ruleAction({ ...row, type: 'flag', reason: 'check', severity: 'high' })).toEqual({
      type: 'flag',
      reason: 'check',
      severity: 'high',
    });
    expect(ruleAction({ ...row, type: 'reject', reason: 'test lead' })).toEqual({
      type: 'reject',
      reason: 'test lead',
    });
    expect(
      ruleAction({
        ...row,
        type: 'lookup',
        field: 'enrichment_data.state',
        table_name: 'zip_states',
        lookup_field: 'custom_fields.zip',
      }),
    ).toEqual({
      type: 'lookup',
      target_field: 'enrichment_data.state',
      table_name: 'zip_states',
      lookup_field: 'custom_fields.zip',
    });
    expect(ruleAction({ ...row, type: 'webhook', url: 'https://hooks.example.edu/x', method: 'PUT' })).toEqual({
      type: 'webhook',
      url: 'https://hooks.example.edu/x',
      method: 'PUT',
    });
    expect(ruleAction({ ...row, type: 'stop_processing' })).toEqual({ type: 'stop_processing' });
  });

  it('describes a stored rule in one line', () => {
    const conditions = {
      operator: 'AND',
      rules: [
        { field: 'email', operator: 'contains', value: 'edu' },
        {
          operator: 'OR',
          rules: [
            { field: 'phone', operator: 'is_empty' },
            { field: 'source', operator: 'in', value: ['a', 'b'] },
          ],
        },
      ],
    };
    expect(describeConditions(conditions)).toBe('email contains "edu" AND (phone is_empty OR source in ["a","b"])');
    expect(describeAction({ type: 'set_field', field: 'program', value: 'BSN' })).toBe(
      'set_field field="program" value="BSN"',
    );
  });
});

describe('the leads filter', () => {
  it('includes the whole "until" day (end_date is exclusive)', () => {
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(nextDay('not a date')).toBe('not a date');
  });
});

describe('editing a stored rule in the builder', () => {
  it('gives back rows that make the same rule', () => {
    const stored = {
      conditions: {
        operator: 'OR',
        rules: [
          { field: 'email', operator: 'ends_with', value: '@nursing.edu' },
          { field: 'utm_source', operator: 'in', value: ['google', 'bing'] },
          { field: 'phone', operator: 'is_empty' },
        ],
      },
      actions: [
        { type: 'set_field', field: 'program', value: 'BSN' },
        { type: 'flag', reason: 'check', severity: 'high' },
        {
          type: 'lookup',
          target_field: 'enrichment_data.state',
          table_name: 'zip_states',
          lookup_field: 'custom_fields.zip',
        },
      ],
    };
    const rows = builderRowsOf(stored);
    expect(rows).not.toBeNull();
    expect(ruleConditions(rows!.operator, rows!.conditions)).toEqual(stored.conditions);
    expect(rows!.actions.map(ruleAction)).toEqual(stored.actions);
  });

  it('leaves to the API what the builder cannot show (nested groups, payloads, non-text values)', () => {
    const leaf = { field: 'email', operator: 'contains', value: 'edu' };
    const setField = { type: 'set_field', field: 'program', value: 'BSN' };
    expect(
      builderRowsOf({
        conditions: { operator: 'AND', rules: [{ operator: 'OR', rules: [leaf] }] },
        actions: [setField],
      }),
    ).toBeNull();
    expect(
      builderRowsOf({
        conditions: { operator: 'AND', rules: [leaf] },
        actions: [{ type: 'webhook', url: 'https://x.edu', payload: { a: 1 } }],
      }),
    ).toBeNull();
    expect(
      builderRowsOf({
        conditions: { operator: 'AND', rules: [leaf] },
        actions: [{ type: 'set_field', field: 'custom_fields.n', value: 3 }],
      }),
    ).toBeNull();
  });

  it('reads a condition group back into rows for the routing rules too (none: every lead)', () => {
    expect(conditionRowsOf(null)).toEqual({ operator: 'AND', conditions: [] });
    expect(
      conditionRowsOf({
        operator: 'OR',
        rules: [{ field: 'program_interest', operator: 'in', value: ['Nursing', 'Biology'] }],
      }),
    ).toEqual({
      operator: 'OR',
      conditions: [{ field: 'program_interest', operator: 'in', value: 'Nursing, Biology' }],
    });
    expect(conditionRowsOf({ operator: 'AND', rules: [{ operator: 'OR', rules: [] }] })).toBeNull();
  });
});
