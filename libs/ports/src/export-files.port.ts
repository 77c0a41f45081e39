/**
 * Where finished exports are kept until they expire (24 hours after completion): GridFS on the
 * MongoDB database when the store is MongoDB, files under DATA_DIR/exports otherwise.
 * Files are written and read as streams, so an export of any size never sits in memory.
 */
import type { Readable } from 'node:stream';

export interface StoredExportFile {
  id: string;
  bytes: number;
}

export interface ExportFileStore {
  readonly engine: 'gridfs' | 'filesystem';
  /**
   * Writes the stream as the file `id` (`[A-Za-z0-9_-]+`), replacing any earlier file of that id,
   * and resolves once it is complete and readable. A failed write leaves no readable file.
   */
  put(id: string, content: Readable): Promise<StoredExportFile>;
  /** The file's content, or null when there is no such file. */
  get(id: string): Promise<Readable | null>;
  /** Removes the file; false when there was none. */
  delete(id: string): Promise<boolean>;
  close(): Promise<void>;
}

export const EXPORT_FILE_ID = /^[A-Za-z0-9_-]{1,200}$/;
