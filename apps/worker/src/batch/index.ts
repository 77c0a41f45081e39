export * from './batch-write';
export * from './batch-stage';
export { AtomicBatchWriter } from './atomic-batch-writer';
export { OutboxBatchWriter } from './outbox-batch-writer';
export { OutboxSweeper } from './outbox-sweeper';
export { type ConfigSource, uncachedConfig } from './config-source';
