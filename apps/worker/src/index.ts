export * from './stages';
export * from './exports';
export * from './batch';
