import { describe, expect, it } from 'vitest';
import { type BaseDocument } from '@leadstream/ports';
import { applyUpdate, seedFromFilter, validateUpdate } from './apply-update';

describe('applyUpdate', () => {
  const doc: BaseDocument = { _id: 'a', n: 1, list: [1], nested: { x: 'y' }, at: new Date('2024-01-01T00:00:00.000Z') };

  it('does not modify its input', () => {
    const before = structuredClone(doc);
    applyUpdate(doc, { $set: { 'nested.x': 'z' }, $push: { list: 2 }, $inc: { n: 1 } }, { inserting: false });
    expect(doc).toEqual(before);
  });

  it('creates missing parents for $set, $inc and $push', () => {
    const out = applyUpdate(
      { _id: 'a' },
      { $set: { 'a.b.c': 1 }, $inc: { 'm.n': 2 }, $push: { 'p.q': 'v' } },
      { inserting: false },
    );
    expect(out).toEqual({ _id: 'a', a: { b: { c: 1 } }, m: { n: 2 }, p: { q: ['v'] } });
  });

  it('keeps Dates as Dates', () => {
    const at = new Date('2025-05-05T00:00:00.000Z');
    const out = applyUpdate(doc, { $set: { later: at } }, { inserting: false });
    expect(out['later']).toBeInstanceOf(Date);
    expect(out['at']).toEqual(doc['at']);
  });

  it('applies $setOnInsert only when inserting', () => {
    expect(applyUpdate({ _id: 'a' }, { $setOnInsert: { c: 1 } }, { inserting: false })).toEqual({ _id: 'a' });
    expect(applyUpdate({ _id: 'a' }, { $setOnInsert: { c: 1 } }, { inserting: true })).toEqual({ _id: 'a', c: 1 });
  });

  it('$unset of a missing path is a no-op', () => {
    expect(applyUpdate({ _id: 'a' }, { $unset: { 'x.y': 1 } }, { inserting: false })).toEqual({ _id: 'a' });
  });

  it('refuses $inc on a non-number, $push on a non-array, and paths through scalars', () => {
    expect(() => applyUpdate({ _id: 'a', s: 'x' }, { $inc: { s: 1 } }, { inserting: false })).toThrow(/not a number/);
    expect(() => applyUpdate({ _id: 'a', s: 'x' }, { $push: { s: 1 } }, { inserting: false })).toThrow(/not an array/);
    expect(() => applyUpdate({ _id: 'a', s: 'x' }, { $set: { 's.t': 1 } }, { inserting: false })).toThrow(
      /not an object/,
    );
  });
});

describe('validateUpdate', () => {
  it('refuses conflicting paths, _id changes, unknown and empty updates', () => {
    expect(() => validateUpdate({ $set: { a: 1 }, $inc: { a: 1 } })).toThrow(/conflict/);
    expect(() => validateUpdate({ $set: { a: 1 }, $unset: { 'a.b': 1 } })).toThrow(/conflict/);
    expect(() => validateUpdate({ $set: { _id: 'b' } })).toThrow(/_id/);
    expect(() => validateUpdate({ $rename: { a: 'b' } } as never)).toThrow(/unsupported/);
    expect(() => validateUpdate({})).toThrow(/at least one/);
    expect(() => validateUpdate({ $set: { 'a.b': 1, 'a.c': 2 }, $setOnInsert: { _id: 'x' } })).not.toThrow();
  });
});

describe('seedFromFilter', () => {
  it('takes equality conditions (implicit, $eq, inside $and), not other operators', () => {
    expect(
      seedFromFilter({ _id: 'k', 'a.b': 'x', n: { $eq: 2 }, m: { $gt: 1 }, $and: [{ c: true }], $or: [{ d: 1 }] }),
    ).toEqual({ _id: 'k', a: { b: 'x' }, n: 2, c: true });
  });
});
