export * from './funnel-link';
export * from './funnel-period';
export * from './funnel-figures';
export * from './analytics-query';
