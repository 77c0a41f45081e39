import type { PartitionerArgs } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { partitionForKey } from '@leadstream/ports';
import { Partitioners } from './kafkajs-runtime';

// The engine sends explicit partitions computed by the port's partitioner; this proves that
// kafkajs's own DefaultPartitioner (configured on the producer) agrees, key for key, and that its
// LegacyPartitioner (the kafkajs 1.x default) does not: mixing them would split a key's records.
describe("kafkajs's DefaultPartitioner", () => {
  const args = (key: string, partitions: number): PartitionerArgs => ({
    topic: 't',
    partitionMetadata: Array.from({ length: partitions }, (_, i) => ({
      partitionId: i,
      leader: 0,
      partitionErrorCode: 0,
      replicas: [0],
      isr: [0],
    })),
    message: { key, value: 'v' },
  });

  it('places keys exactly as the port does (the Java client)', () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    for (const partitions of [1, 3, 6, 12, 50]) {
      for (let i = 0; i < 1_000; i++) {
        const key = `lead-${i}-é`;
        expect(kafkajs(args(key, partitions))).toBe(partitionForKey(key, partitions));
      }
    }
  });

  it('differs from the legacy partitioner, so the check above can tell them apart', () => {
    const legacy = Partitioners.LegacyPartitioner();
    const differing = Array.from({ length: 100 }, (_, i) => `lead-${i}`).filter(
      (key) => legacy(args(key, 12)) !== partitionForKey(key, 12),
    );
    expect(differing.length).toBeGreaterThan(50);
  });
});
