/**
 * Kafka's default partitioner, so that the embedded engine and Kafka put a key on the same
 * partition (README.md "Engines and configuration"): murmur2 of the key's UTF-8 bytes with Kafka's seed, made
 * positive by masking the sign bit (not Math.abs), modulo the partition count. A port of
 * `Utils.murmur2` and `BuiltInPartitioner.partitionForKey` of the Java client.
 */

const SEED = 0x9747b28c;
const M = 0x5bd1e995;
const R = 24;

const encoder = new TextEncoder();

/** Kafka's murmur2 as the Java client computes it: a signed 32-bit integer. */
export function murmur2(key: string | Uint8Array): number {
  const data = typeof key === 'string' ? encoder.encode(key) : key;
  const length = data.length;
  // Math.imul keeps the multiplications in 32 bits, as Java's int arithmetic does.
  let h = (SEED ^ length) | 0;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24) | 0;
    k = Math.imul(k, M);
    k ^= k >>> R;
    k = Math.imul(k, M);
    h = Math.imul(h, M);
    h ^= k;
  }
  // The last one to three bytes (Java's switch falls through from case 3 to case 1).
  const rest = length & 3;
  if (rest === 3) h ^= data[whole + 2]! << 16;
  if (rest >= 2) h ^= data[whole + 1]! << 8;
  if (rest >= 1) {
    h ^= data[whole]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/** Kafka's `Utils.toPositive`: clears the sign bit, which is not the absolute value. */
export function toPositive(hash: number): number {
  return hash & 0x7fffffff;
}

/** The partition Kafka's default partitioner picks for a non-null key. */
export function partitionForKey(key: string, partitions: number): number {
  if (!Number.isInteger(partitions) || partitions < 1) {
    throw new RangeError(`partition count must be a positive integer, got ${partitions}`);
  }
  return toPositive(murmur2(key)) % partitions;
}

/** Picks a partition for a record: murmur2 for a key, round-robin per topic for a null key. */
export type Partitioner = (topic: string, key: string | null | undefined, partitions: number) => number;

export function createPartitioner(): Partitioner {
  const counters = new Map<string, number>();
  return (topic, key, partitions) => {
    if (key !== null && key !== undefined) return partitionForKey(key, partitions);
    const next = counters.get(topic) ?? 0;
    counters.set(topic, (next + 1) & 0x7fffffff);
    return next % partitions;
  };
}
