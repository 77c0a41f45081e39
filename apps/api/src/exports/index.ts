export * from './exports.routes';
