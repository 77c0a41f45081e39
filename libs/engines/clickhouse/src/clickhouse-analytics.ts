/**
 * The analytics port over `@clickhouse/client`, for both engines (README.md "Engines and configuration"):
 *
 * - `url` set: a ClickHouse server over HTTP, the client's own connection;
 * - `url` unset: chDB (ClickHouse's engine in-process) on `dataDir/analytics`, handed to the same
 *   client as a `Connection` by `chdb/connection`.
 *
 * Everything after construction (migrations, inserts, queries, parameters) is one code path, so the
 * SQL the projector and the funnel endpoints write runs unchanged on both.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  type ClickHouseSettings,
  createClient,
} from '@clickhouse/client';
import type { Analytics, Migration, QueryParams } from '@leadstream/ports';

/** The subset of a pino logger this module uses. */
export interface AnalyticsLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface AnalyticsConfig {
  /** ClickHouse HTTP endpoint (`CLICKHOUSE_URL`). When unset, chDB runs in-process. */
  url?: string;
  username?: string;
  password?: string;
  /**
   * Server only: the database unqualified table names resolve in; created when missing. chDB always
   * uses its `default` database: the data directory is its unit of isolation.
   */
  database?: string;
  /** chDB only: the process data directory (`DATA_DIR`); chDB keeps its files in `dataDir/analytics`. */
  dataDir?: string;
  logger?: AnalyticsLogger;
}

/**
 * Settings sent with every statement, pinned so both engines answer alike whatever their defaults:
 * - `session_timezone`: chDB otherwise takes the process's `TZ` and a server its own, which would
 *   shift `DateTime64` parameters and `now()`;
 * - `output_format_json_quote_64bit_integers`: chDB and the server disagree on the default; we want
 *   `count()` and sums as JSON numbers (exact below 2^53, plenty for lead counts; select
 *   `toString(x)` when a 64-bit value must be exact);
 * - `date_time_input_format`: inserted rows may carry ISO 8601 strings (`JSON.stringify(new Date())`),
 *   which the basic parser rejects.
 */
const PINNED_SETTINGS: ClickHouseSettings = {
  session_timezone: 'UTC',
  output_format_json_quote_64bit_integers: 0,
  date_time_input_format: 'best_effort',
};

// Table and database names are interpolated into SQL (parameters cannot name tables), so they must
// be plain identifiers, optionally `database.table`.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

