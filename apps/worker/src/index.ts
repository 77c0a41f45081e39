export * from './stages';
export * from './exports';
