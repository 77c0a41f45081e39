/**
 * The analytics port: ClickHouse SQL, written once, run by a ClickHouse server over HTTP or by
 * chDB (ClickHouse's engine in-process). Queries use ClickHouse's `{name:Type}` parameters.
 */

export interface Migration {
  /** Applied in ascending order, each exactly once. */
  version: number;
  name: string;
  /** One or more DDL statements, run in order. */
  statements: string[];
}

export type QueryParams = Record<string, string | number | boolean | Date | null | Array<string | number>>;

export interface Analytics {
  readonly engine: 'clickhouse' | 'chdb';
  /** Applies migrations not yet applied; returns the versions it applied. */
  migrate(migrations: Migration[]): Promise<number[]>;
  insert(table: string, rows: Array<Record<string, unknown>>): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]>;
  command(sql: string, params?: QueryParams): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
