/**
 * Buffers analytics rows per table and writes them in batches: ClickHouse wants few large inserts
 * (each insert creates a part on disk), while producers hand over rows in small pieces.
 *
 * Two ways in:
 * - `add`: fire and forget; rows of a failed flush stay buffered for the next one.
 * - `write`: resolves once the flush that carries the rows has written them, and rejects if it
 *   failed (those rows are then dropped: the caller still holds them and retries). The projector
 *   uses it to commit offsets only after its rows are stored, while the batches of partitions
 *   consumed at the same time share one insert.
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

interface Acknowledged {
  rows: Row[];
  resolve: () => void;
  reject: (error: Error) => void;
}

export class AnalyticsBatcher {
  readonly #analytics: Analytics;
  readonly #options: AnalyticsBatcherOptions;
  readonly #buffers = new Map<string, Row[]>();
  /** Rows of `write`, per table, with whom to tell. */
  readonly #acknowledged = new Map<string, Acknowledged[]>();
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
   * Buffers rows and resolves once they are written, by a flush at `maxRows` or after `maxDelayMs`;
   * rejects with the insert's error when that flush fails, and the rows are not kept.
   */
  write(table: string, rows: Row[]): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('AnalyticsBatcher is closed'));
    if (rows.length === 0) return Promise.resolve();
    const written = new Promise<void>((resolve, reject) => {
      const waiting = this.#acknowledged.get(table);
      const entry: Acknowledged = { rows, resolve, reject };
      if (waiting) waiting.push(entry);
      else this.#acknowledged.set(table, [entry]);
    });
    this.#buffered += rows.length;
    if (this.#buffered >= this.#options.maxRows) void this.flush().catch(() => undefined);
    else {
      this.#armTimer();
      // Someone awaits this flush: its timer must keep the process alive (an `add` timer does not).
      this.#timer?.ref?.();
    }
    return written;
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
    const tables = new Set([...this.#buffers.keys(), ...this.#acknowledged.keys()]);
    const batches = [...tables].map((table) => ({
      table,
      rows: this.#buffers.get(table) ?? [],
      acknowledged: this.#acknowledged.get(table) ?? [],
    }));
    this.#buffers.clear();
    this.#acknowledged.clear();
    this.#buffered = 0;
    let firstError: Error | undefined;
    for (const { table, rows, acknowledged } of batches) {
      try {
        await this.#analytics.insert(table, [...rows, ...acknowledged.flatMap((entry) => entry.rows)]);
        for (const entry of acknowledged) entry.resolve();
      } catch (error) {
        const failure = error instanceof Error ? error : new Error(String(error));
        for (const entry of acknowledged) entry.reject(failure);
        // Rows of `add` wait for the next flush; those of `write` went back to their callers.
        if (rows.length === 0) continue;
        firstError ??= failure;
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
