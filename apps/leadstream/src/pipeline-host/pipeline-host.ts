/**
 * Starts the pipeline thread of `leadstream start` and talks to it: the log it serves (embedded
 * engines), its metrics, its stop, and its crash (which stops the whole process so a supervisor
 * restarts it).
 */
import { Worker } from 'node:worker_threads';
import type { ReadinessCheck } from '@leadstream/http';
import type { EmbeddedStore } from '@leadstream/engine-embedded-store';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { shippedFile, type RemoteMetrics } from '@leadstream/runtime';
import type { LeadChangeCommitter } from '@leadstream/api';
import { connectLeadChanges } from './lead-change-bridge';
import { connectEventLog } from './log-bridge';
import { connectStore } from './store-bridge';
import type { PipelineThreadData } from './pipeline-thread';
import { threadRequests } from './thread-requests';

export interface PipelineThread {
  /** The log the thread serves, when it owns it (embedded engines). */
  readonly log: EventLog | undefined;
  /** Where the API's lead changes are committed, when the thread owns the database (embedded engines). */
  readonly leadChanges: LeadChangeCommitter | undefined;
  /**
   * When the thread owns the embedded store's only read-write connection: the store for this
   * thread, reading through `reader` (a read-only connection) and writing through the thread
   * (store-bridge.ts).
   */
  readonly connectStore: ((reader: EmbeddedStore) => DocumentStore) | undefined;
  /** The thread's metrics; rejects when the thread does not answer in time (/metrics then shows this thread's alone). */
  readonly metrics: RemoteMetrics;
  /** The thread's readiness checks (by name), asked of the thread when /readyz runs; one the thread does not answer in time fails. */
  readonly readiness: ReadinessCheck[];
  /** Resolves with a reason when the thread fails after start (a consumer crashed, the thread died). */
  readonly crashed: Promise<string>;
  /** Listens to the decisions of each committed batch (embedded engines: they go to no topic). */
  onDecisions(listener: (values: string[]) => void): void;
  /** Drains the stages, commits, closes the thread's engines, and ends the thread. */
  stop(): Promise<void>;
}

/** Raised when the thread could not start (a locked data dir, a bad configuration): the thread's error, name and code. */
export class PipelineStartError extends Error {
  constructor(
    message: string,
    readonly code: unknown,
    name: string,
  ) {
    super(message);
    this.name = name;
  }
}

export async function startPipelineThread(
  env: NodeJS.ProcessEnv,
  serves: { log: boolean; store: boolean },
): Promise<PipelineThread> {
  const data: PipelineThreadData = { env: { ...env }, serveLog: serves.log, serveStore: serves.store };
  const serveLog = serves.log;
  // pipeline-thread.boot.mjs loads pipeline-thread.ts through tsx; the build bundles it as pipeline-thread.js.
  const entry = shippedFile(import.meta.url, { source: './pipeline-thread.boot.mjs', built: './pipeline-thread.js' });
  const worker = new Worker(entry, { workerData: data });
  let reportCrash!: (reason: string) => void;
  const crashed = new Promise<string>((resolve) => (reportCrash = resolve));
  let stopping = false;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  void exited.then((code) => {
    if (!stopping) reportCrash(`the pipeline thread exited (code ${code})`);
  });

  const checkNames = await new Promise<string[]>((resolve, reject) => {
    const onMessage = (message: {
      kind?: string;
      message?: string;
      code?: unknown;
      name?: string;
      checks?: string[];
    }): void => {
      if (message.kind === 'host.ready') {
        worker.off('message', onMessage);
        resolve(message.checks ?? []);
      } else if (message.kind === 'host.failed') {
        worker.off('message', onMessage);
        stopping = true;
        void worker.terminate();
        reject(
          new PipelineStartError(
            message.message ?? 'the pipeline thread failed to start',
            message.code,
            message.name ?? 'Error',
          ),
        );
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
  worker.on('error', (error) => reportCrash(`the pipeline thread failed: ${error.message}`));
  let decisionListener: (values: string[]) => void = () => undefined;
  worker.on('message', (message: { kind?: string; part?: string; values?: string[] }) => {
    if (message.kind === 'host.crashed') reportCrash(`${message.part ?? 'a stage'} crashed in the pipeline thread`);
    else if (message.kind === 'host.decisions') decisionListener(message.values ?? []);
  });

  // Each question waits a bounded time and leaves no listener behind (thread-requests.ts).
  const { metrics, readiness } = threadRequests(worker, checkNames);

  return {
    log: serveLog ? connectEventLog(worker, 'embedded', exited) : undefined,
    leadChanges: serveLog ? connectLeadChanges(worker, exited) : undefined,
    connectStore: serves.store ? (reader) => connectStore(reader, worker, exited) : undefined,
    metrics,
    readiness,
    crashed,
    onDecisions(listener) {
      decisionListener = listener;
    },
    async stop() {
      if (stopping) return;
      stopping = true;
      const stopped = new Promise<void>((resolve) => {
        const onMessage = (message: { kind?: string }): void => {
          if (message.kind === 'host.stopped') resolve();
        };
        worker.on('message', onMessage);
        void exited.then(() => resolve());
      });
      worker.postMessage({ kind: 'host.stop' });
      await stopped;
      await worker.terminate();
    },
  };
}
