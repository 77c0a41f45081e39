export * from './validation-rule';
export * from './apply-validation-rules';
