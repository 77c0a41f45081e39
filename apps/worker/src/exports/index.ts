export * from './export.stage';
export * from './export-stage.runner';
