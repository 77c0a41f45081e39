export * from './funnel-access';
export * from './list-funnel-links';
export * from './has-funnel-links';
export * from './create-funnel-link';
export * from './delete-funnel-link';
export * from './get-funnel-report';
