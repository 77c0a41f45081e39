export * from './dedup.types';
export * from './dedup-config';
export * from './normalize';
export { levenshteinDistance, jaroWinkler, soundex } from './string-metrics';
export * from './similarity';
export * from './score-candidates';
export * from './candidate-query';
export * from './dedup-decision';
export * from './merge';
