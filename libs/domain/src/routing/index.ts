export * from './routing-rule';
export * from './route-lead';
