/**
 * `leadstream backup --to FILE` and `leadstream restore --from FILE` for the embedded engines
 * (docs/decisions.md "Retention and backup", README.md "Backup and restore").
 *
 * What DATA_DIR holds and what a backup covers:
 * - `store/documents.sqlite`: every document AND the embedded event log (its records and the
 *   consumer groups' offsets live in the store's database): covered. The copy is one consistent
 *   snapshot taken with `VACUUM INTO` on a read-only connection: the running service keeps its
 *   DATA_DIR lock (an exclusive SQLite lock on `log/event-log.sqlite`, which holds nothing else),
 *   and in WAL mode a reader neither waits for nor blocks its writers.
 * - `jwt-secret`, `crm-credentials-key`: covered (without the key, the stored CRM credentials and
 *   webhook signing secrets cannot be read).
 * - `exports/`: finished export files, covered (files being written are left out).
 * - `analytics/` (chDB): NOT covered. The projection is derived from `leads.events`: after a
 *   restore, `leadstream projector --rebuild` (service stopped) replays the events the log still
 *   holds (LOG_RETENTION_HOURS) into a fresh table.
 * - `outbox/` (mails written when SMTP_URL is unset, development only) and `log/` (the lock):
 *   NOT covered; nothing there is needed to start again.
 *
 * The backup FILE is itself a SQLite database: the store's snapshot plus two tables of its own
 * (`_leadstream_backup_meta`, `_leadstream_backup_files`) that restore takes out again.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import Database from 'better-sqlite3';

export const STORE_FILE = join('store', 'documents.sqlite');
/** Top-level files of DATA_DIR a backup carries (the secrets generated at first start). */
export const BACKED_UP_FILES = ['jwt-secret', 'crm-credentials-key'] as const;
/** Directories of DATA_DIR a backup carries, file by file. */
export const BACKED_UP_DIRS = ['exports'] as const;
export const BACKUP_FORMAT = 'leadstream-backup/1';

const META_TABLE = '_leadstream_backup_meta';
const FILES_TABLE = '_leadstream_backup_files';

/** A refusal with a message meant for the operator (no stack trace). */
export class BackupError extends Error {
  readonly code = 'BACKUP_REFUSED' as const;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  /** DATA_DIR-relative paths of the files carried besides the store. */
  files: string[];
  leads: number;
  logRecords: number;
  ms: number;
}

function listFiles(dataDir: string, dir: string): string[] {
  const root = join(dataDir, dir);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    if (entry.name.includes('.partial')) continue; // an export still being written
    out.push(relative(dataDir, path));
  }
  return out.sort();
}

function count(db: Database.Database, table: string): number {
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  return exists ? (db.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number) : 0;
}

/** Takes an online, consistent copy of DATA_DIR's embedded data into `to` (which must not exist). */
export function backupDataDir(dataDir: string, to: string, now: () => Date = () => new Date()): BackupSummary {
  const started = performance.now();
  const target = resolve(to);
  const source = join(dataDir, STORE_FILE);
  if (!existsSync(source))
    throw new BackupError(
      `${dataDir} holds no embedded store (${STORE_FILE}): nothing to back up (with MONGODB_URI set, back up MongoDB with its own tools)`,
    );
  if (existsSync(target)) throw new BackupError(`${target} exists already: choose a new file`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  try {
    // Read-only and without the DATA_DIR lock: the service keeps running and writing.
    const snapshotSource = new Database(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
    try {
      snapshotSource.prepare('VACUUM INTO ?').run(partial);
    } finally {
      snapshotSource.close();
    }
    chmodSync(partial, 0o600);
    const files = [
      ...BACKED_UP_FILES.filter((name) => existsSync(join(dataDir, name))),
      ...BACKED_UP_DIRS.flatMap((dir) => listFiles(dataDir, dir)),
    ];
    const out = new Database(partial);
    const carried: string[] = [];
    let leads: number;
    let logRecords: number;
    try {
      out.exec(`CREATE TABLE ${META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE ${FILES_TABLE} (path TEXT PRIMARY KEY, mode INTEGER NOT NULL, content BLOB NOT NULL);`);
      const putFile = out.prepare(`INSERT INTO ${FILES_TABLE} (path, mode, content) VALUES (?, ?, ?)`);
      out.transaction(() => {
        for (const path of files) {
          let content: Buffer;
          try {
            content = readFileSync(join(dataDir, path));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // an export swept meanwhile
            throw error;
          }
          putFile.run(path, statSync(join(dataDir, path)).mode & 0o777, content);
          carried.push(path);
        }
        const putMeta = out.prepare(`INSERT INTO ${META_TABLE} (key, value) VALUES (?, ?)`);
        putMeta.run('format', BACKUP_FORMAT);
        putMeta.run('created_at', now().toISOString());
        putMeta.run('files', JSON.stringify(carried));
      })();
      leads = count(out, 'leads');
      logRecords = count(out, '_leadstream_log_records');
    } finally {
      out.close();
    }
    renameSync(partial, target);
    return {
      file: target,
      bytes: statSync(target).size,
      files: carried,
      leads,
      logRecords,
      ms: Math.round(performance.now() - started),
    };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

export interface RestoreSummary {
  dataDir: string;
  createdAt: string;
  files: string[];
  leads: number;
  logRecords: number;
}

/** Brings a backup back into an empty (or missing) DATA_DIR. */
export function restoreDataDir(from: string, dataDir: string): RestoreSummary {
  const source = resolve(from);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist`);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty: restore only into an empty or new directory (stop the service and choose another DATA_DIR, or move this one away)`,
    );
  }
  let createdAt: string;
  {
    let check: Database.Database;
    try {
      check = new Database(source, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new BackupError(`${source} is not a leadstream backup: ${(error as Error).message}`);
    }
    try {
      const format = check.prepare(`SELECT value FROM ${META_TABLE} WHERE key = 'format'`).pluck().get() as
        string | undefined;
      if (format !== BACKUP_FORMAT)
        throw new BackupError(
          `${source} is not a leadstream backup (format ${format ?? 'unknown'}, expected ${BACKUP_FORMAT})`,
        );
      createdAt = check.prepare(`SELECT value FROM ${META_TABLE} WHERE key = 'created_at'`).pluck().get() as string;
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(`${source} is not a leadstream backup: ${(error as Error).message}`);
    } finally {
      check.close();
    }
  }
  mkdirSync(join(dataDir, dirname(STORE_FILE)), { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const store = join(dataDir, STORE_FILE);
  const partial = `${store}.restoring`;
  copyFileSync(source, partial);
  chmodSync(partial, 0o600);
  const files: string[] = [];
  let leads: number;
  let logRecords: number;
  try {
    const db = new Database(partial);
    try {
      const rows = db.prepare(`SELECT path, mode, content FROM ${FILES_TABLE} ORDER BY path`).all() as Array<{
        path: string;
        mode: number;
        content: Buffer;
      }>;
      for (const row of rows) {
        const path = resolve(dataDir, row.path);
        if (relative(dataDir, path).startsWith('..'))
          throw new BackupError(`${source} names a file outside DATA_DIR (${row.path})`);
        mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
        writeFileSync(path, row.content, { mode: row.mode & 0o600 });
        files.push(row.path);
      }
      db.exec(`DROP TABLE ${FILES_TABLE}; DROP TABLE ${META_TABLE};`);
      leads = count(db, 'leads');
      logRecords = count(db, '_leadstream_log_records');
    } finally {
      db.close();
    }
    renameSync(partial, store);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return { dataDir, createdAt, files, leads, logRecords };
}
