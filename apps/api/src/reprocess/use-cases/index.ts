export * from './reprocess-request';
export * from './reprocess-jobs';
