import { describe, expect, it } from 'vitest';
import { customFieldsLimitProblems, pathBeyondDepth } from './json-nesting';

const nest = (levels: number): unknown => {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? { a: value } : [value];
  return value;
};

describe('JSON nesting limits', () => {
  it('finds the first container past the limit, counting objects and arrays alike', () => {
    expect(pathBeyondDepth(nest(3), 3)).toBeUndefined();
    expect(pathBeyondDepth({ ok: 1, deep: nest(3) }, 3)).toEqual(['deep', 'a', 0]);
    expect(pathBeyondDepth('scalar', 0)).toBeUndefined();
  });

  it('checks a value of any depth without overflowing the stack', () => {
    expect(pathBeyondDepth(nest(200_000), 32)).toHaveLength(32);
  });

  it('names each too-deep custom field, and custom_fields when its JSON is too long', () => {
    expect(customFieldsLimitProblems({ fine: nest(10), deep: nest(11) })).toEqual([
      { field: 'custom_fields.deep', message: 'custom_fields.deep must not nest deeper than 10 levels' },
    ]);
    expect(customFieldsLimitProblems({ notes: 'x'.repeat(65_536) })).toEqual([
      { field: 'custom_fields', message: 'custom_fields must be at most 65536 characters of JSON' },
    ]);
    expect(customFieldsLimitProblems({ notes: 'x'.repeat(65_000) })).toEqual([]);
    expect(customFieldsLimitProblems('not an object')).toEqual([]);
  });
});
