import { describe, expect, it } from 'vitest';
import { createPartitioner, murmur2, partitionForKey, toPositive } from './partitioner';

describe('murmur2', () => {
  // apache/kafka clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java, testMurmur2.
  const javaVectors: Array<[string, number]> = [
    ['21', -973932308],
    ['foobar', -790332482],
    ['a-little-bit-long-string', -985981536],
    ['a-little-bit-longer-string', -1486304829],
    ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
    ['abc', 479470107],
  ];
  it.each(javaVectors)('matches the Java client for %j', (key, expected) => {
    expect(murmur2(key)).toBe(expected);
    expect(murmur2(new TextEncoder().encode(key))).toBe(expected);
  });

  // tulios/kafkajs src/producer/partitioners/defaultJava/murmur2.spec.js, generated there with the
  // Java client (kafkajs's older `default/murmur2.spec.js` holds vectors of its legacy, non-Java hash).
  const kafkajsVectors: Array<[string, number]> = [
    ['0', 971027396],
    ['1', -1993445489],
    ['128', -326012175],
    ['2187', -1508407203],
    ['16384', -325739742],
    ['78125', -1654490814],
    ['279936', 1462227128],
    ['823543', -2014198330],
    ['2097152', 607668903],
    ['4782969', -1182699775],
    ['10000000', -1830336757],
    ['19487171', -1603849305],
    ['35831808', -857013643],
    ['62748517', -1167431028],
    ['105413504', -381294639],
    ['170859375', -1658323481],
    ['100:48069', 1009543857],
  ];
  it.each(kafkajsVectors)('matches kafkajs for %j', (key, expected) => {
    expect(murmur2(key)).toBe(expected);
  });

  it('hashes the UTF-8 bytes of a key, not its UTF-16 code units', () => {
    expect(murmur2('é')).toBe(murmur2(Uint8Array.of(0xc3, 0xa9)));
    expect(murmur2('é')).not.toBe(murmur2(Uint8Array.of(0xe9)));
  });
});

describe('partitionForKey', () => {
  it('masks the sign bit instead of taking the absolute value', () => {
    // murmur2('21') is negative: -973932308 & 0x7fffffff = 1173551340, while |h| = 973932308.
    expect(toPositive(-973932308)).toBe(1173551340);
    expect(partitionForKey('21', 7)).toBe(1173551340 % 7);
    expect(partitionForKey('21', 7)).not.toBe(973932308 % 7);
  });

  it('stays within the partition count and rejects a non-positive count', () => {
    for (let i = 0; i < 500; i++) {
      const p = partitionForKey(`lead-${i}`, 6);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(6);
    }
    expect(() => partitionForKey('x', 0)).toThrow(RangeError);
  });
});

describe('createPartitioner', () => {
  it('places keys with murmur2 and spreads null keys round-robin per topic', () => {
    const partitioner = createPartitioner();
    expect(partitioner('t', 'foobar', 12)).toBe(toPositive(-790332482) % 12);
    expect([0, 1, 2, 3].map(() => partitioner('a', null, 3))).toEqual([0, 1, 2, 0]);
    expect(partitioner('b', undefined, 3)).toBe(0);
  });
});
