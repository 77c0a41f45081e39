/**
 * Export files in GridFS (official `mongodb` driver) on the store's database, bucket
 * `export_files`, with the export id as the file's `_id`. Works on MongoDB and on FerretDB 1.24
 * (docs/store.md). The upload writes chunks first and the files document last, so a file is
 * readable only once complete; a failed upload's chunks are deleted.
 */
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EXPORT_FILE_ID, type ExportFileStore, type StoredExportFile } from '@leadstream/ports';
import { GridFSBucket, MongoClient, MongoRuntimeError, type Db, type ObjectId } from 'mongodb';

export const EXPORT_FILES_BUCKET = 'export_files';

export interface GridFsExportFilesOptions {
  uri: string;
  dbName: string;
}

/** GridFS takes any `_id` value; the driver's typings only say ObjectId. */
const fileId = (id: string): ObjectId => {
  if (!EXPORT_FILE_ID.test(id)) throw new TypeError(`invalid export file id ${JSON.stringify(id)}`);
  return id as unknown as ObjectId;
};

export class GridFsExportFileStore implements ExportFileStore {
  readonly engine = 'gridfs' as const;
  private readonly bucket: GridFSBucket;

  constructor(
    db: Db,
    private readonly client: MongoClient | null = null,
  ) {
    this.bucket = new GridFSBucket(db, { bucketName: EXPORT_FILES_BUCKET, chunkSizeBytes: 255 * 1024 });
  }

  /** Opens its own client on the store's database (the store's client is private to its engine). */
  static async open(options: GridFsExportFilesOptions): Promise<GridFsExportFileStore> {
    const client = new MongoClient(options.uri, { ignoreUndefined: true });
    await client.connect();
    return new GridFsExportFileStore(client.db(options.dbName), client);
  }

  async put(id: string, content: Readable): Promise<StoredExportFile> {
    await this.delete(id);
    const upload = this.bucket.openUploadStreamWithId(fileId(id), `${id}.csv`, {
      metadata: { content_type: 'text/csv' },
    });
    try {
      await pipeline(content, upload);
    } catch (error) {
      await this.delete(id).catch(() => false);
      throw error;
    }
    return { id, bytes: upload.length };
  }

  async get(id: string): Promise<Readable | null> {
    const found = await this.bucket.find({ _id: fileId(id) }, { limit: 1 }).toArray();
    if (found.length === 0) return null;
    return this.bucket.openDownloadStream(fileId(id));
  }

  async delete(id: string): Promise<boolean> {
    try {
      await this.bucket.delete(fileId(id));
      return true;
    } catch (error) {
      // The driver deletes orphaned chunks, then reports the missing files document this way.
      if (error instanceof MongoRuntimeError && /File not found/i.test(error.message)) return false;
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.client?.close();
  }
}
