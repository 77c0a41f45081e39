export * from './suppression';
