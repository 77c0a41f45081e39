/**
 * A fresh embedded store, an embedded event log on the store's connection (with every pipeline
 * topic, one partition each) and the atomic batch writer over both, for each test of a stage
 * spec; closed and removed after it. Call at the top of a spec file; read `engines.log` /
 * `engines.store` / `engines.writer` inside the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { type EmbeddedStore, openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { EventLog } from '@leadstream/ports';
import { afterEach, beforeEach } from 'vitest';
import { AtomicBatchWriter } from '../batch/atomic-batch-writer';
import type { BatchWriter } from '../batch/batch-write';
import { TOPICS } from '../pipeline/outputs';

export interface EmbeddedEngines {
  readonly log: EventLog;
  readonly store: EmbeddedStore;
  readonly writer: BatchWriter;
}

/** Opens the embedded engines the way engines.ts does (the log in the store's database). */
export async function openEmbeddedEngines(
  dir: string,
  partitions = 1,
): Promise<EmbeddedEngines & { close(): Promise<void> }> {
  const store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  const log = EmbeddedLog.open({ dataDir: join(dir, 'log'), shared: store });
  // Every pipeline topic with its dead-letter topic (the consumer runner creates those in production).
  await log.ensureTopics(
    Object.values(TOPICS)
      .flatMap((topic) => [topic, `${topic}.dlq`])
      .map((topic) => ({ topic, partitions })),
  );
  const writer = new AtomicBatchWriter({ store, log, topicPrefix: '' });
  return {
    log,
    store,
    writer,
    close: async () => {
      await log.close();
      await store.close();
    },
  };
}

export function useEmbeddedEngines(name: string): EmbeddedEngines {
  let dir: string | undefined;
  let engines: (EmbeddedEngines & { close(): Promise<void> }) | undefined;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), `${name}-`));
    engines = await openEmbeddedEngines(dir);
  });
  afterEach(async () => {
    await engines?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const current = (): EmbeddedEngines => {
    if (engines === undefined) throw new Error('the embedded engines exist only inside a test');
    return engines;
  };
  return {
    get log() {
      return current().log;
    },
    get store() {
      return current().store;
    },
    get writer() {
      return current().writer;
    },
  };
}
