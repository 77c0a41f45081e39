export * from './consent';
export * from './consent-settings';
export * from './consent-verdict';
