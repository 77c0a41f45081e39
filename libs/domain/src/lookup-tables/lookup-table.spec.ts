import { describe, expect, it } from 'vitest';
import { parseLookupTableCreate, parseLookupTablePatch } from './lookup-table';

describe('lookup table bodies', () => {
  it('takes a name, a description and string mappings', () => {
    expect(
      parseLookupTableCreate({
        name: 'zip_to_state',
        description: 'US zips',
        mappings: { '90210': 'CA', '10001': 'NY' },
      }),
    ).toEqual({
      ok: true,
      value: { name: 'zip_to_state', description: 'US zips', mappings: { '90210': 'CA', '10001': 'NY' } },
    });
  });

  it('names every invalid field once', () => {
    const parsed = parseLookupTableCreate({ name: 'bad name!', mappings: { a: 1, b: 'ok' }, colour: 'red' });
    expect(parsed).toEqual({
      ok: false,
      details: [
        { field: 'colour', message: expect.stringContaining('not a lookup table field') },
        { field: 'name', message: expect.stringContaining('name is required') },
        { field: 'mappings.a', message: expect.stringContaining('strings') },
      ],
    });
  });

  it('requires mappings on creation and replaces them whole on a patch', () => {
    expect(parseLookupTableCreate({ name: 't' })).toMatchObject({ ok: false, details: [{ field: 'mappings' }] });
    const current = { name: 't', description: null, mappings: { a: 'x', b: 'y' } };
    expect(parseLookupTablePatch({ mappings: { c: 'z' } }, current)).toEqual({
      ok: true,
      value: { name: 't', description: null, mappings: { c: 'z' } },
    });
    expect(parseLookupTablePatch({ description: 'd' }, current)).toEqual({
      ok: true,
      value: { ...current, description: 'd' },
    });
  });
});
