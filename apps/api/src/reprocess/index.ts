export * from './reprocess.routes';
export * from './use-cases';
