/**
 * The projector through an analytics outage: the real chDB engine behind a wrapper whose inserts
 * fail for a while (the outage), and the real embedded log. The projector must keep retrying
 * without end, never crash its consumer (which would stop `leadstream start`), and store every
 * event once the engine answers again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyticsMigrations, openAnalytics } from '@leadstream/engine-clickhouse';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import type { Analytics, EventLog, QueryParams } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createProjector, LEAD_EVENTS_TOPIC } from './projector';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The engine, with inserts refused while `down` says so (as a ClickHouse outage answers). */
function withOutage(analytics: Analytics, down: () => boolean): Analytics & { refused: number } {
  const wrapper = {
    refused: 0,
    engine: analytics.engine,
    migrate: (migrations: Parameters<Analytics['migrate']>[0]) => analytics.migrate(migrations),
    insert: async (table: string, rows: Array<Record<string, unknown>>) => {
      if (down()) {
        wrapper.refused++;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
      }
      await analytics.insert(table, rows);
    },
    query: <T>(sql: string, params?: QueryParams) => analytics.query<T>(sql, params),
    command: (sql: string, params?: QueryParams) => analytics.command(sql, params),
    ping: () => analytics.ping(),
    close: () => analytics.close(),
  };
  return wrapper;
}

function leadEvent(id: string): string {
  return JSON.stringify({
    schema_version: 1,
    id,
    event: 'lead.created',
    timestamp: new Date().toISOString(),
    organization_id: 'org_outage',
    environment: 'live',
    data: { lead: { id: `lead_${id}`, email: `${id}@example.edu` } },
  });
}

describe('projector during an analytics outage', () => {
  it('keeps retrying past any count of failures, never crashes, and stores every event once the engine is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'projector-outage-'));
    dirs.push(dir);
    const log: EventLog = await openEmbeddedLog({ dataDir: join(dir, 'log') });
    const engine = await openAnalytics({ dataDir: join(dir, 'analytics') });
    await engine.migrate(analyticsMigrations);
    const metrics = new Metrics({ defaultMetrics: false });
    let failuresLeft = 12; // more than the 8 attempts after which the projector used to give up
    const analytics = withOutage(engine, () => failuresLeft-- > 0);
    await log.ensureTopics([{ topic: LEAD_EVENTS_TOPIC, partitions: 1 }]);
    const projector = createProjector({
      log,
      analytics,
      metrics,
      logger: pino({ level: 'silent' }),
      lingerMs: 0,
      retryBackoffMs: 1,
    });
    let crashed = false;
    try {
      await projector.start();
      projector.done.catch(() => {
        crashed = true;
      });
      await log.produce(
        LEAD_EVENTS_TOPIC,
        ['evt_a', 'evt_b', 'evt_c'].map((id) => ({ key: `lead_${id}`, value: leadEvent(id) })),
      );
      await projector.waitUntilIdle(20);
      expect(analytics.refused).toBe(12);
      const rows = await engine.query<{ event_id: string }>(
        "SELECT event_id FROM lead_events FINAL WHERE organization_id = 'org_outage' ORDER BY event_id",
      );
      expect(rows.map((row) => row.event_id)).toEqual(['evt_a', 'evt_b', 'evt_c']);
      const failures = (await metrics.registry.getSingleMetric('leadstream_projector_insert_failures_total')?.get())
        ?.values[0]?.value;
      expect(failures).toBe(12);
      expect(crashed).toBe(false);
    } finally {
      await projector.stop();
      await log.close();
      await engine.close();
    }
  }, 60_000);
});

describe('projector reading records of several events', () => {
  it('stores a row for each event of a record that holds one lead’s events of a batch, and for single events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'projector-packed-'));
    dirs.push(dir);
    const log: EventLog = await openEmbeddedLog({ dataDir: join(dir, 'log') });
    const engine = await openAnalytics({ dataDir: join(dir, 'analytics') });
    await engine.migrate(analyticsMigrations);
    await log.ensureTopics([{ topic: LEAD_EVENTS_TOPIC, partitions: 1 }]);
    const projector = createProjector({
      log,
      analytics: engine,
      metrics: new Metrics({ defaultMetrics: false }),
      logger: pino({ level: 'silent' }),
      lingerMs: 0,
    });
    try {
      await projector.start();
      await log.produce(LEAD_EVENTS_TOPIC, [
        { key: 'lead_p', value: `[${leadEvent('evt_p1')},${leadEvent('evt_p2')}]` },
        { key: 'lead_s', value: leadEvent('evt_s') },
      ]);
      await projector.waitUntilIdle(20);
      const rows = await engine.query<{ event_id: string }>(
        "SELECT event_id FROM lead_events FINAL WHERE organization_id = 'org_outage' ORDER BY event_id",
      );
      expect(rows.map((row) => row.event_id)).toEqual(['evt_p1', 'evt_p2', 'evt_s']);
    } finally {
      await projector.stop();
      await log.close();
      await engine.close();
    }
  }, 60_000);
});
