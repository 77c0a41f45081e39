export { openMongoStore, type MongoStoreOptions, type MongoStoreLogger } from './mongo-store';
