/**
 * Keeps a second process off a data dir. Consumer groups of the embedded log coordinate in memory,
 * so two processes on one dir would both think they own every partition.
 *
 * The lock itself is SQLite's: the database runs in EXCLUSIVE locking mode and takes a write lock
 * at open, which the OS releases when the process dies, so a crash never leaves a stale lock. The
 * LOCK file beside it only says who holds the lock, for the error message.
 */
import type Database from 'better-sqlite3';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  readonly code = 'DATA_DIR_LOCKED' as const;
}

function holderOf(lockFile: string): string {
  try {
    return readFileSync(lockFile, 'utf8').trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Takes the lock on an open database or throws DataDirLockedError. Returns the release function. */
export function lockDataDir(db: Database.Database, dataDir: string): () => void {
  const lockFile = join(dataDir, 'LOCK');
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // The first write transaction takes the exclusive lock, held until the connection closes.
    db.exec('BEGIN IMMEDIATE; COMMIT');
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new DataDirLockedError(
        `the embedded event log in ${dataDir} is in use by another process (${holderOf(lockFile)}); ` +
          'only one process may open a data dir: stop it, or use Kafka (KAFKA_BROKERS) to run several processes',
      );
    }
    throw error;
  }
  writeFileSync(lockFile, `pid ${process.pid}\n`, { mode: 0o600 });
  return () => rmSync(lockFile, { force: true });
}
