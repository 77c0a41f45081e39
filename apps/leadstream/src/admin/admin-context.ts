/**
 * What every admin command shares: open only the document store, ensure its indexes, run, close.
 * Output goes to stdout (the ids and keys users copy); logs go to stderr, warnings only.
 *
 * The embedded store is a SQLite file in WAL mode without an exclusive lock (only the embedded
 * event log locks DATA_DIR/log), so these commands work beside a running `leadstream start` on
 * the same DATA_DIR. Should the store ever be locked, the command says so and how to proceed.
 *
 * A command that writes configuration (keys, vendors) announces it like the api does (ConfigCache,
 * docs/decisions.md "Configuration freshness"): on Kafka it bumps the organization's configuration
 * version and publishes config.changed, so running processes drop what they cached. On the embedded
 * engines the log belongs to the running server, so the command only bumps the version in the
 * store; the server never needs more for what these commands write, because they only create keys
 * and vendors, which no process can have cached (a key is looked up by a hash nobody knew, a vendor
 * by a new id). A running server keeps the version it knew until its next change or restart.
 */
import { createDal, ensureIndexes, UserRepository, type Dal } from '@leadstream/dal';
import { DomainError } from '@leadstream/domain';
import { bumpConfigVersion, CONFIG_CHANGED_TOPIC, ConfigCache, Metrics } from '@leadstream/runtime';
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

/** Announces a configuration write of an organization (`what`: `api_keys`, `vendors`...). */
export type ConfigChanged = (organizationId: string, what: string) => Promise<void>;

/** The users of the user API (not in Dal: the api's accounts layer builds its own). */
export interface AdminExtras {
  users: UserRepository;
}

export async function withDal<T>(
  run: (dal: Dal, changed: ConfigChanged, extras: AdminExtras) => Promise<T>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<T> {
  const config = parseConfig(env);
  const logger = pino({ level: 'warn', base: { role: 'admin' } }, destination(2));
  // Kafka can take a produce from anyone; the embedded log is the running server's alone.
  const publish = config.kafka !== undefined;
  const engines = await openEngines(config, logger, new Metrics({ defaultMetrics: false }), {
    store: true,
    log: publish,
  });
  try {
    await ensureIndexes(engines.store);
    await UserRepository.ensureIndexes(engines.store);
    const changed: ConfigChanged = publish
      ? async (organizationId, what) => {
          await engines.log.ensureTopics([{ topic: CONFIG_CHANGED_TOPIC, partitions: config.topicPartitions }]);
          await new ConfigCache({ log: engines.log, store: engines.store, logger }).changed(organizationId, what);
        }
      : async (organizationId, what) => {
          await bumpConfigVersion(engines.store, organizationId, what);
        };
    return await run(createDal(engines.store), changed, { users: new UserRepository(engines.store) });
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
  if ((error as { code?: unknown } | null)?.code === 'DATA_DIR_LOCKED') {
    write(
      'the embedded event log in DATA_DIR belongs to the running leadstream server: stop it first, or run against Kafka (KAFKA_BROKERS).',
    );
    return 1;
  }
  if (isLocked(error)) {
    write(
      'the document store in DATA_DIR is locked by another process. Stop the running leadstream server first, or run server and command against MongoDB (MONGODB_URI).',
    );
    return 1;
  }
  write(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
}

/** Prints a result: JSON when asked, otherwise the given lines. */
export function print(json: boolean | undefined, value: object, lines: string[]): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${lines.join('\n')}\n`);
}
