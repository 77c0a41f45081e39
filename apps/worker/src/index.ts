export * from './stages';
export * from './exports';
export * from './batch';
export { enrichStage } from './pipeline/enrich.stage';
