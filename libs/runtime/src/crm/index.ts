export * from './credentials-cipher';
