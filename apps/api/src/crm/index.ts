export * from './crm.routes';
export * from './crm.app';
