export * from './webhook-access';
export * from './list-webhooks';
export * from './create-webhook';
export * from './update-webhook';
export * from './delete-webhook';
export * from './test-webhook';
export * from './list-webhook-deliveries';
export * from './retry-delivery';
