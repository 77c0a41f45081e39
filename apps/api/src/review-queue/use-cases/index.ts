export * from './decide-reviews';
export * from './list-review-queue';
