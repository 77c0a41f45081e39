export * from './submit-vendor-leads';
export * from './ingest-lead';
export * from './bulk-ingest-leads';
export * from './get-lead-status';
