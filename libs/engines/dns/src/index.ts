export * from './mx-resolver';
