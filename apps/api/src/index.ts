export * from './api.app';
export * from './ingestion/decision-waiter';
export * from './ingestion/ingestion.routes';
export * from './vendor-portal/vendor-portal.routes';
export * from './auth';
export * from './accounts';
export * from './review-queue';
export type { LeadChangeCommitter } from './leads/use-cases/lead-writer';
