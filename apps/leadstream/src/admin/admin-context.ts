/**
 * What every admin command shares: open only the document store, ensure its indexes, run, close.
 * Output goes to stdout (the ids and keys users copy); logs go to stderr, warnings only.
 *
 * The embedded store is a SQLite file in WAL mode without an exclusive lock (only the embedded
 * event log locks DATA_DIR/log), so these commands work beside a running `leadstream start` on
 * the same DATA_DIR. Should the store ever be locked, the command says so and how to proceed.
 */
import { createDal, ensureIndexes, type Dal } from '@leadstream/dal';
import { DomainError } from '@leadstream/domain';
import { Metrics } from '@leadstream/runtime';
import { destination, pino } from 'pino';
import { ConfigError, parseConfig } from '../config';
import { openEngines } from '../engines';

/** A bad argument: exit code 2, like a configuration error. */
export class AdminInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminInputError';
  }
}

const LOCKED_CODES = new Set(['DATA_DIR_LOCKED', 'SQLITE_BUSY', 'SQLITE_LOCKED']);

function isLocked(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && LOCKED_CODES.has(code);
}

export async function withDal<T>(run: (dal: Dal) => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const config = parseConfig(env);
  const logger = pino({ level: 'warn', base: { role: 'admin' } }, destination(2));
  const engines = await openEngines(config, logger, new Metrics({ defaultMetrics: false }), { store: true });
  try {
    await ensureIndexes(engines.store);
    return await run(createDal(engines.store));
  } finally {
    await engines.close();
  }
}

/** Runs a command action and turns failures into a message on stderr and an exit code. */
export function adminAction<O>(name: string, run: (options: O) => Promise<void>): (options: O) => Promise<void> {
  return async (options) => {
    try {
      await run(options);
    } catch (error) {
      process.exitCode = report(name, error);
    }
  };
}

function report(name: string, error: unknown): number {
  const write = (text: string): void => {
    process.stderr.write(`leadstream ${name}: ${text}\n`);
  };
  if (error instanceof ConfigError) {
    write(`configuration error: ${error.message}`);
    return 2;
  }
  if (error instanceof AdminInputError) {
    write(error.message);
    return 2;
  }
  if (error instanceof DomainError && error.code === 'VALIDATION_ERROR') {
    write([error.message, ...(error.details ?? []).map((detail) => `  ${detail.field}: ${detail.message}`)].join('\n'));
    return 2;
  }
  if (isLocked(error)) {
    write('the document store in DATA_DIR is locked by another process. Stop the running leadstream server first, or run server and command against MongoDB (MONGODB_URI).');
    return 1;
  }
  write(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
}

/** Prints a result: JSON when asked, otherwise the given lines. */
export function print(json: boolean | undefined, value: object, lines: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${lines.join('\n')}\n`);
}
