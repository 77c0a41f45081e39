export * from './vendor-report-access';
export * from './get-daily-vendor-stats';
export * from './get-monthly-vendor-summary';
export * from './export-vendor-leads';
