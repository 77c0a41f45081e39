export * from './api.app';
export * from './ingestion/decision-waiter';
export * from './ingestion/ingestion.routes';
export * from './auth';
