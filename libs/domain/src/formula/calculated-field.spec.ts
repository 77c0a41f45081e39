import { describe, expect, it } from 'vitest';
import {
  calculatedFieldOrder,
  computeCalculatedFields,
  fieldsAffectedBy,
  parseCalculatedFieldCreate,
  parseCalculatedFieldPatch,
  type CalculatedFieldDefinition,
} from './calculated-field';

const field = (
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
const known = { lookupTables: new Set(['programs']) };
const context = { now: new Date('2026-11-24T00:00:00Z'), lookupTables: new Map([['programs', { BSN: 'Nursing' }]]) };

describe('calculated field bodies', () => {
  it('takes a field and names each problem', () => {
    expect(
      parseCalculatedFieldCreate(
        { name: 'full_name', label: 'Full name', formula: '{{first_name}} {{last_name}}', type: 'text' },
        [],
        known,
      ),
    ).toEqual({
      ok: true,
      value: {
        name: 'full_name',
        label: 'Full name',
        formula: '{{first_name}} {{last_name}}',
        type: 'text',
        recalculate_on_change: false,
        description: null,
      },
    });
    const bad = parseCalculatedFieldCreate(
      { name: 'email', label: '', formula: '{{lookup "nope" x}}', type: 'money' },
      [],
      known,
    );
    expect(bad.ok ? [] : bad.details).toEqual([
      { field: 'name', message: 'email is a lead field; choose another name' },
      { field: 'label', message: 'label is required: text of 1-100 characters' },
      { field: 'type', message: 'type is required: one of text, number, date, boolean' },
      { field: 'formula', message: 'no lookup table named nope' },
    ]);
  });

  it('reports parse errors with line and column', () => {
    const parsed = parseCalculatedFieldCreate(
      { name: 'x', label: 'X', formula: 'a\n{{b |}}', type: 'text' },
      [],
      known,
    );
    expect(parsed.ok ? '' : parsed.details[0]!.message).toMatch(/line 2, column 6/);
  });

  it('refuses a cycle, naming it, and a chain deeper than 5', () => {
    const a = field('a', '{{b}}');
    const patched = parseCalculatedFieldPatch({ formula: '{{a}}!' }, field('b', 'x'), [a, field('b', 'x')], known);
    expect(patched.ok ? '' : patched.details).toEqual([
      { field: 'formula', message: 'circular dependency: a -> b -> a' },
    ]);
    const chain = [
      field('f1', '{{first_name}}'),
      field('f2', '{{f1}}'),
      field('f3', '{{f2}}'),
      field('f4', '{{f3}}'),
      field('f5', '{{calculated_fields.f4}}'),
    ];
    expect(calculatedFieldOrder(chain).ok).toBe(true);
    const sixth = parseCalculatedFieldCreate(
      { name: 'f6', label: 'F6', formula: '{{f5}}', type: 'text' },
      chain,
      known,
    );
    expect(sixth.ok ? '' : sixth.details[0]!.message).toContain('at most 5 levels deep');
    expect(parseCalculatedFieldPatch({ name: 'other' }, chain[0]!, chain, known).ok).toBe(false);
  });
});

describe('computing fields', () => {
  it('computes in dependency order, each field seeing the earlier ones, errors as null', () => {
    const fields = [
      field('greeting', 'Dear {{full_name}}'),
      field('full_name', '{{first_name | capitalize}} {{last_name | capitalize}}'),
      field('ratio', '{{custom_fields.credits | divided_by: custom_fields.zero}}', 'number'),
    ];
    const order = calculatedFieldOrder(fields);
    if (!order.ok) throw new Error(order.problem);
    expect(order.order.map((f) => f.name)).toEqual(['full_name', 'greeting', 'ratio']);
    expect(
      computeCalculatedFields(
        order.order,
        { first_name: 'ada', last_name: 'LOVELACE', custom_fields: { credits: 9, zero: 0 } },
        context,
      ),
    ).toEqual({
      values: { full_name: 'Ada Lovelace', greeting: 'Dear Ada Lovelace', ratio: null },
      errors: [{ field: 'ratio', error: 'division by zero' }],
    });
  });

  it('finds the fields a change makes stale, through other fields', () => {
    const fields = [
      field('full_name', '{{first_name}} {{last_name}}'),
      field('greeting', 'Dear {{full_name}}'),
      field('program_name', '{{lookup "programs" program}}'),
      field('gpa_band', '{{custom_fields.gpa | round}}'),
    ];
    expect(fieldsAffectedBy(['last_name'], fields).sort()).toEqual(['full_name', 'greeting']);
    expect(fieldsAffectedBy(['custom_fields.gpa'], fields)).toEqual(['gpa_band']);
    expect(fieldsAffectedBy(['custom_fields'], fields)).toEqual(['gpa_band']);
    expect(fieldsAffectedBy(['utm_source'], fields)).toEqual([]);
  });
});
