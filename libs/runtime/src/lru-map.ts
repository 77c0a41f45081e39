/**
 * A map that holds at most `capacity` entries: setting one more drops the least recently used
 * (read with `get` or written with `set`), and `onEvict` hears of each one dropped so. For the
 * per-key and per-organization memories of long-running processes, which must not grow with every
 * key or organization ever seen.
 */
export class LruMap<K, V> {
  /** Insertion order is recency order: the first entry is the least recently used. */
  private readonly map = new Map<K, V>();

  constructor(
    readonly capacity: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`LruMap capacity must be a whole number of at least 1, got ${capacity}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key) as V;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  /** The value, without counting as a use. */
  peek(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Sets the value as the most recently used, then drops the least recently used ones past the capacity. */
  set(key: K, value: V): this {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.capacity) {
      const [oldest, old] = this.map.entries().next().value as [K, V];
      this.map.delete(oldest);
      this.onEvict?.(oldest, old);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** Least recently used first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}
