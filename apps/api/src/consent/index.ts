export * from './consent.routes';
export * from './erase-lead';
