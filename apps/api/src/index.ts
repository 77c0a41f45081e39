export * from './api.app';
