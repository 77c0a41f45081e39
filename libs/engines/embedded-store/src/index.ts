export {
  openEmbeddedStore,
  EmbeddedStore,
  type EmbeddedStoreOptions,
  type EmbeddedStoreLogger,
} from './embedded-store';
export { checkQuery, type EmbeddedCollection } from './embedded-collection';
