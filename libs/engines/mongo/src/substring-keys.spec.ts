/**
 * The shapes a substring index sends to a MongoDB server (FerretDB in tests answers them by a
 * scan, so the contract suite cannot see the plan): a `$contains` becomes a prefix regular
 * expression on the hidden keys, which MongoDB answers as one range of the index.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_KEY_LENGTH,
  substringKeys,
  translateContains,
  updateWithSubstringKeys,
  withSubstringKeys,
} from './substring-keys';

const FIELDS = new Set(['terms']);

describe('substringKeys', () => {
  it('holds every suffix of 3 characters or more of each string, cut to the key length', () => {
    expect(substringKeys(['ada@x.io', 'ab'])).toEqual(['ada@x.io', 'da@x.io', 'a@x.io', '@x.io', 'x.io', '.io']);
    expect(substringKeys('zoë')).toEqual(['zoë']);
    expect(substringKeys(null)).toEqual([]);
    const long = 'a'.repeat(40) + 'b';
    expect(substringKeys(long).every((key) => [...key].length <= MAX_KEY_LENGTH)).toBe(true);
    expect(substringKeys(long)).toContain(`${'a'.repeat(MAX_KEY_LENGTH - 1)}b`);
  });
});

describe('translateContains', () => {
  it('asks an indexed field for a prefix of its keys, and the field itself for the text anywhere', () => {
    expect(translateContains({ org: 'o', terms: { $contains: 'example.edu' } }, FIELDS)).toEqual({
      org: 'o',
      '_substrings.terms': { $regex: '^example\\.edu' },
      terms: { $regex: 'example\\.edu' },
    });
  });

  it('escapes every character a regular expression reads, and cuts the key prefix to the key length', () => {
    const text = 'a+b(c)[d]*?^$|\\/-.{1}';
    const translated = translateContains({ terms: { $contains: text } }, FIELDS);
    expect(new RegExp(String((translated['terms'] as { $regex: string }).$regex)).test(`x${text}y`)).toBe(true);
    const long = 'x'.repeat(50);
    expect(translateContains({ terms: { $contains: long } }, FIELDS)['_substrings.terms']).toEqual({
      $regex: `^${'x'.repeat(MAX_KEY_LENGTH)}`,
    });
  });

  it('uses no keys for text shorter than 3 characters or a field without the index, and goes into $or and $and', () => {
    expect(translateContains({ terms: { $contains: 'ab' } }, FIELDS)).toEqual({ terms: { $regex: 'ab' } });
    expect(translateContains({ other: { $contains: 'abc' } }, FIELDS)).toEqual({ other: { $regex: 'abc' } });
    expect(translateContains({ $or: [{ a: 1 }, { terms: { $contains: 'abc' } }] }, FIELDS)).toEqual({
      $or: [{ a: 1 }, { '_substrings.terms': { $regex: '^abc' }, terms: { $regex: 'abc' } }],
    });
    expect(translateContains({ terms: { $contains: 'abc', $ne: null } }, FIELDS)).toEqual({
      '_substrings.terms': { $regex: '^abc' },
      terms: { $ne: null },
      $and: [{ terms: { $regex: 'abc' } }],
    });
    const unchanged = { a: 1, $or: [{ b: 2 }] };
    expect(translateContains(unchanged, FIELDS)).toBe(unchanged);
  });
});

describe('writes', () => {
  it('add the keys of an inserted document and of a field set, set on insert or unset', () => {
    expect(withSubstringKeys({ _id: 'a', terms: 'abcd' }, FIELDS)).toEqual({
      _id: 'a',
      terms: 'abcd',
      _substrings: { terms: ['abcd', 'bcd'] },
    });
    expect(withSubstringKeys({ _id: 'a' }, FIELDS)).toEqual({ _id: 'a' });
    expect(updateWithSubstringKeys({ $set: { terms: ['abc'], n: 1 }, $unset: { x: 1 } }, FIELDS)).toEqual({
      $set: { terms: ['abc'], n: 1, '_substrings.terms': ['abc'] },
      $unset: { x: 1 },
    });
    expect(updateWithSubstringKeys({ $setOnInsert: { terms: 'abc' } }, FIELDS)).toEqual({
      $setOnInsert: { terms: 'abc', '_substrings.terms': ['abc'] },
    });
    expect(updateWithSubstringKeys({ $unset: { terms: 1 } }, FIELDS)).toEqual({
      $unset: { terms: 1, '_substrings.terms': 1 },
    });
  });

  it('refuse a write the keys cannot follow: part of the field, $push or $inc', () => {
    expect(() => updateWithSubstringKeys({ $push: { terms: 'x' } }, FIELDS)).toThrow(TypeError);
    expect(() => updateWithSubstringKeys({ $set: { 'terms.0': 'x' } }, FIELDS)).toThrow(TypeError);
  });
});
