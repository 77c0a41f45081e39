export {
  openEmbeddedStore,
  EmbeddedStore,
  type EmbeddedStoreOptions,
  type EmbeddedStoreLogger,
} from './embedded-store';
export { type EmbeddedCollection } from './embedded-collection';
