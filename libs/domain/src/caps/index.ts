export * from './cap';
export * from './cap-period';
export * from './cap-clock';
