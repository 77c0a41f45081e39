export * from './lead-writer';
export * from './find-lead';
export * from './create-lead';
export * from './update-lead';
export * from './delete-lead';
export * from './bulk-lead-outcomes';
export * from './bulk-update-leads';
export * from './bulk-delete-leads';
