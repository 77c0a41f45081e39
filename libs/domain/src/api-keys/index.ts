export * from './api-key';
export * from './api-key-checks';
export * from './ip-restrictions';
export * from './rate-limits';
