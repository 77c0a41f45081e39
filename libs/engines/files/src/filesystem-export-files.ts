/**
 * Export files as plain files under one directory (DATA_DIR/exports): written to a temporary
 * name and renamed when complete, so a reader never sees half a file and a crash leaves only a
 * `.partial` file, which the next write of the same id or `open` removes. The files hold leads'
 * personal data: the directory is private to the user running the process (0700), each file too
 * (0600), and `open` tightens those an earlier version left readable.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EXPORT_FILE_ID, type ExportFileStore, type StoredExportFile } from '@leadstream/ports';

function checkId(id: string): string {
  // The id becomes a file name: nothing that could leave the directory.
  if (!EXPORT_FILE_ID.test(id)) throw new TypeError(`invalid export file id ${JSON.stringify(id)}`);
  return id;
}

/** Sets `mode` on a file or directory this user owns that is open to others. */
async function tighten(path: string, mode: number): Promise<void> {
  const stats = await stat(path);
  // Someone else's file or directory is theirs to set (and chmod would fail).
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) await chmod(path, mode);
}

export class FilesystemExportFileStore implements ExportFileStore {
  readonly engine = 'filesystem' as const;

  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<FilesystemExportFileStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await tighten(dir, 0o700);
    for (const name of await readdir(dir)) {
      // Leftovers of writes interrupted by a crash.
      if (name.includes('.partial-')) await rm(join(dir, name), { force: true });
      else if (name.endsWith('.csv')) await tighten(join(dir, name), 0o600);
    }
    return new FilesystemExportFileStore(dir);
  }

  private path(id: string): string {
    return join(this.dir, `${checkId(id)}.csv`);
  }

  async put(id: string, content: Readable): Promise<StoredExportFile> {
    const target = this.path(id);
    const partial = `${target}.partial-${randomUUID()}`;
    try {
      await pipeline(content, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { id, bytes: (await stat(target)).size };
  }

  async get(id: string): Promise<Readable | null> {
    const path = this.path(id);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  async delete(id: string): Promise<boolean> {
    const path = this.path(id);
    try {
      await rm(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  async close(): Promise<void> {}
}
