/**
 * The analytics engines the golden tests run on: chDB in a temp directory, and a ClickHouse server
 * over HTTP in a database of its own when CLICKHOUSE_URL is known (infra/chdb-http in CI; under
 * REQUIRE_INFRA=1 its absence fails the run). A missing engine is `undefined`, for describe.skipIf.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAnalytics } from '@leadstream/engine-clickhouse';
import type { Analytics } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';

export interface TestEngine {
  open(): Promise<Analytics>;
  dispose(): Promise<void>;
}

export function testAnalyticsEngines(prefix: string): Array<[string, (() => TestEngine) | undefined]> {
  const server = lookupInfra('CLICKHOUSE_URL');
  const chdb = (): TestEngine => {
    const dir = mkdtempSync(join(tmpdir(), `leadstream-${prefix}-`));
    return {
      open: () => openAnalytics({ dataDir: dir }),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  };
  const clickhouse = (url: string) => (): TestEngine => {
    const database = `leadstream_${prefix}_${randomBytes(6).toString('hex')}`;
    return {
      open: () => openAnalytics({ url, database }),
      dispose: async () => {
        const admin = await openAnalytics({ url });
        try {
          await admin.command(`DROP DATABASE IF EXISTS ${database}`);
        } finally {
          await admin.close();
        }
      },
    };
  };
  return [
    ['chDB', chdb],
    ['a ClickHouse server', server.value ? clickhouse(server.value) : undefined],
  ];
}
