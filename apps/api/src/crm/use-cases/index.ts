export * from './crm-connection-access';
export * from './list-crm-connections';
export * from './create-crm-connection';
export * from './update-crm-connection';
export * from './test-crm-connection';
export * from './delete-crm-connection';
export * from './request-crm-sync';
