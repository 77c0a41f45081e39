export * from './credentials-cipher';
export * from './crm-client';
