export * from './webhook';
export * from './webhook-signature';
export * from './retry-schedule';
export * from './webhook-delivery.machine';
export * from './webhook-delivery';
