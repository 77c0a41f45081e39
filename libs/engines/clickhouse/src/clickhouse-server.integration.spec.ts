/**
 * The analytics contract against a real ClickHouse server, each test in its own database.
 *
 * Runs only when CLICKHOUSE_URL is set. Unlike Kafka and MongoDB this suite skips even under
 * REQUIRE_INFRA=1: no ClickHouse server can be installed on our CI machines (no Docker, and Debian
 * ships only a 2018 release), and chDB, the same engine, runs the same contract in
 * chdb-analytics.spec.ts. A documented exception (docs/analytics.md), hence no lookupInfra here.
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { analyticsContract } from '@leadstream/ports/contract/analytics.contract';
import { AnalyticsBatcher } from './analytics-batcher';
import { openAnalytics } from './clickhouse-analytics';

const url = process.env['CLICKHOUSE_URL'];
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
  const reason = 'CLICKHOUSE_URL is not set; no ClickHouse server on this machine (chDB runs the same contract)';
  console.warn(`[skip] ${reason}`);
  describe('analytics contract: clickhouse server', () => {
    it.skip(reason, () => undefined);
  });
}
