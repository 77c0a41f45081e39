export { openMongoStore, type MongoDocumentStore, type MongoStoreOptions, type MongoStoreLogger } from './mongo-store';
