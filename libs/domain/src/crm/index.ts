export * from './crm-connection';
export * from './crm-connectors';
export * from './crm-sync.machine';
export * from './crm-sync';
