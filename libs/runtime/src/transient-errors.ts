/**
 * Which failures may succeed if the same work is tried again (docs/decisions.md "Ingestion
 * pipeline", failures), and a retry loop for them. A transient failure of the store or the log (a
 * lost connection, a broker that is not the leader yet, a busy SQLite database, a full disk) is
 * retried with backoff for as long as it takes, so it never dead-letters a valid lead; everything
 * else is a failure of the record itself or a bug and is rethrown at once.
 *
 * The classifier reads the engines' errors by shape (name, code, `retriable`, error labels), not by
 * `instanceof`: runtime does not depend on kafkajs, mongodb or better-sqlite3, and a second copy of
 * a driver in node_modules would defeat `instanceof` anyway. The tests build each error from the
 * real library's class.
 */

/**
 * Node socket and DNS failures: the peer is away or restarting. And ENOSPC: the disk is full, which
 * the record is not at fault for, and which passes once space is freed (docs/chaos.md).
 */
const NODE_TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'ENOSPC',
]);

/**
 * better-sqlite3's SqliteError codes for another connection holding the database (extended codes
 * such as SQLITE_BUSY_SNAPSHOT and SQLITE_LOCKED_SHAREDCACHE included), and SQLITE_FULL ("database
 * or disk is full"): like ENOSPC, it passes once space is freed, so a batch waits for it instead
 * of dead-lettering valid records.
 */
const SQLITE_TRANSIENT_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL'];

/**
 * MongoDB driver errors that mean "the server could not be reached or answered in time". Not
 * MongoTopologyClosedError or MongoClientClosedError: those mean this process closed its client,
 * and no retry will reopen it.
 */
const MONGO_TRANSIENT_NAMES = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'PoolClearedOnNetworkError',
  'MongoWaitQueueTimeoutError',
]);
const MONGO_TRANSIENT_LABELS = ['RetryableWriteError', 'TransientTransactionError', 'ResetPool'];
/** The server codes the MongoDB retryable reads/writes specifications retry (replica set elections, shutdowns, network). */
const MONGO_RETRYABLE_CODES = new Set([6, 7, 89, 91, 134, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436]);
/**
 * FerretDB (the MongoDB-protocol server on PostgreSQL we test with, docs/store.md) answers
 * InternalError (code 1) when its PostgreSQL is away or restarting, where a MongoDB server would
 * drop the connection or answer a retryable code: its messages carry pgx's and PostgreSQL's words
 * for it (a failed connect, a cut connection, SQLSTATE class 08 or 57P01-57P03). Other
 * InternalErrors stay failures of the request.
 */
