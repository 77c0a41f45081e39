/**
 * Runs POST /api/enrichment/test off the API's event loop (docs/enrichment-rules.md "Testing a
 * rule"). Rules are legal one by one, but an organization's whole set run on a large lead can take
 * seconds of CPU; on the HTTP thread that would hold every other request of the process.
 *
 * - A small pool of worker threads (`threads`, default 2), each started on the first test that
 *   needs it and kept afterwards; a thread runs one test at a time (enrichment-tester.thread.ts,
 *   which calls `runEnrichmentTest`, hence `enrichLead`, as the enrich stage does).
 * - A test may run `timeLimitMs` (default 2 s) and use `maxHeapMb` of memory; past either, its
 *   thread is terminated, a fresh one started in its place, and the test refused with 503
 *   SERVICE_UNAVAILABLE naming the limit.
 * - At most `maxWaiting` tests wait for a thread; one more is refused with 503 and Retry-After.
 *
 * Threads are unref'd: they never keep the process alive, and end with it.
 */
import { Worker } from 'node:worker_threads';
import { DomainError, type EnrichmentConfig } from '@leadstream/domain';
import { shippedFile } from '@leadstream/runtime';
import type { EnrichmentTestAnswer } from './enrichment-test';

export interface EnrichmentTesterOptions {
  /** Threads running tests at once (1 or 2 make sense; default 2). */
  threads?: number;
  /** Longest a test may run on its thread (default 2,000 ms). */
  timeLimitMs?: number;
  /** Tests that may wait for a thread (default 4). */
  maxWaiting?: number;
  /** Heap of one thread (default 256 MB). */
  maxHeapMb?: number;
}

/** What the API sends a tester thread. */
export interface TesterTask {
  id: number;
  leadData: Record<string, unknown>;
  config: EnrichmentConfig;
  now: Date;
}

/** What a tester thread sends back. */
export type TesterReply =
  | { kind: 'ready' }
  | { kind: 'answer'; id: number; answer: EnrichmentTestAnswer }
  | { kind: 'failed'; id: number; message: string };

interface Job {
  leadData: Record<string, unknown>;
  config: EnrichmentConfig;
  now: Date;
  resolve(answer: EnrichmentTestAnswer): void;
  reject(error: unknown): void;
}

interface Slot {
  /** The thread once it said it is ready (or the start under way). */
  worker: Promise<Worker> | null;
  busy: boolean;
}

export const DEFAULT_TEST_TIME_LIMIT_MS = 2_000;

// enrichment-tester.boot.mjs loads enrichment-tester.thread.ts through tsx; the build bundles it as enrichment-tester.thread.js.
const THREAD_ENTRY = shippedFile(import.meta.url, {
  source: './enrichment-tester.boot.mjs',
  built: './enrichment-tester.thread.js',
});

const shuttingDown = (): DomainError =>
  new DomainError('SERVICE_UNAVAILABLE', 'The enrichment tester is shutting down');

export class EnrichmentTester {
  private readonly timeLimitMs: number;
  private readonly maxWaiting: number;
  private readonly maxHeapMb: number;
  private readonly slots: Slot[];
  private readonly waiting: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(options: EnrichmentTesterOptions = {}) {
    this.timeLimitMs = options.timeLimitMs ?? DEFAULT_TEST_TIME_LIMIT_MS;
    this.maxWaiting = options.maxWaiting ?? 4;
    this.maxHeapMb = options.maxHeapMb ?? 256;
    this.slots = Array.from({ length: Math.max(1, options.threads ?? 2) }, () => ({ worker: null, busy: false }));
  }

