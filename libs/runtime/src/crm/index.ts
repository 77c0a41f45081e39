export * from './credentials-cipher';
export * from './crm-client';
export * from './crm-refresh-tokens';
