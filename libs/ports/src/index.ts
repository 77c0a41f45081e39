export * from './event-log.port';
export * from './document-store.port';
export * from './analytics.port';
export * from './partitioner';
export * from './mx-resolver.port';
export * from './mailer.port';
export * from './export-files.port';
