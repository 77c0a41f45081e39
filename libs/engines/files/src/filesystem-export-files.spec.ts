import { Readable } from 'node:stream';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFilesContract } from './export-files.contract';
import { FilesystemExportFileStore } from './filesystem-export-files';

exportFilesContract('filesystem', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'export-files-'));
  return {
    files: await FilesystemExportFileStore.open(join(dir, 'exports')),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('filesystem export files', () => {
  it('removes partial files left by a crash when opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'export-files-'));
    try {
      writeFileSync(join(dir, 'export_x.csv.partial-123'), 'half');
      writeFileSync(join(dir, 'export_y.csv'), 'whole');
      await FilesystemExportFileStore.open(dir);
      expect(readdirSync(dir)).toEqual(['export_y.csv']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps its directory (0700) and files (0600) private, and tightens those an earlier version made', async () => {
    const root = mkdtempSync(join(tmpdir(), 'export-files-modes-'));
    const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);
    try {
      const fresh = join(root, 'fresh', 'exports');
      const files = await FilesystemExportFileStore.open(fresh);
      await files.put('export_a', Readable.from(['email\nada@example.edu\n']));
      expect([fresh, join(fresh, 'export_a.csv')].map(mode)).toEqual(['700', '600']);

      const earlier = join(root, 'earlier');
      mkdirSync(earlier);
      chmodSync(earlier, 0o755);
      writeFileSync(join(earlier, 'export_old.csv'), 'email\nbo@example.edu\n', { mode: 0o644 });
      chmodSync(join(earlier, 'export_old.csv'), 0o644);
      await FilesystemExportFileStore.open(earlier);
      expect([earlier, join(earlier, 'export_old.csv')].map(mode)).toEqual(['700', '600']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
