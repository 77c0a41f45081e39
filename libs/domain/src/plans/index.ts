export * from './plan-limits';
