import { DuplicateKeyError } from '@leadstream/ports';
import { sqliteIndexName } from './sql-names';

/**
 * Turns SQLite's unique-constraint failures into the port's DuplicateKeyError, naming the index
 * the way MongoDB does (`_id_` for the primary key). Anything else passes through.
 */
/** A unique index's name and key paths, to name it from SQLite's column list. */
export interface UniqueIndex {
  name: string;
  paths: string[];
}

export function mapSqliteError(
  collection: string,
  error: unknown,
  uniqueIndexes: readonly UniqueIndex[] = [],
): unknown {
  const code = (error as { code?: unknown }).code;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return error;
  const message = (error as Error).message;
  // An index on expressions: "UNIQUE constraint failed: index 'leads$email_1'"; on index columns:
  // "UNIQUE constraint failed: users.f:email, users.f:org"; the primary key: "... failed: leads.id".
  const indexName = /index '([^']+)'/.exec(message)?.[1];
  const prefix = sqliteIndexName(collection, 'x').slice(0, -1);
  let index =
    indexName === undefined ? '_id_' : indexName.startsWith(prefix) ? indexName.slice(prefix.length) : indexName;
  const columns = /constraint failed: (.*)$/
    .exec(message)?.[1]
    ?.split(', ')
    .map((column) => column.slice(column.indexOf('.') + 1));
  if (indexName === undefined && columns && columns.every((column) => column.startsWith('f:'))) {
    const paths = columns.map((column) => column.slice(2)).join(',');
    index = uniqueIndexes.find((unique) => unique.paths.join(',') === paths)?.name ?? index;
  }
  return new DuplicateKeyError(collection, index, `duplicate key in ${collection} (index ${index}): ${message}`);
}

export function rethrowMapped<R>(collection: string, run: () => R, uniqueIndexes: readonly UniqueIndex[] = []): R {
  try {
    return run();
  } catch (error) {
    throw mapSqliteError(collection, error, uniqueIndexes);
  }
}
