export * from './error-mapping';
export * from './error-handler';
export * from './request-id';
export * from './access-log';
export * from './ops.routes';
export * from './ops-app';
export * from './node-handler';
export * from './content-type';
