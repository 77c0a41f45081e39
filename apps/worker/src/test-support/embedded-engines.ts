/**
 * A fresh embedded event log (with every pipeline topic, one partition each) and embedded store
 * for each test of a stage spec, closed and removed after it. Call at the top of a spec file;
 * read `engines.log` / `engines.store` inside the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { afterEach, beforeEach } from 'vitest';
import { TOPICS } from '../pipeline/outputs';

export interface EmbeddedEngines {
  readonly log: EventLog;
  readonly store: DocumentStore;
}

export function useEmbeddedEngines(name: string): EmbeddedEngines {
  let dir: string | undefined;
  let log: EventLog | undefined;
  let store: DocumentStore | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), `${name}-`));
    log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
    store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
    await log.ensureTopics(Object.values(TOPICS).map((topic) => ({ topic, partitions: 1 })));
  });
  afterEach(async () => {
    await log?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the embedded engines exist only inside a test');
    return value;
  };
  return {
    get log() {
      return current(log);
    },
    get store() {
      return current(store);
    },
  };
}
