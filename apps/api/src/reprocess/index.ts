export * from './reprocess.routes';
