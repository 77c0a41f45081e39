export * from './field-path';
export * from './condition';
export * from './rule-action';
export * from './run-rules';
export * from './enrichment-rule';
export * from './rules-document';
export * from './pattern-limits';
export * from './pattern-matcher';
