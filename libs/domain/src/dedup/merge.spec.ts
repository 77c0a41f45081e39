import { describe, expect, it } from 'vitest';
import { mergeLeads, type MergeableLead } from './merge';

const original: MergeableLead = {
  email: 'john.smith@gmail.com',
  first_name: 'John',
  last_name: null,
  phone: '+15551234567',
  program: '',
  utm_source: 'google',
  source: 'vendor_a_form',
  custom_fields: { campus: 'North', term: null },
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-02T00:00:00.000Z',
};

describe('mergeLeads', () => {
  it('fills empty fields, lets newer profile values win, keeps source and attribution', () => {
    const incoming: MergeableLead = {
      email: 'johnsmith@gmail.com',
      first_name: 'Johnny',
      last_name: 'Smith',
      phone: '',
      program: 'MBA',
      utm_source: 'facebook',
      source: 'vendor_b_api',
      custom_fields: { campus: 'South', term: 'Fall 2025', new_key: 1 },
      created_at: '2025-01-10T00:00:00.000Z',
    };
    const { patch, changes } = mergeLeads(original, incoming);
    expect(patch).toEqual({
      first_name: 'Johnny',
      last_name: 'Smith',
      program: 'MBA',
      custom_fields: { campus: 'South', term: 'Fall 2025', new_key: 1 },
    });
    expect(patch).not.toHaveProperty('source');
    expect(changes).toEqual({
      first_name: { old: 'John', new: 'Johnny' },
      last_name: { old: null, new: 'Smith' },
      program: { old: '', new: 'MBA' },
      'custom_fields.campus': { old: 'North', new: 'South' },
      'custom_fields.term': { old: null, new: 'Fall 2025' },
      'custom_fields.new_key': { old: null, new: 1 },
    });
  });

  it.each([
    ['submitted before the original was last updated', '2025-01-01T12:00:00.000Z'],
    ['submitted at the same instant', '2025-01-02T00:00:00.000Z'],
  ])('only fills empty fields when the incoming lead was %s', (_name, created_at) => {
    const { patch } = mergeLeads(original, {
      first_name: 'Johnny',
      last_name: 'Smith',
      custom_fields: { campus: 'South' },
      created_at,
    });
    expect(patch).toEqual({ last_name: 'Smith' });
  });

  it('changes nothing when the incoming lead adds nothing', () => {
    expect(
      mergeLeads(original, { first_name: 'John', phone: '  ', source: 'x', custom_fields: { campus: 'North' } }),
    ).toEqual({ patch: {}, changes: {} });
  });

  it('never touches source, even when the original has none', () => {
    expect(mergeLeads({ ...original, source: null }, { source: 'vendor_b_api' }).patch).toEqual({});
  });
});
