/**
 * Failures worth retrying without end, because the same work may succeed once the store or the
 * log is back: a busy SQLite database, a lost connection, a broker that is not the leader yet.
 * Everything else (a schema error, a bug) is retried a few times and then dead-lettered.
 */
const TRANSIENT_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
const TRANSIENT_NAMES = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoTopologyClosedError', 'KafkaJSConnectionError', 'KafkaJSRequestTimeoutError', 'KafkaJSNumberOfRetriesExceeded', 'KafkaJSBrokerNotFound']);

export function isTransientError(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const candidate = current as { code?: unknown; name?: unknown; retriable?: unknown; errorLabels?: unknown; hasErrorLabel?: (label: string) => boolean; cause?: unknown; originalError?: unknown };
    if (typeof candidate.code === 'string' && TRANSIENT_CODES.has(candidate.code)) return true;
    if (typeof candidate.name === 'string' && TRANSIENT_NAMES.has(candidate.name)) return true;
    if (candidate.retriable === true) return true;
    if (typeof candidate.hasErrorLabel === 'function' && (candidate.hasErrorLabel('RetryableWriteError') || candidate.hasErrorLabel('TransientTransactionError'))) return true;
    current = candidate.cause ?? candidate.originalError;
  }
  return false;
}
