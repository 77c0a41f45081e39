import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFilesContract } from './export-files.contract';
import { FilesystemExportFileStore } from './filesystem-export-files';

exportFilesContract('filesystem', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'export-files-'));
  return { files: await FilesystemExportFileStore.open(join(dir, 'exports')), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
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
});
