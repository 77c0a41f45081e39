import { DuplicateKeyError } from '@leadstream/ports';
import { sqliteIndexName } from './sql-names';

/**
 * Turns SQLite's unique-constraint failures into the port's DuplicateKeyError, naming the index
 * the way MongoDB does (`_id_` for the primary key). Anything else passes through.
 */
export function mapSqliteError(collection: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return error;
  const message = (error as Error).message;
  // "UNIQUE constraint failed: index 'leads$email_1'" or "UNIQUE constraint failed: leads.id"
  const indexName = /index '([^']+)'/.exec(message)?.[1];
  const prefix = sqliteIndexName(collection, 'x').slice(0, -1);
  const index = indexName === undefined ? '_id_' : indexName.startsWith(prefix) ? indexName.slice(prefix.length) : indexName;
  return new DuplicateKeyError(collection, index, `duplicate key in ${collection} (index ${index}): ${message}`);
}

export function rethrowMapped<R>(collection: string, run: () => R): R {
  try {
    return run();
  } catch (error) {
    throw mapSqliteError(collection, error);
  }
}
