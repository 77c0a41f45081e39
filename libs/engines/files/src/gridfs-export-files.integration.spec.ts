/** The export file store contract on GridFS against the MongoDB-protocol server of `npm run infra:up` (FerretDB 1.24). */
import { randomUUID } from 'node:crypto';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { MongoClient } from 'mongodb';
import { exportFilesContract } from './export-files.contract';
import { GridFsExportFileStore } from './gridfs-export-files';

const { value: uri } = lookupInfra('MONGODB_URI');

exportFilesContract(
  'GridFS',
  uri
    ? async () => {
        const dbName = `leadstream_files_${randomUUID().slice(0, 8)}`;
        return {
          files: await GridFsExportFileStore.open({ uri, dbName }),
          cleanup: async () => {
            const client = new MongoClient(uri);
            await client.connect();
            await client.db(dbName).dropDatabase();
            await client.close();
          },
        };
      }
    : undefined,
);
