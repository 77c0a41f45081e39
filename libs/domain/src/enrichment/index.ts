export * from './enrich-lead';
export * from './lookup-map';
export * from './rule-formulas';
export * from './recalculate';
