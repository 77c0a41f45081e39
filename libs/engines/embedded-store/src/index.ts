export { openEmbeddedStore, type EmbeddedStoreOptions, type EmbeddedStoreLogger } from './embedded-store';
