/**
 * Checkpoints the store's write-ahead log from a worker thread.
 *
 * A checkpoint copies the WAL's pages into the database file and, with synchronous=NORMAL or
 * FULL, fsyncs it. Left to SQLite's automatic checkpoint, that happens inside whichever commit
 * crosses the threshold, on the connection of the process's only JavaScript thread (better-sqlite3
 * is synchronous), and stalls every request for as long as the disk takes: in the single-ingest
 * benchmark it was the p99 at half load (285-658 ms against 36 ms without it, docs/performance.md).
 *
 * So the main connection only checkpoints as a backstop (a far larger threshold), and a worker
 * thread with its own connection runs PASSIVE checkpoints every `intervalMs`. PASSIVE never blocks
 * the writer, and once a checkpoint has copied every frame the next commit starts the WAL over
 * from its beginning, so the file stays small. Durability is unchanged: a commit is acknowledged
 * once it is in the WAL, exactly as before.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The main connection's own threshold, in pages: only reached if the worker falls far behind. */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 20_000;

// Plain CommonJS run with `eval`, so the worker needs no TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface CheckpointerOptions {
  file: string;
  /** How often the worker checkpoints. */
  intervalMs: number;
  onError(message: string): void;
}

export class BackgroundCheckpointer {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  constructor(options: CheckpointerOptions) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file: options.file, driver, intervalMs: options.intervalMs },
    });
    this.worker.on('message', (message: { error?: string }) => {
      if (message.error) options.onError(message.error);
    });
    this.worker.on('error', (error) => options.onError(error.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.unref(); // never keeps a process alive
  }

  /** Stops the worker after its current checkpoint; resolves once its connection is closed. */
  async close(): Promise<void> {
    // Referenced again while it stops: an unreferenced worker would let a process whose last
    // work is this close() exit before the worker has closed its connection.
    this.worker.ref();
    this.worker.postMessage('close');
    await this.exited;
  }
}
