export * from './leads.routes';
export * from './custom-fields.routes';
export * from './lead-view';
export * from './lead-events';
export * from './leads.app';
