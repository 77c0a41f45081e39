import { describe, expect, it } from 'vitest';
import { runsFromSource, shippedFile } from './shipped-file';

const where = { source: './pipeline-thread.boot.mjs', built: './pipeline-thread.js' };

describe('shippedFile', () => {
  it('finds the file beside the source module under tsx', () => {
    const url = shippedFile('file:///repo/apps/leadstream/src/pipeline-host/pipeline-host.ts', where);
    expect(url.href).toBe('file:///repo/apps/leadstream/src/pipeline-host/pipeline-thread.boot.mjs');
  });

  it('finds the built file beside the bundle', () => {
    const url = shippedFile('file:///app/dist/leadstream.js', where);
    expect(url.href).toBe('file:///app/dist/pipeline-thread.js');
  });

  it('resolves directories too (the console build)', () => {
    const console = { source: '../../../console/dist/', built: './console/' };
    expect(shippedFile('file:///repo/apps/api/src/console/console.routes.ts', console).href).toBe(
      'file:///repo/apps/console/dist/',
    );
    expect(shippedFile('file:///app/dist/leadstream.js', console).href).toBe('file:///app/dist/console/');
  });

  it('tells TypeScript sources from JavaScript, whatever the query string', () => {
    expect(runsFromSource('file:///repo/a.ts')).toBe(true);
    expect(runsFromSource('file:///repo/a.mts?t=1')).toBe(true);
    expect(runsFromSource('file:///repo/page.tsx')).toBe(true);
    expect(runsFromSource('file:///app/dist/leadstream.js')).toBe(false);
    expect(runsFromSource('file:///app/dist/leadstream.mjs')).toBe(false);
  });

  it('is what this very module sees: its source under vitest', () => {
    expect(runsFromSource(import.meta.url)).toBe(true);
  });
});
