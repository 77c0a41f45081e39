import { describe, expect, it } from 'vitest';
import talismanLevenshtein from 'talisman/metrics/levenshtein';
import { similarity as talismanJaroWinkler } from 'talisman/metrics/jaro-winkler';
import talismanSoundex from 'talisman/phonetics/soundex';
import { jaroWinkler, levenshteinDistance, soundex } from './string-metrics';

// talisman is the reference implementation; ours must agree with it (ASCII inputs).
const PAIRS: Array<[string, string]> = [
  ['jon smith', 'john smith'],
  ['martha', 'marhta'],
  ['dixon', 'dicksonx'],
  ['kitten', 'sitting'],
  ['', 'abc'],
  ['abc', ''],
  ['same', 'same'],
  ['john.smith@gmail.com', 'jsmith@gmail.com'],
  ['crate', 'trace'],
  ['a', 'b'],
];

describe('levenshteinDistance', () => {
  it.each(PAIRS)('%j vs %j agrees with talisman', (a, b) => {
    expect(levenshteinDistance(a, b)).toBe(talismanLevenshtein(a, b));
  });
  it('counts code points, not UTF-16 units', () => {
    expect(levenshteinDistance('😀a', '😀b')).toBe(1);
  });
});

describe('jaroWinkler', () => {
  it.each(PAIRS.filter(([a, b]) => a !== '' && b !== ''))('%j vs %j agrees with talisman', (a, b) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(talismanJaroWinkler(a, b), 10);
  });
  it.each([
    ['martha', 'marhta', 0.9611],
    ['dwayne', 'duane', 0.84],
    ['dixon', 'dicksonx', 0.8133],
  ])('textbook value %s/%s = %f', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 4);
  });
});

describe('soundex', () => {
  it.each([
    'Robert',
    'Rupert',
    'Rubin',
    'Ashcraft',
    'Ashcroft',
    'Tymczak',
    'Pfister',
    'Honeyman',
    'Smith',
    'Smyth',
    'Lee',
    'Washington',
  ])('%s agrees with talisman', (name) => {
    expect(soundex(name)).toBe(talismanSoundex(name));
  });
  it.each([
    ['Robert', 'R163'],
    ['Ashcraft', 'A261'],
    ['Tymczak', 'T522'],
    ['Pfister', 'P236'],
    ['Muñoz', 'M520'],
    ['', ''],
    ['123', ''],
  ])('%j → %j', (name, code) => {
    expect(soundex(name)).toBe(code);
  });
});
