/**
 * The analytics contract against a ClickHouse server over HTTP, each test in its own database.
 *
 * The server is CLICKHOUSE_URL from the environment or infra/.run/infra.env. `npm run infra:up`
 * starts infra/chdb-http, a test stand-in that speaks ClickHouse's HTTP interface over chdb-core
 * (ClickHouse's engine as a Python library), because no ClickHouse server can be installed on our
 * CI machines; with Docker, infra/docker-compose.yml runs a real one. Without a server this file
 * skips with a printed reason, and under REQUIRE_INFRA=1 (CI) it fails.
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { analyticsContract } from '@leadstream/ports/contract/analytics.contract';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { AnalyticsBatcher } from './analytics-batcher';
import { openAnalytics } from './clickhouse-analytics';

const { value: url, skipReason } = lookupInfra('CLICKHOUSE_URL');
const username = process.env['CLICKHOUSE_USER'];
const password = process.env['CLICKHOUSE_PASSWORD'];

if (url) {
  analyticsContract('clickhouse server', async () => {
    const database = `leadstream_contract_${randomBytes(6).toString('hex')}`;
    const analytics = await openAnalytics({ url, username, password, database });
    return {
      analytics,
      createBatcher: (a, options) => new AnalyticsBatcher(a, options),
      dispose: async () => {
        await analytics.close();
        const admin = await openAnalytics({ url, username, password });
        try {
          await admin.command(`DROP DATABASE IF EXISTS ${database}`);
        } finally {
          await admin.close();
        }
      },
    };
  });
} else {
  describe('analytics contract: clickhouse server', () => {
    it.skip(skipReason ?? 'CLICKHOUSE_URL is not set', () => undefined);
  });
}
