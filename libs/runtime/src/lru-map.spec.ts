import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map';

describe('LruMap', () => {
  it('holds at most its capacity, dropping the least recently used entry first', () => {
    const evicted: Array<[string, number]> = [];
    const map = new LruMap<string, number>(2, (key, value) => evicted.push([key, value]));
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1); // a is now the most recently used
    map.set('c', 3);
    expect(map.size).toBe(2);
    expect(map.has('b')).toBe(false);
    expect([...map.keys()]).toEqual(['a', 'c']);
    expect(evicted).toEqual([['b', 2]]);
  });

  it('peek and has do not count as a use; setting a known key does and evicts nothing', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(2, (key) => evicted.push(key));
    map.set('a', 1).set('b', 2);
    expect(map.peek('a')).toBe(1);
    expect(map.has('a')).toBe(true);
    map.set('b', 20);
    map.set('c', 3);
    expect([...map.entries()]).toEqual([
      ['b', 20],
      ['c', 3],
    ]);
    expect(evicted).toEqual(['a']);
  });

  it('deletes and clears without calling the eviction callback', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(3, (key) => evicted.push(key));
    map.set('a', 1).set('b', 2).set('c', 3);
    expect(map.delete('a')).toBe(true);
    expect(map.delete('a')).toBe(false);
    map.clear();
    expect(map.size).toBe(0);
    expect(evicted).toEqual([]);
  });

  it('refuses a capacity below one', () => {
    expect(() => new LruMap(0)).toThrow('capacity');
  });
});
