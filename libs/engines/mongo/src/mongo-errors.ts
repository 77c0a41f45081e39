import { DuplicateKeyError } from '@leadstream/ports';

/**
 * Maps a driver error to the port's DuplicateKeyError when a unique index refused a write.
 *
 * MongoDB says code 11000 and names the index (`... index: org_email dup key: {...}`).
 * FerretDB 1.24 says 11000 without the index name on inserts and upserts, and on updates an
 * InternalError (code 1) whose message carries SQLite's own text
 * (`UNIQUE constraint failed: index 'leads_1a2b3c4d_org_email'`), from which the name is recovered.
 * On its PostgreSQL backend the update case is PostgreSQL's own text instead
 * (`duplicate key value violates unique constraint "leads_1a2b3c4d_org_email_5e6f7a8b_idx" (SQLSTATE 23505)`).
 */
export function mapMongoError(collection: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const backendUnique = /UNIQUE constraint failed|duplicate key value violates unique constraint|SQLSTATE 23505/.test(
    message,
  );
  if (code !== 11000 && code !== 11001 && !backendUnique) return error;
  return new DuplicateKeyError(collection, duplicateIndexName(message), `duplicate key in ${collection}: ${message}`);
}

export function duplicateIndexName(message: string): string | null {
  const mongo = /\bindex: (\S+)/.exec(message)?.[1];
  if (mongo) return mongo;
  // FerretDB's SQLite tables are `<collection>_<8 hex>`, its indexes `<table>_<index name>`.
  const ferret = /UNIQUE constraint failed: index '.*?_[0-9a-f]{8}_([^']+)'/.exec(message)?.[1];
  if (ferret) return ferret;
  // FerretDB's PostgreSQL indexes are `<table>_<index name>_<8 hex>_idx`, the table `<collection>_<8 hex>`,
  // both lower-cased with other characters than [a-z0-9_] replaced (index names here are already so).
  const postgres = /unique constraint "[^"]*?_[0-9a-f]{8}_([a-z0-9_]+)_[0-9a-f]{8}_idx"/.exec(message)?.[1];
  return postgres ?? null;
}

export async function mapped<R>(collection: string, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    throw mapMongoError(collection, error);
  }
}