  /** The test's answer, computed on a tester thread. */
  run(leadData: Record<string, unknown>, config: EnrichmentConfig, now: Date): Promise<EnrichmentTestAnswer> {
    return new Promise((resolve, reject) => {
      const job: Job = { leadData, config, now, resolve, reject };
      if (this.closed) return reject(shuttingDown());
      const idle = this.slots.find((slot) => !slot.busy);
      if (idle) return void this.dispatch(idle, job);
      if (this.waiting.length >= this.maxWaiting) {
        return reject(
          new DomainError(
            'SERVICE_UNAVAILABLE',
            'Too many enrichment tests are running; try again in a moment',
            undefined,
            { retry_after: Math.max(1, Math.ceil(this.timeLimitMs / 1000)) },
          ),
        );
      }
      this.waiting.push(job);
    });
  }

  /** Stops every thread; tests still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(shuttingDown());
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker;
        slot.worker = null;
        if (worker) await worker.then((thread) => thread.terminate()).catch(() => undefined);
      }),
    );
  }

  private async dispatch(slot: Slot, job: Job): Promise<void> {
    slot.busy = true;
    try {
      slot.worker ??= this.start();
      let worker: Worker;
      try {
        worker = await slot.worker;
      } catch (error) {
        slot.worker = null;
        throw error;
      }
      if (this.closed) throw shuttingDown();
      job.resolve(await this.exchange(slot, worker, job));
    } catch (error) {
      job.reject(error);
    } finally {
      slot.busy = false;
      const next = this.waiting.shift();
      if (next) void this.dispatch(slot, next);
    }
  }

  /** A new thread, once it has loaded its code (not counted in any test's time). */
  private start(): Promise<Worker> {
    const worker = new Worker(THREAD_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb } });
    worker.unref();
    return new Promise((resolve, reject) => {
      const onMessage = (message: TesterReply) => {
        if (message.kind !== 'ready') return;
        settle();
        resolve(worker);
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      const onExit = (code: number) => {
        settle();
        reject(new Error(`the enrichment tester thread exited while starting (code ${code})`));
      };
      const settle = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
    });
  }

  /** Sends the test to the thread and waits for its answer, or stops the thread at the time limit. */
  private exchange(slot: Slot, worker: Worker, job: Job): Promise<EnrichmentTestAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      /** The thread cannot be trusted any more: it is terminated and a fresh one started. */
      const replace = (error: Error) => {
        settle();
        void worker.terminate();
        slot.worker = null;
        if (!this.closed) {
          const fresh = this.start();
          slot.worker = fresh;
          // A fresh thread that fails to start is started again by the next test.
          fresh.catch(() => {
            if (slot.worker === fresh) slot.worker = null;
          });
        }
        reject(error);
      };
      const onMessage = (message: TesterReply) => {
        if (message.kind === 'ready' || message.id !== id) return;
        settle();
        if (message.kind === 'answer') resolve(message.answer);
        else reject(new Error(`the enrichment test failed: ${message.message}`));
      };
      const onError = (error: Error & { code?: string }) =>
        replace(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.outOfMemory() : error);
      const onExit = (code: number) => replace(new Error(`the enrichment tester thread exited (code ${code})`));
      const timer = setTimeout(() => replace(this.tooSlow()), this.timeLimitMs);
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
      try {
        worker.postMessage({ id, leadData: job.leadData, config: job.config, now: job.now } satisfies TesterTask);
      } catch (error) {
        settle();
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private tooSlow(): DomainError {
    const limit = `${this.timeLimitMs} ms`;
    return new DomainError(
      'SERVICE_UNAVAILABLE',
      `The enrichment test did not finish within ${limit} and was stopped`,
      [
        {
          field: 'lead_data',
          message: `lead_data took longer than ${limit} to run through the organization's rules, lookup tables and calculated fields; test with fewer or simpler rules, or a smaller lead`,
        },
      ],
    );
  }

  private outOfMemory(): DomainError {
    return new DomainError(
      'SERVICE_UNAVAILABLE',
      `The enrichment test needed more than ${this.maxHeapMb} MB and was stopped`,
      [
        {
          field: 'lead_data',
          message: `lead_data needed more than ${this.maxHeapMb} MB to run through the organization's rules, lookup tables and calculated fields; test with fewer or simpler rules, or a smaller lead`,
        },
      ],
    );
  }
}
