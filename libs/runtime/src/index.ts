export * from './logger';
export * from './metrics';
export * from './lifecycle';
export * from './consumer-runner';
export * from './instrumented-log';
export * from './topics';
export * from './prefixed-log';
export * from './config-cache';
