export * from './projector';
export * from './lead-event-row';
export * from './rebuild';
