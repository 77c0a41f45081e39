import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { type Filter } from '@leadstream/ports';
import { DATE_TAG, encodeDoc } from './codec';
import { REGEX_FUNCTION, compileFilter, createRegexFunction } from './filter-to-sql';
import { fieldExpr } from './sql-names';

/** Runs a compiled filter over a few documents in an in-memory table; returns the matching ids. */
function matching(filter: Filter, docs: { _id: string; [k: string]: unknown }[]): string[] {
  const db = new Database(':memory:');
  db.function(REGEX_FUNCTION, { deterministic: true }, createRegexFunction());
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  for (const doc of docs) db.prepare('INSERT INTO t VALUES (?, ?)').run(doc._id, encodeDoc(doc as never));
  const { sql, params } = compileFilter(filter);
  const ids = db
    .prepare(`SELECT id FROM t WHERE ${sql} ORDER BY id`)
    .pluck()
    .all(...params) as string[];
  db.close();
  return ids;
}

describe('compileFilter', () => {
  it('inlines the same field expression the index DDL uses, and binds every value', () => {
    const { sql, params } = compileFilter({ 'address.city': 'Paris', age: { $gte: 18 } });
    expect(sql).toContain(`${fieldExpr('address.city')} = ?`);
    expect(fieldExpr('address.city')).toBe(`json_extract(doc, '$."address"."city"')`);
    expect(sql).not.toContain('Paris');
    expect(params).toEqual(['Paris', 18]);
  });

  it('depends on the filter shape, not its values (statements are cached by text)', () => {
    expect(compileFilter({ a: 'x', b: { $in: ['1', '2'] } }).sql).toBe(
      compileFilter({ a: 'y', b: { $in: ['3', '4'] } }).sql,
    );
  });

  it('maps _id to the primary key column', () => {
    expect(compileFilter({ _id: 'x' })).toEqual({ sql: 'id = ?', params: ['x'] });
  });

  it('binds dates as tagged ISO text and booleans as 1/0', () => {
    const at = new Date('2024-01-02T03:04:05.006Z');
    expect(compileFilter({ at }).params).toEqual([`${DATE_TAG}2024-01-02T03:04:05.006Z`]);
    expect(compileFilter({ ok: true }).params).toEqual([1]);
  });

  it('keeps $ne and $nin true for missing fields (no NULL under NOT)', () => {
    expect(matching({ s: { $ne: 'a' } }, [{ _id: '1', s: 'a' }, { _id: '2', s: 'b' }, { _id: '3' }])).toEqual([
      '2',
      '3',
    ]);
    expect(matching({ s: { $nin: ['a'] } }, [{ _id: '1', s: 'a' }, { _id: '2' }])).toEqual(['2']);
  });

  it('tells booleans from the numbers json_extract turns them into', () => {
    const docs = [
      { _id: '1', v: true },
      { _id: '2', v: 1 },
      { _id: '3', v: 0 },
      { _id: '4', v: false },
    ];
    expect(matching({ v: true }, docs)).toEqual(['1']);
    expect(matching({ v: 1 }, docs)).toEqual(['2']);
    expect(matching({ v: { $in: [false, 0] } }, docs)).toEqual(['3', '4']);
  });

  it('keeps numbers, strings and dates apart in ranges', () => {
    const docs = [
      { _id: 'n', v: 5 },
      { _id: 's', v: 'm' },
      { _id: 'e', v: '' },
      { _id: 'd', v: new Date('2024-01-01T00:00:00.000Z') },
    ];
    expect(matching({ v: { $gt: 0 } }, docs)).toEqual(['n']);
    expect(matching({ v: { $gte: '' } }, docs)).toEqual(['e', 's']);
    expect(matching({ v: { $lt: 'z' } }, docs)).toEqual(['e', 's']);
    expect(matching({ v: { $gt: new Date(0) } }, docs)).toEqual(['d']);
    expect(matching({ v: { $lt: new Date('2100-01-01T00:00:00.000Z') } }, docs)).toEqual(['d']);
  });

  it('does not let a string equal the JSON text of an array', () => {
    expect(
      matching({ v: '["a"]' }, [
        { _id: '1', v: ['a'] },
        { _id: '2', v: '["a"]' },
      ]),
    ).toEqual(['2']);
  });

  it('$regex never matches dates or numbers', () => {
    const docs = [
      { _id: '1', v: new Date('2024-01-01T00:00:00.000Z') },
      { _id: '2', v: 2024 },
      { _id: '3', v: '2024' },
    ];
    expect(matching({ v: { $regex: '2024' } }, docs)).toEqual(['3']);
  });

  it('$all matches array elements of the right type, and a scalar equal to the value', () => {
    const docs = [
      { _id: '1', v: ['1', 2] },
      { _id: '2', v: [1, '2'] },
      { _id: '3', v: '1' },
    ];
    expect(matching({ v: { $all: ['1', 2] } }, docs)).toEqual(['1']);
    expect(matching({ v: { $all: ['1'] } }, docs)).toEqual(['1', '3']);
    expect(matching({ v: { $all: [] } }, docs)).toEqual([]);
  });

  it('refuses unknown operators, bad paths, bad regex options and empty $or', () => {
    expect(() => compileFilter({ a: { $where: 'x' } as never })).toThrow(/unsupported operator/);
    expect(() => compileFilter({ 'a b': 1 })).toThrow(/invalid field path/);
    expect(() => compileFilter({ a: { $regex: 'x', $options: 'm' as never } })).toThrow(/only 'i'/);
    expect(() => compileFilter({ $or: [] })).toThrow(/non-empty/);
    expect(() => compileFilter({ a: { $options: 'i' } })).toThrow(/without \$regex/);
  });
});
