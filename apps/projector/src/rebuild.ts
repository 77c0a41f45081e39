/**
 * `leadstream projector --rebuild`: replays `leads.events` from its first record into a fresh
 * table and swaps it in for `lead_events`, so the projection can be rebuilt after a projection bug
 * or a lost analytics volume. Projection is idempotent, so the result equals what the projector
 * built live (a test compares them).
 *
 * Stop the projectors first (on the embedded engines `leadstream start` holds the log anyway): a
 * projector that keeps writing to the old table while the rebuild runs writes into the table the
 * swap throws away; the events it wrote are in the log and the next projector redelivers nothing
 * that the rebuild did not already read, as long as the rebuild runs after it stopped. The log
 * must still hold every event (Kafka retention): the rebuild knows only what the log has.
 */
import { LEAD_STATUS_SELECT, LEAD_STATUS_TABLE } from '@leadstream/engine-clickhouse';
import type { Analytics, EventLog } from '@leadstream/ports';
import type { Metrics } from '@leadstream/runtime';
import type { Logger } from 'pino';
import { createProjector } from './projector';

export const REBUILD_TABLE = 'lead_events_rebuild';

export interface RebuildDependencies {
  log: EventLog;
  analytics: Analytics;
  metrics: Metrics;
  logger: Logger;
  /** Names the rebuild's own consumer group (which starts at the first record). */
  now?: () => Date;
}

/** Replays the whole topic into a new table, swaps it in, drops the old one; returns the rows projected. */
export async function rebuildProjection(deps: RebuildDependencies): Promise<number> {
  const { analytics, logger } = deps;
  await analytics.command(`DROP TABLE IF EXISTS ${REBUILD_TABLE}`);
  // Same columns (defaults included), engine, partitioning and sorting key.
  await analytics.command(`CREATE TABLE ${REBUILD_TABLE} AS lead_events`);
  const groupId = `project-rebuild-${(deps.now ?? (() => new Date()))().getTime()}`;
  const runner = createProjector({ ...deps, table: REBUILD_TABLE, groupId });
  logger.info({ groupId, table: REBUILD_TABLE }, 'rebuild: replaying leads.events from the beginning');
  await runner.start();
  try {
    await runner.waitUntilIdle();
  } finally {
    await runner.stop();
  }
  const [counted] = await analytics.query<{ rows: number }>(`SELECT count() AS rows FROM ${REBUILD_TABLE} FINAL`);
  await analytics.command(`EXCHANGE TABLES lead_events AND ${REBUILD_TABLE}`);
  await analytics.command(`DROP TABLE ${REBUILD_TABLE}`);
  // The current statuses follow the new events (the materialized view fires on inserts into
  // lead_events only, and the rebuild inserted into its own table).
  await analytics.command(`TRUNCATE TABLE ${LEAD_STATUS_TABLE}`);
  await analytics.command(`INSERT INTO ${LEAD_STATUS_TABLE} ${LEAD_STATUS_SELECT}`);
  logger.info({ rows: counted?.rows ?? 0 }, 'rebuild: the new projection is in place');
  return counted?.rows ?? 0;
}
