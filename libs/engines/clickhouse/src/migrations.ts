/**
 * The analytics schema, applied by `Analytics.migrate` (`leadstream migrate`, or at start-up).
 * Append new migrations with the next version; never edit one that has shipped.
 */
import type { Migration } from '@leadstream/ports';

/** Table the projector writes every domain event of `leads.events` into. */
export const LEAD_EVENTS_TABLE = 'lead_events';

/** Each lead's current status (migration 3), kept by a materialized view over `lead_events`. */
export const LEAD_STATUS_TABLE = 'lead_status';

/**
 * The rows of `lead_status` that events of `lead_events` produce: a status for every event that
 * sets one (received `new`, `active` once accepted, `rejected`, `duplicate` when deduplication
 * rejected or merged it, what a user set through `lead.updated`, `deleted`), versioned by time in
 * milliseconds (times ten, plus one for all but lead.created, so a verdict of the same millisecond
 * wins over the receipt). The materialized view and a rebuild use the same SELECT.
 */
export const LEAD_STATUS_SELECT = `SELECT organization_id, environment, lead_id,
    multiIf(
      event = 'lead.created', 'new',
      event = 'lead.accepted', 'active',
      event = 'lead.rejected', 'rejected',
      event = 'lead.duplicate' AND JSONExtractString(data, 'action') IN ('reject', 'merge'), 'duplicate',
      event = 'lead.updated', JSONExtractString(data, 'lead', 'status'),
      event = 'lead.deleted', 'deleted',
      '') AS status,
    toUInt64(toUnixTimestamp64Milli(occurred_at)) * 10 + if(event = 'lead.created', 0, 1) AS version,
    occurred_at AS updated_at
  FROM lead_events
  WHERE status != '' AND lead_id != ''`;

export const analyticsMigrations: Migration[] = [
  {
    version: 1,
    name: 'create lead_events',
    statements: [
      // ReplacingMergeTree because the projector consumes `leads.events` at least once: a
      // redelivered event is inserted again with identical column values. ReplacingMergeTree keeps
      // one row per sorting key, and event_id in that key makes the key unique per event (the other
      // key columns are facts of the event, equal in every delivery). Collapsing happens at
      // background merges, so exact answers read with FINAL or count uniqExact(event_id).
      //
      // The sorting key starts with organization_id and environment because every query is scoped
      // to one tenant and environment (docs/permissions.md); then event and occurred_at, because
      // funnels and reports select event types over time ranges. Monthly partitions keep merges
      // small and let old months be dropped whole; a redelivery has the same occurred_at, so it
      // lands in the same partition, where ReplacingMergeTree can collapse it.
      `CREATE TABLE IF NOT EXISTS lead_events (
        event_id String,
        event LowCardinality(String),
        organization_id String,
        environment LowCardinality(String),
        lead_id String,
        vendor_id String,
        occurred_at DateTime64(3, 'UTC'),
        data String COMMENT 'the event payload as JSON; read with JSONExtract*'
      ) ENGINE = ReplacingMergeTree
      PARTITION BY toYYYYMM(occurred_at)
      ORDER BY (organization_id, environment, event, occurred_at, event_id)`,
    ],
  },
  {
    version: 2,
    name: 'lead_events.email_key for the funnel',
    statements: [
      // The funnel (docs/analytics.md "Funnel") matches an application to an inquiry of the same
      // person: the projector writes the submission's email normalized as deduplication does (dots
      // and +tags of the common providers removed) on lead.created rows. Rows projected before this
      // migration read the default, the email lowercased and trimmed.
      `ALTER TABLE lead_events ADD COLUMN IF NOT EXISTS email_key String DEFAULT if(event = 'lead.created', lower(trim(JSONExtractString(data, 'lead', 'email'))), '')`,
    ],
  },
  {
    version: 3,
    name: 'lead_status: the current status of each lead',
    statements: [
      // ReplacingMergeTree(version): a lead's row with the highest version is its current status;
      // exact reads use FINAL. Redelivered events produce identical rows, so replays change nothing.
      `CREATE TABLE IF NOT EXISTS lead_status (
        organization_id String,
        environment LowCardinality(String),
        lead_id String,
        status LowCardinality(String),
        version UInt64,
        updated_at DateTime64(3, 'UTC')
      ) ENGINE = ReplacingMergeTree(version)
      ORDER BY (organization_id, environment, lead_id)`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS lead_status_mv TO lead_status AS ${LEAD_STATUS_SELECT}`,
      // Events projected before this migration.
      `INSERT INTO lead_status ${LEAD_STATUS_SELECT}`,
    ],
  },
];
