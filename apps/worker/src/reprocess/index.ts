export * from './reprocess.stage';
