/**
 * The production `createApiApp` with exports mounted, on the embedded log and store in a temp
 * dir, plus the export stage's handler and sweep over the same engines, so a test decides when
 * the stage runs (and can hand it the same request twice). The exports clock is the test's;
 * session tokens keep real time.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountTokenRepository, createDal, ensureIndexes, ExportRepository, LeadRepository, SessionRepository, UserRepository } from '@leadstream/dal';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { FilesystemExportFileStore } from '@leadstream/engine-files';
import { nodeHandler } from '@leadstream/http';
import type { Analytics, DocumentStore, EventLog, ExportFileStore, LogRecord } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import { ExportWorker, type ExportStageDependencies, type SweepResult } from '@leadstream/worker';
import { pino } from 'pino';
import { CapturingMailer, TEST_JWT_SECRET } from '../accounts/accounts.test-support';
import { createApiApp } from '../api.app';
import { DecisionWaiter } from '../ingestion/decision-waiter';

const noAnalytics = new Proxy({} as Analytics, {
  get(_target, property) {
    if (property === 'then') return undefined;
    throw new Error(`analytics.${String(property)} is not available in the export tests`);
  },
});

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
  const store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  const log = await openEmbeddedLog({ dataDir: join(dir, 'log') });
  await log.ensureTopics(['leads.events', 'leads.decisions', 'leads.submitted', 'exports.requests'].map((topic) => ({ topic, partitions: 1 })));
  await ensureIndexes(store);
  await UserRepository.ensureIndexes(store);
  await SessionRepository.ensureIndexes(store);
  await AccountTokenRepository.ensureIndexes(store);
  await LeadRepository.ensureIndexes(store);
  await ExportRepository.ensureIndexes(store);
  const files = await FilesystemExportFileStore.open(join(dir, 'exports'));
  let offset = 0;
  const now = (): Date => new Date(Date.now() + offset);
  const app = createApiApp({
    log,
    store,
    analytics: noAnalytics,
    logger: pino({ level: 'silent' }),
    metrics: new Metrics(),
    readiness: [],
    isStopping: () => false,
    dal: createDal(store),
    leads: new LeadRepository(store),
    waiter: new DecisionWaiter(log),
    decisionTimeoutMs: 1_000,
    accounts: { jwtSecret: TEST_JWT_SECRET, appUrl: 'https://app.test/', mailer: new CapturingMailer(), rateLimits: { authentication: 1_000, generalApi: 1_000 } },
    exports: { files, clock: now },
  });
  const server: Server = createServer(nodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
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
    url: `http://127.0.0.1:${port}`,
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
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await log.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every record of a topic so far, read with a throwaway consumer group. */
export async function readTopic(log: EventLog, topic: string, timeoutMs = 20_000): Promise<LogRecord[]> {
  const records: LogRecord[] = [];
  const consumer = log.consumer({ groupId: `read-${randomUUID()}`, topics: [topic], fromBeginning: true });
  await consumer.start(async (batch) => {
    records.push(...batch.records);
  });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const lag = await consumer.lag();
      if (lag.length > 0 && lag.every((entry) => entry.lag === 0)) break;
      if (Date.now() > deadline) throw new Error(`could not drain ${topic} in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await consumer.stop();
  }
  return records.sort((a, b) => a.partition - b.partition || Number(a.offset) - Number(b.offset));
}
