/**
 * POST /api/suppression-lists/:id/entries/import: a CSV file of one column (a header row is
 * allowed), up to 1,000,000 rows. The body is streamed to a temporary file (rows counted on the
 * way, so an oversized file is refused before any entry is written), the answer is a job
 * (202), and the file is read line by line and written in chunks while the job reports its
 * progress. Memory stays bounded whatever the file's size (bench/suppression.ts).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SuppressionImport, SuppressionRepository } from '@leadstream/dal';
import {
  DomainError,
  MAX_SUPPRESSION_IMPORT_ROWS,
  newSuppressionImportId,
  suppressionHash,
  type SuppressionList,
  type TenantContext,
} from '@leadstream/domain';
import type { Logger } from 'pino';
import { findSuppressionList } from './suppression-lists';

export interface ImportDeps {
  suppression: SuppressionRepository;
  clock: () => Date;
  logger: Pick<Logger, 'error' | 'info'>;
}

/** Entries written per store request while importing; the job's counters follow each chunk. */
const IMPORT_CHUNK = 2_000;
/** The largest file taken (a row is one value; 320 bytes is more than any email). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

class RowLimitExceeded extends Error {}

/** Counts newlines as the body goes by; past the limit the stream fails. */
function rowCounter(maxLines: number, maxBytes: number): Transform {
  let lines = 0;
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) lines += 1;
      if (lines > maxLines || bytes > maxBytes) callback(new RowLimitExceeded());
      else callback(null, chunk);
    },
  });
}

/** One CSV cell as written: outer quotes removed, doubled quotes undone. */
function cell(line: string): string {
  const text = line.trim();
  return text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1).replace(/""/g, '"') : text;
}

/** Streams the body to a file, makes the job and starts it; the job runs on after the answer. */
export async function startSuppressionImport(
  deps: ImportDeps,
  tenant: TenantContext,
  listId: string,
  body: Readable,
  hashed: boolean,
): Promise<SuppressionImport> {
  const list = await findSuppressionList(deps, tenant, listId);
  const dir = await mkdtemp(join(tmpdir(), 'suppression-import-'));
  const file = join(dir, 'upload.csv');
  try {
    // One line more than the rows for a header, and one for a last line without a newline.
    await pipeline(body, rowCounter(MAX_SUPPRESSION_IMPORT_ROWS + 1, MAX_IMPORT_BYTES), createWriteStream(file));
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof RowLimitExceeded)
      throw new DomainError('PAYLOAD_TOO_LARGE', `An import takes at most ${MAX_SUPPRESSION_IMPORT_ROWS} rows`);
    throw error;
  }
  const job: SuppressionImport = {
    id: newSuppressionImportId(),
    organization_id: list.organization_id,
    list_id: list.id,
    status: 'running',
    rows: 0,
    added: 0,
    invalid: 0,
    error: null,
    created_at: deps.clock().toISOString(),
    finished_at: null,
  };
  await deps.suppression.createImport(job);
  void runImport(deps, list, job, file, hashed).finally(() => rm(dir, { recursive: true, force: true }));
  return job;
}

/** Reads the spooled file line by line and writes its hashes in chunks. Never throws: a failure fails the job. */
export async function runImport(
  deps: ImportDeps,
  list: SuppressionList,
  job: SuppressionImport,
  file: string,
  hashed: boolean,
): Promise<void> {
  let rows = 0;
  let added = 0;
  let invalid = 0;
  let first = true;
  let chunk: string[] = [];
  const flush = async (): Promise<void> => {
    if (chunk.length === 0) return;
    added += await deps.suppression.addEntries(list, chunk, deps.clock());
    chunk = [];
    await deps.suppression.updateImport(job, { rows, added, invalid });
  };
  try {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      const value = cell(line);
      if (value === '') continue;
      const hash = suppressionHash(list.kind, value, hashed);
      if (first) {
        first = false;
        // A first row that is no value is the column's header.
        if (hash === null) continue;
      }
      rows += 1;
      if (hash === null) invalid += 1;
      else chunk.push(hash);
      if (chunk.length >= IMPORT_CHUNK) await flush();
    }
    await flush();
    await deps.suppression.updateImport(job, {
      status: 'completed',
      rows,
      added,
      invalid,
      finished_at: deps.clock().toISOString(),
    });
    deps.logger.info({ import_id: job.id, list_id: list.id, rows, added, invalid }, 'suppression import completed');
  } catch (error) {
    deps.logger.error({ err: error, import_id: job.id, list_id: list.id }, 'suppression import failed');
    await deps.suppression
      .updateImport(job, {
        status: 'failed',
        rows,
        added,
        invalid,
        error: 'The import stopped before the end of the file; entries written so far stay on the list',
        finished_at: deps.clock().toISOString(),
      })
      .catch(() => undefined);
  }
}

export async function getSuppressionImport(
  deps: Pick<ImportDeps, 'suppression'>,
  tenant: TenantContext,
  listId: string,
  importId: string,
): Promise<SuppressionImport> {
  const job = await deps.suppression.getImport(tenant.organizationId, listId, importId);
  if (!job) throw new DomainError('NOT_FOUND', 'Import not found');
  return job;
}
