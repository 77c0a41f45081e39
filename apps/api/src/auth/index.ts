export * from './api-key.middleware';
export * from './rate-limit.middleware';
export * from './session-tokens';
export * from './session.middleware';
export * from './route-definition';