const SCHEMA_MIGRATIONS_DDL = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version UInt32,
  name String,
  applied_at DateTime64(3, 'UTC')
) ENGINE = ReplacingMergeTree ORDER BY version`;

type ClientParams = Record<string, string | number | boolean | null | Array<string | number>>;

/**
 * A `Date` becomes Unix seconds with milliseconds (`1700000000.123`): both engines read that as an
 * instant whatever the time zone, and it keeps the milliseconds. Passed as-is, the HTTP client
 * would do the same but chDB's binder would send `YYYY-MM-DD hh:mm:ss`, dropping them.
 */
function toClientParams(params: QueryParams | undefined): ClientParams | undefined {
  if (!params) return undefined;
  const out: ClientParams = {};
  for (const [name, value] of Object.entries(params)) {
    if (value instanceof Date) {
      const ms = value.getTime();
      if (Number.isNaN(ms)) throw new TypeError(`query parameter ${name} is an invalid Date`);
      out[name] = (ms / 1000).toFixed(3);
    } else {
      out[name] = value;
    }
  }
  return out;
}

class ClickHouseAnalytics implements Analytics {
  #closed = false;

  constructor(
    readonly engine: 'clickhouse' | 'chdb',
    private readonly client: ClickHouseClient,
    private readonly logger: AnalyticsLogger | undefined,
    /** Runs after the client closes (chDB: wait until the engine has really let go of the directory). */
    private readonly afterClose: () => Promise<void>,
  ) {}

  async migrate(migrations: Migration[]): Promise<number[]> {
    this.assertOpen();
    const versions = new Set<number>();
    for (const migration of migrations) {
      if (!Number.isInteger(migration.version) || migration.version < 0) {
        throw new Error(`migration ${migration.name}: version must be a non-negative integer`);
      }
      if (versions.has(migration.version)) throw new Error(`migration version ${migration.version} appears twice`);
      versions.add(migration.version);
    }

    await this.client.command({ query: SCHEMA_MIGRATIONS_DDL });
    const applied = new Set(
      (await this.query<{ version: number }>('SELECT DISTINCT version FROM schema_migrations')).map((r) => r.version),
    );

    const done: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      // ClickHouse has no transactional DDL: a migration that fails halfway is not recorded and runs
      // again from its first statement next time, so statements should be idempotent (IF NOT EXISTS).
      for (const statement of migration.statements) await this.client.command({ query: statement });
      await this.command(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ({version:UInt32}, {name:String}, now64(3))',
        { version: migration.version, name: migration.name },
      );
      this.logger?.info(
        { engine: this.engine, version: migration.version, name: migration.name },
        'analytics migration applied',
      );
      done.push(migration.version);
    }
    return done;
  }

  async insert(table: string, rows: Array<Record<string, unknown>>): Promise<void> {
    this.assertOpen();
    if (!TABLE_NAME.test(table)) throw new Error(`not a table name: ${JSON.stringify(table)}`);
    if (rows.length === 0) return;
    await this.client.insert({ table, values: rows, format: 'JSONEachRow' });
  }

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
    this.assertOpen();
    const result = await this.client.query({ query: sql, format: 'JSONEachRow', query_params: toClientParams(params) });
    return result.json<T>();
  }

  async command(sql: string, params?: QueryParams): Promise<void> {
    this.assertOpen();
    await this.client.command({ query: sql, query_params: toClientParams(params) });
  }

  async ping(): Promise<void> {
    this.assertOpen();
    const result = await this.client.ping();
    if (!result.success) throw result.error;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.client.close();
    await this.afterClose();
  }

  private assertOpen(): void {
    if (this.#closed) throw new Error(`analytics (${this.engine}) is closed`);
  }
}

async function openServer(config: AnalyticsConfig & { url: string }): Promise<Analytics> {
  const auth = { username: config.username, password: config.password };
  const database = config.database ?? 'default';
  if (!IDENTIFIER.test(database)) throw new Error(`not a database name: ${JSON.stringify(database)}`);
  if (database !== 'default') {
    // A client bound to a missing database fails every request, so create it first through one that isn't.
    const bootstrap = createClient({ url: config.url, ...auth });
    try {
      await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    } finally {
      await bootstrap.close();
    }
  }
  const client = createClient({ url: config.url, ...auth, database, clickhouse_settings: PINNED_SETTINGS });
  return new ClickHouseAnalytics('clickhouse', client, config.logger, async () => undefined);
}

async function openChdb(config: AnalyticsConfig): Promise<Analytics> {
  if (!config.dataDir) throw new Error('analytics: set either url (ClickHouse server) or dataDir (chDB)');
  const path = join(config.dataDir, 'analytics');
  // chDB makes its files with the process's umask; the directory keeps them private (0700), also
  // one an earlier version made readable.
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stats = statSync(path);
  if ((stats.mode & 0o077) !== 0 && stats.uid === process.getuid?.()) chmodSync(path, 0o700);
  // Loaded only on this path so a server deployment never maps the native engine (a 540 MB library,
  // about 200 MB resident once open).
  const [{ createChdbConnection }, { drainPending }] = await Promise.all([import('chdb/connection'), import('chdb')]);
  let connection: ReturnType<typeof createChdbConnection>;
  try {
    connection = createChdbConnection({ path });
  } catch (error) {
    // The usual causes, which chDB's message ("Failed to create connection") does not name.
    throw new Error(
      `cannot open chDB at ${path}: another process may be using this data directory (chDB locks it), ` +
        `or this process already has chDB open on a different directory`,
      { cause: error },
    );
  }
  // chdb/connection declares its Connection with the types of the separate @clickhouse/client-common
  // package, while @clickhouse/client 1.23 carries its own copy of them; the two copies of
  // ClickHouseSettings differ slightly, so TypeScript sees different types for one runtime contract
  // (the one chdb/connection is written and tested against).
  const clientConnection = connection as unknown as ClickHouseClientConfigOptions['connection'];
  const client = createClient({ connection: clientConnection, clickhouse_settings: PINNED_SETTINGS });
  // close() returns before chDB has released the directory if a query was still running; waiting
  // here lets the same process open another directory (tests do) right after close resolves.
  return new ClickHouseAnalytics('chdb', client, config.logger, drainPending);
}

/** Opens the analytics engine the configuration names: a ClickHouse server when `url` is set, else chDB. */
export async function openAnalytics(config: AnalyticsConfig): Promise<Analytics> {
  const { url } = config;
  return url ? openServer({ ...config, url }) : openChdb(config);
}
