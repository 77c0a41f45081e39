export * from './outbound-headers';
