export * from './suppression-lists';
export * from './suppression-entries';
export * from './import-suppression-entries';
