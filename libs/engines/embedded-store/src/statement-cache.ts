import type Database from 'better-sqlite3';

/**
 * Prepared statements by SQL text. Filters compile to text that depends on their shape only, so
 * the number of distinct statements stays small; the bound keeps a pathological caller (say,
 * `$in` lists of every length) from growing it without end.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly limit = 500,
  ) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement) return statement;
    statement = this.db.prepare(sql);
    if (this.statements.size >= this.limit) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) this.statements.delete(oldest);
    }
    this.statements.set(sql, statement);
    return statement;
  }
}