const FERRETDB_INTERNAL_ERROR = 1;
const FERRETDB_BACKEND_AWAY =
  /failed to connect to `|unexpected EOF|conn closed|\(SQLSTATE (?:08[0-9A-Z]{3}|57P0[123])\)/;

/**
 * kafkajs errors that are transient although their class says "non-retriable": kafkajs gives up
 * on them after its own short retry budget, but a coordinator that is still being elected is
 * found again a little later.
 */
const KAFKA_TRANSIENT_NAMES = new Set(['KafkaJSGroupCoordinatorNotFound']);

interface ErrorShape {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  retriable?: unknown;
  errorLabels?: unknown;
  cause?: unknown;
  originalError?: unknown;
  errors?: unknown;
}

/** How deep to follow `cause` chains (a cycle must not loop). */
const MAX_DEPTH = 8;

function isTransientAt(error: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || error === null || typeof error !== 'object') return false;
  const shape = error as ErrorShape;
  const name = typeof shape.name === 'string' ? shape.name : '';
  const { code } = shape;

  // kafkajs: every KafkaJSError carries `retriable` (protocol errors take it from Kafka's error
  // table: NOT_LEADER_FOR_PARTITION, LEADER_NOT_AVAILABLE, REQUEST_TIMED_OUT...; connection and
  // request-timeout errors are retriable). Our own engines mark errors the same way.
  if (shape.retriable === true) return true;
  if (KAFKA_TRANSIENT_NAMES.has(name)) return true;

  if (typeof code === 'string') {
    if (NODE_TRANSIENT_CODES.has(code)) return true;
    if (SQLITE_TRANSIENT_PREFIXES.some((prefix) => code.startsWith(prefix))) return true;
  }

  if (name.startsWith('Mongo') || name.startsWith('PoolCleared')) {
    if (MONGO_TRANSIENT_NAMES.has(name)) return true;
    if (
      Array.isArray(shape.errorLabels) &&
      MONGO_TRANSIENT_LABELS.some((label) => (shape.errorLabels as unknown[]).includes(label))
    )
      return true;
    if (typeof code === 'number' && MONGO_RETRYABLE_CODES.has(code)) return true;
    if (
      code === FERRETDB_INTERNAL_ERROR &&
      typeof shape.message === 'string' &&
      FERRETDB_BACKEND_AWAY.test(shape.message)
    )
      return true;
  }

  // An aggregate (kafkajs's KafkaJSAggregateError, node's AggregateError) is transient only when
  // every failure it gathers is.
  if (Array.isArray(shape.errors) && shape.errors.length > 0) {
    return shape.errors.every((inner) => isTransientAt(inner, depth + 1));
  }

  // A wrapper is as transient as what it wraps: kafkajs's KafkaJSNumberOfRetriesExceeded (itself
  // "non-retriable") carries the last retriable error as its cause; our engines wrap driver errors.
  const inner = shape.cause ?? shape.originalError;
  return inner !== undefined && inner !== error && isTransientAt(inner, depth + 1);
}

/**
 * True for a failure that may succeed on retry: a kafkajs retriable error, a MongoDB network,
 * server-selection or labelled retryable error (and FerretDB's word for its PostgreSQL being
 * away), a busy or locked SQLite database, a full disk (SQLITE_FULL, ENOSPC), a reset or refused
 * socket. False for everything else (a parse or schema error, a constraint violation, a
 * programming error), which retrying would only repeat.
 */
export function isTransientError(error: unknown): boolean {
  return isTransientAt(error, 0);
}

export interface RetryTransientOptions {
  /** Tries in all, the first included. Default: without end (until `signal` stops it). */
  attempts?: number;
  /** The delay before the first retry; each further retry doubles it. Default 100 ms. */
  baseDelayMs?: number;
  /** The longest delay between two tries. Default 30 s. */
  maxDelayMs?: number;
  /** Waits `ms` (tests pass one that takes no real time). Should end early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told before each wait: the failure, the number of the try that failed (1 = first), the delay. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Stops retrying (process shutdown): the last transient failure is then rethrown. */
  signal?: AbortSignal;
  /** Which failures to retry. Default isTransientError. */
  isTransient?: (error: unknown) => boolean;
  /** In [0, 1): the jitter. Default Math.random. */
  random?: () => number;
}

/**
 * The wait before retry number `attempt` (1 = after the first failure): exponential from
 * `baseDelayMs`, capped at `maxDelayMs`, with "equal jitter" (half fixed, half random) so that
 * many consumers that failed together do not retry together, yet never retry at once.
 */
export function backoffDelay(
  attempt: number,
  baseDelayMs: number,
  maxDelayMs: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt - 1, 40));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `fn` until it succeeds, retrying transient failures with exponential backoff and jitter.
 * A failure that is not transient is rethrown at once, without waiting; so is the last transient
 * failure once `attempts` tries are spent or `signal` has aborted. `fn` is told which try it is.
 */
export async function retryTransient<T>(
  fn: (attempt: number) => Promise<T>,
  options: RetryTransientOptions = {},
): Promise<T> {
  const {
    attempts = Number.POSITIVE_INFINITY,
    baseDelayMs = 100,
    maxDelayMs = 30_000,
    sleep = abortableSleep,
    onRetry,
    signal,
    isTransient = isTransientError,
    random = Math.random,
  } = options;
  if (!(attempts >= 1)) throw new RangeError(`retryTransient: attempts must be at least 1, got ${attempts}`);
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (!isTransient(error) || attempt >= attempts || signal?.aborted) throw error;
      const delayMs = backoffDelay(attempt, baseDelayMs, maxDelayMs, random);
      onRetry?.(error, attempt, delayMs);
      await sleep(delayMs, signal);
      if (signal?.aborted) throw error;
    }
  }
}
