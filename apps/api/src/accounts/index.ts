export * from './accounts.context';
export * from './auth.routes';
export * from './organization.routes';
export * from './users.routes';
export * from './vendors.routes';
export * from './api-keys.routes';
export * from './accounts.app';
