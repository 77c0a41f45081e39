/**
 * Buffers analytics rows per table and writes them in batches: ClickHouse wants few large inserts
 * (each insert creates a part on disk), while the projector receives events one at a time.
 */
import type { Analytics } from '@leadstream/ports';
import type { AnalyticsLogger } from './clickhouse-analytics';

export interface AnalyticsBatcherOptions {
  /** Flush once this many rows (all tables together) are buffered. */
  maxRows: number;
  /** Flush at most this long after the first row entered an empty buffer. */
  maxDelayMs: number;
  logger?: AnalyticsLogger;
}

type Row = Record<string, unknown>;

export class AnalyticsBatcher {
  readonly #analytics: Analytics;
  readonly #options: AnalyticsBatcherOptions;
  readonly #buffers = new Map<string, Row[]>();
  #buffered = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Flushes run one after another, so batches of one table reach the engine in order. */
  #chain: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(analytics: Analytics, options: AnalyticsBatcherOptions) {
    if (!(options.maxRows >= 1)) throw new Error('AnalyticsBatcher: maxRows must be at least 1');
    if (!(options.maxDelayMs >= 0)) throw new Error('AnalyticsBatcher: maxDelayMs must not be negative');
    this.#analytics = analytics;
    this.#options = options;
  }

  /** Rows buffered and not yet written. */
  get pending(): number {
    return this.#buffered;
  }

  /**
   * Buffers rows. Resolves at once, unless they bring the buffer to `maxRows`: then it resolves when
   * that flush is done and rejects with its error, which slows a producer down to the engine's pace.
   */
  async add(table: string, rows: Row[]): Promise<void> {
    if (this.#closed) throw new Error('AnalyticsBatcher is closed');
    if (rows.length === 0) return;
    const buffer = this.#buffers.get(table);
    if (buffer) buffer.push(...rows);
    else this.#buffers.set(table, [...rows]);
    this.#buffered += rows.length;
    if (this.#buffered >= this.#options.maxRows) return this.flush();
    this.#armTimer();
  }

  /**
   * Writes every buffered row, one insert per table. Rejects with the first insert error; rows of a
   * failed insert stay buffered (ahead of newer ones) for the next flush.
   */
  flush(): Promise<void> {
    this.#disarmTimer();
    const run = this.#chain.then(() => this.#drain());
    this.#chain = run.catch(() => undefined);
    return run;
  }

  /**
   * Refuses further rows and flushes. When that flush fails the rows stay buffered and `flush()`
   * may be called again to retry them.
   */
  async close(): Promise<void> {
    this.#closed = true;
    await this.flush();
  }

  async #drain(): Promise<void> {
    const batches = [...this.#buffers];
    this.#buffers.clear();
    this.#buffered = 0;
    let firstError: Error | undefined;
    for (const [table, rows] of batches) {
      try {
        await this.#analytics.insert(table, rows);
      } catch (error) {
        firstError ??= error instanceof Error ? error : new Error(String(error));
        const newer = this.#buffers.get(table) ?? [];
        this.#buffers.set(table, [...rows, ...newer]);
        this.#buffered += rows.length;
      }
    }
    if (firstError !== undefined) throw firstError;
  }

  #armTimer(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      // Nobody awaits a timed flush: log its failure and try again after another delay. The rows
      // stay buffered, so the next flush() (or close()) retries them and reports the error.
      this.flush().catch((error: unknown) => {
        this.#options.logger?.warn({ err: error, pending: this.#buffered }, 'analytics batch flush failed; will retry');
        if (this.#buffered > 0) this.#armTimer();
      });
    }, this.#options.maxDelayMs);
    // A pending batch alone should not keep the process alive; close() is what flushes at shutdown.
    this.#timer.unref?.();
  }

  #disarmTimer(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
