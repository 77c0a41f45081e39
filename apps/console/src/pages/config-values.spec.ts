import { describe, expect, it } from 'vitest';
import { fieldMappingOf, formatMappings, parseMappings, typedValue } from './config-values';

describe('configuration form values', () => {
  it('reads a typed value as JSON when it is JSON, else as text', () => {
    expect(typedValue('5')).toBe(5);
    expect(typedValue('[2, 50]')).toEqual([2, 50]);
    expect(typedValue('{"field": "first_name"}')).toEqual({ field: 'first_name' });
    expect(typedValue('^[0-9]{5}$')).toBe('^[0-9]{5}$');
    expect(typedValue('  ')).toBeUndefined();
  });

  it('reads lookup mappings as key = value lines', () => {
    expect(parseMappings('10001 = NY\n90210=CA\n\n60601, IL\nnonsense')).toEqual({
      '10001': 'NY',
      '90210': 'CA',
      '60601': 'IL',
    });
    expect(parseMappings(formatMappings({ a: 'x = y', b: '' }))).toEqual({ a: 'x = y', b: '' });
  });

  it('reads a CRM field mapping as CRM field = lead field lines, refusing a line without one', () => {
    expect(fieldMappingOf('FirstName = first_name\n\nLeadSource=source')).toEqual({
      FirstName: 'first_name',
      LeadSource: 'source',
    });
    expect(fieldMappingOf('  \n')).toBeNull();
    expect(() => fieldMappingOf('FirstName first_name')).toThrow(
      '“FirstName first_name” is not “CRM field = lead field”',
    );
  });
});
