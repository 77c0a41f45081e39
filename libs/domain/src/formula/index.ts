export * from './formula-ast';
export * from './parse-formula';
export * from './evaluate-formula';
export * from './formula-analysis';
export * from './calculated-field';
