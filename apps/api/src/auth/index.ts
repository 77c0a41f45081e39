export * from './api-key.middleware';
export * from './rate-limit.middleware';
