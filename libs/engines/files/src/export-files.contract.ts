/**
 * One suite for every ExportFileStore engine: streams in and out, replacement, deletion, a failed
 * write leaving nothing readable, and a file larger than any chunk or buffer.
 */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { ExportFileStore } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

export function exportFilesContract(
  name: string,
  open: (() => Promise<{ files: ExportFileStore; cleanup: () => Promise<void> }>) | undefined,
): void {
  describe.skipIf(!open)(`export file store contract: ${name}`, () => {
    let files: ExportFileStore;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ files, cleanup } = await open!());
    });
    afterAll(async () => {
      await files?.close();
      await cleanup?.();
    });

    it('stores a stream and reads it back; an unknown id is null', async () => {
      const stored = await files.put('export_a', Readable.from(['id,email\n', 'lead_1,a@example.edu\n']));
      expect(stored).toEqual({ id: 'export_a', bytes: 30 });
      const back = await files.get('export_a');
      expect(back).not.toBeNull();
      expect(await text(back!)).toBe('id,email\nlead_1,a@example.edu\n');
      expect(await files.get('export_missing')).toBeNull();
    });

    it('replaces a file written again under the same id', async () => {
      await files.put('export_b', Readable.from(['first\n']));
      await files.put('export_b', Readable.from(['second\n']));
      expect(await text((await files.get('export_b'))!)).toBe('second\n');
    });

    it('deletes, and says whether there was a file', async () => {
      await files.put('export_c', Readable.from(['x\n']));
      expect(await files.delete('export_c')).toBe(true);
      expect(await files.get('export_c')).toBeNull();
      expect(await files.delete('export_c')).toBe(false);
    });

    it('leaves nothing readable when the source fails mid-stream', async () => {
      async function* failing(): AsyncGenerator<string> {
        yield 'a'.repeat(300 * 1024);
        throw new Error('store went away');
      }
      await expect(files.put('export_d', Readable.from(failing()))).rejects.toThrow('store went away');
      expect(await files.get('export_d')).toBeNull();
    });

    it('streams a file of several chunks intact', async () => {
      const line = `${'x'.repeat(99)}\n`;
      async function* lines(): AsyncGenerator<string> {
        for (let i = 0; i < 20_000; i++) yield line;
      }
      const stored = await files.put('export_e', Readable.from(lines()));
      expect(stored.bytes).toBe(2_000_000);
      const back = await text((await files.get('export_e'))!);
      expect(back.length).toBe(2_000_000);
      expect(back.endsWith(line)).toBe(true);
    });

    it('refuses ids that could name something else', async () => {
      await expect(files.put('../escape', Readable.from(['x']))).rejects.toThrow(/invalid export file id/);
    });
  });
}
