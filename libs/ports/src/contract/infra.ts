/**
 * Finds the real servers that integration and contract tests run against.
 *
 * `npm run infra:up` starts them and writes their addresses to `infra/.run/infra.env`; variables
 * already in the environment win. A test whose server is absent is skipped with a printed reason,
 * except under REQUIRE_INFRA=1 (CI), where the absence fails the run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type InfraName = 'KAFKA_BROKERS' | 'MONGODB_URI' | 'CLICKHOUSE_URL';

function workspaceRoot(start = process.cwd()): string {
  let dir = start;
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
  return dir;
}

function fromFile(name: InfraName): string | undefined {
  const file = join(workspaceRoot(), 'infra', '.run', 'infra.env');
  if (!existsSync(file)) return undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z_]+)=(.*)$/.exec(line.trim());
    if (match && match[1] === name) return match[2];
  }
  return undefined;
}

export interface InfraLookup {
  /** The server's address, or undefined when the suite must skip. */
  value: string | undefined;
  /** Why the suite skips (printed), when it does. */
  skipReason: string | undefined;
}

export function requireInfra(): boolean {
  return process.env['REQUIRE_INFRA'] === '1';
}

/**
 * Looks a server up. Under REQUIRE_INFRA=1 a missing server throws, which fails the test file.
 */
export function lookupInfra(name: InfraName): InfraLookup {
  const value = process.env[name] || fromFile(name);
  if (value) return { value, skipReason: undefined };
  const reason = `${name} is not set and infra/.run/infra.env does not name it (run \`npm run infra:up\`)`;
  if (requireInfra()) throw new Error(`REQUIRE_INFRA=1 but ${reason}`);
  console.warn(`[skip] ${reason}`);
  return { value: undefined, skipReason: reason };
}
