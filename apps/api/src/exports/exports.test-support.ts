/**
 * The API test server (`../api.test-support`) with exports mounted over files in its temp dir,
 * plus the export stage's handler and sweep over the same engines, so a test decides when the
 * stage runs (and can hand it the same request twice). The exports clock is the test's; session
 * tokens keep real time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportRepository, LeadRepository } from '@leadstream/dal';
import { FilesystemExportFileStore } from '@leadstream/engine-files';
import type { DocumentStore, EventLog, ExportFileStore, LogRecord } from '@leadstream/ports';
import { TOPICS } from '@leadstream/runtime';
import { ExportWorker, type ExportStageDependencies, type SweepResult } from '@leadstream/worker';
import { pino } from 'pino';
import { CapturingMailer } from '../accounts/accounts.test-support';
import { startApiTestServer } from '../api.test-support';

export interface ExportsTestServer {
  url: string;
  store: DocumentStore;
  log: EventLog;
  files: ExportFileStore;
  /** The exports clock (api and stage); move it with `advance`. */
  now(): Date;
  advance(ms: number): void;
  /** Stage dependencies over this server's engines; override the file store to inject failures. */
  stageDeps(overrides?: Partial<ExportStageDependencies>): ExportStageDependencies;
  /** Runs the export stage on a record of exports.requests, as a delivery would, and waits for its generation. */
  deliver(record: LogRecord, overrides?: Partial<ExportStageDependencies>): Promise<void>;
  /** A stage of its own (e.g. to stop it mid-generation). */
  worker(overrides?: Partial<ExportStageDependencies>): ExportWorker;
  /** One sweep (expiry, abandoned exports), waiting for the generations it restarts. */
  sweep(): Promise<SweepResult>;
  close(): Promise<void>;
}

export async function startExportsServer(): Promise<ExportsTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-exports-'));
  const files = await FilesystemExportFileStore.open(join(dir, 'exports'));
  let offset = 0;
  const now = (): Date => new Date(Date.now() + offset);
  const server = await startApiTestServer({
    dir,
    mailer: new CapturingMailer(),
    topics: [TOPICS.exportRequests],
    repositories: [LeadRepository, ExportRepository],
    exports: { files, clock: now },
  });
  const { store, log } = server;
  const stageDeps = (overrides: Partial<ExportStageDependencies> = {}): ExportStageDependencies => ({
    exports: new ExportRepository(store),
    files,
    log,
    logger: pino({ level: 'silent' }),
    now,
    batchSize: 2,
    ...overrides,
  });
  return {
    url: server.url,
    store,
    log,
    files,
    now,
    advance: (ms) => {
      offset += ms;
    },
    stageDeps,
    deliver: async (record, overrides) => {
      const worker = new ExportWorker(stageDeps(overrides));
      await worker.handle(record);
      await worker.idle();
    },
    worker: (overrides) => new ExportWorker(stageDeps(overrides)),
    sweep: async () => {
      const worker = new ExportWorker(stageDeps());
      const result = await worker.sweep();
      await worker.idle();
      return result;
    },
    close: () => server.close(),
  };
}
