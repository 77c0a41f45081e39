export * from './projector';
export * from './lead-event-row';
