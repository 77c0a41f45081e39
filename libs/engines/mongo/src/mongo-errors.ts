import { DuplicateKeyError } from '@leadstream/ports';

/**
 * Maps a driver error to the port's DuplicateKeyError when a unique index refused a write.
 *
 * MongoDB says code 11000 and names the index (`... index: org_email dup key: {...}`).
 * FerretDB 1.24 says 11000 without the index name on inserts and upserts, and on updates an
 * InternalError (code 1) whose message carries SQLite's own text
 * (`UNIQUE constraint failed: index 'leads_1a2b3c4d_org_email'`), from which the name is recovered.
 */
export function mapMongoError(collection: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const sqliteUnique = /UNIQUE constraint failed/.exec(message);
  if (code !== 11000 && code !== 11001 && !sqliteUnique) return error;
  return new DuplicateKeyError(collection, duplicateIndexName(message), `duplicate key in ${collection}: ${message}`);
}

export function duplicateIndexName(message: string): string | null {
  const mongo = /\bindex: (\S+)/.exec(message)?.[1];
  if (mongo) return mongo;
  // FerretDB's SQLite tables are `<collection>_<8 hex>`, its indexes `<table>_<index name>`.
  const ferret = /UNIQUE constraint failed: index '.*?_[0-9a-f]{8}_([^']+)'/.exec(message)?.[1];
  return ferret ?? null;
}

export async function mapped<R>(collection: string, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    throw mapMongoError(collection, error);
  }
}
