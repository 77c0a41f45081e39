import { join } from 'node:path';
import type { ExportFileStore } from '@leadstream/ports';
import { FilesystemExportFileStore } from './filesystem-export-files';
import { GridFsExportFileStore } from './gridfs-export-files';

export type ExportFilesOptions =
  { engine: 'gridfs'; uri: string; dbName: string } | { engine: 'filesystem'; dataDir: string };

/** GridFS beside a MongoDB store, DATA_DIR/exports beside the embedded one (docs/store.md). */
export async function openExportFileStore(options: ExportFilesOptions): Promise<ExportFileStore> {
  return options.engine === 'gridfs'
    ? GridFsExportFileStore.open({ uri: options.uri, dbName: options.dbName })
    : FilesystemExportFileStore.open(join(options.dataDir, 'exports'));
}
