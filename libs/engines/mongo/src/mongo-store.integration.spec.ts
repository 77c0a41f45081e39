import { randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { documentStoreContract } from '@leadstream/ports/contract/document-store.contract';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { type DocumentStore } from '@leadstream/ports';
import { openMongoStore } from './index';

const { value: uri } = lookupInfra('MONGODB_URI');

/** FerretDB answers buildInfo with its own version; it never answers a filter from an index. */
async function isFerretDb(serverUri: string): Promise<boolean> {
  const client = new MongoClient(serverUri);
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return typeof info['ferretdbVersion'] === 'string';
  } finally {
    await client.close();
  }
}

documentStoreContract(
  'mongodb driver',
  uri
    ? async ({ ttlSweepMs }) => {
        // A database per run: suites can share the server and cleanup drops everything at once.
        const dbName = `leadstream_contract_${randomUUID().slice(0, 8)}`;
        const open = (): Promise<DocumentStore> => openMongoStore({ uri, dbName, ttlSweepMs });
        let store = await open();
        const ferret = await isFerretDb(uri);
        return {
          store,
          gaps: ferret
            ? {
                indexPlans:
                  'FerretDB 1.24 answers every filter with a collection scan (PostgreSQL backend: equality is pushed down, but as a jsonb @> filter no index serves)',
                atomicUpdates:
                  'FerretDB 1.24 does not apply conditional updates atomically on either backend (PostgreSQL: several winners in 50 of 50 rounds of 6 writers)',
              }
            : {},
          reopen: async () => {
            await store.close();
            store = await open();
            return store;
          },
          cleanup: async () => {
            await store.close();
            const client = new MongoClient(uri);
            try {
              await client.db(dbName).dropDatabase();
            } finally {
              await client.close();
            }
          },
        };
      }
    : undefined,
);
