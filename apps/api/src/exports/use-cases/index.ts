export * from './export-access';
export * from './request-export';
export * from './get-export';
export * from './download-export';
