export * from './review-queue.app';
export * from './review-queue.repository';
export * from './review-queue.routes';
export * from './review-auto-decider';
export * from './use-cases';
