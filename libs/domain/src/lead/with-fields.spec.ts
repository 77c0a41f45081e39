import { describe, expect, it } from 'vitest';
import { withFields } from './with-fields';

describe('withFields', () => {
  it('copies the record with the fields set over it, leaving the record as it was', () => {
    const lead = { _id: 'l1', status: 'new', version: 1, tags: ['a'] };
    const next = withFields(lead, { status: 'active', version: 2 });
    expect(next).toEqual({ _id: 'l1', status: 'active', version: 2, tags: ['a'] });
    expect(lead).toEqual({ _id: 'l1', status: 'new', version: 1, tags: ['a'] });
    expect(next).not.toBe(lead);
  });

  it('keeps a field set to undefined as a spread does', () => {
    const next = withFields<{ a: number; b?: number }>({ a: 1, b: 2 }, { b: undefined });
    expect(Object.keys(next)).toEqual(['a', 'b']);
    expect(next.b).toBeUndefined();
  });

  it('keeps an own __proto__ key as data, never as the copy prototype', () => {
    const parsed = JSON.parse('{"_id":"l1","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const next = withFields<Record<string, unknown>>(parsed, { status: 'new' });
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect((next as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.hasOwn(next, '__proto__')).toBe(true);
    expect(next['status']).toBe('new');

    const fromFields = withFields<Record<string, unknown>>({ _id: 'l2' }, parsed);
    expect(Object.getPrototypeOf(fromFields)).toBe(Object.prototype);
    expect(Object.hasOwn(fromFields, '__proto__')).toBe(true);
  });
});
