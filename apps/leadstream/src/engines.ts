/**
 * The one place that picks engines: each port gets its distributed engine when its URL is set,
 * its embedded engine under DATA_DIR otherwise (README.md "Engines and configuration").
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openAnalytics } from '@leadstream/engine-clickhouse';
import { EmbeddedLog, LogPruner } from '@leadstream/engine-embedded-log';
import { type EmbeddedStore, openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openExportFileStore } from '@leadstream/engine-files';
import { openKafkaLog } from '@leadstream/engine-kafka';
import { type MongoDocumentStore, openMongoStore } from '@leadstream/engine-mongo';
import type { ReadinessCheck } from '@leadstream/http';
import { configureRetention } from '@leadstream/dal';
import type { Analytics, DocumentStore, EventLog, ExportFileStore } from '@leadstream/ports';
import {
  DECISIONS_TOPIC,
  instrumentEventLog,
  TOPICS,
  prefixEventLog,
  type Logger,
  type Metrics,
} from '@leadstream/runtime';
import { AtomicBatchWriter, type BatchWriter, OutboxBatchWriter } from '@leadstream/worker';
import type { Config } from './config';

export interface Engines {
  log: EventLog;
  store: DocumentStore;
  analytics: Analytics;
  /** Finished export files: GridFS beside MongoDB, DATA_DIR/exports beside the embedded store. */
  exportFiles: ExportFileStore;
  /**
   * How pipeline stages commit a batch: one SQLite transaction when the log and the store are
   * both embedded (they share one database), a transactional outbox otherwise.
   */
  writer: BatchWriter;
  readiness: ReadinessCheck[];
  close(): Promise<void>;
}

export interface EngineNeeds {
  log?: boolean;
  store?: boolean;
  analytics?: boolean;
}

/** A port that this process does not use: any call is a programming error. */
function unused<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (property === 'then') return undefined;
      throw new Error(`the ${name} engine is not opened in this process (used: ${String(property)})`);
    },
  });
}

/** Engines opened elsewhere: the log the pipeline thread lends to the main thread of `start`. */
export interface ProvidedEngines {
  log?: EventLog;
  /**
   * The pipeline thread of `start` on the embedded engines: where committed decisions go instead
   * of leads.decisions (the HTTP thread of the same process answers from them).
   */
  decisions?: (values: string[]) => void;
  /**
   * The pipeline thread of `start` owns the embedded store's read-write connection: this thread
   * opens a read-only one and gets the store that sends its writes to the thread.
   */
  connectStore?: (reader: EmbeddedStore) => DocumentStore;
}

export async function openEngines(
  config: Config,
  logger: Logger,
  metrics: Metrics,
  needs: EngineNeeds = { log: true, store: true, analytics: true },
  provided: ProvidedEngines = {},
): Promise<Engines> {
  // DATA_DIR holds leads, secrets and mails: private to the user running the process, also when an
  // earlier version made it readable (one someone else owns is theirs to set).
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const dataDir = statSync(config.dataDir);
  if ((dataDir.mode & 0o077) !== 0 && dataDir.uid === process.getuid?.()) chmodSync(config.dataDir, 0o700);
  const opened: Array<{ name: string; close: () => Promise<void> }> = [];
  const readiness: ReadinessCheck[] = [];
  // Every write of activity, dedup log entries and deliveries in this process (and thread) takes its expiry from here.
  configureRetention({
    activityDays: config.retention.activityDays,
    dedupLogDays: config.retention.dedupLogDays,
    webhookDeliveryDays: config.retention.webhookDeliveryDays,
  });
  try {
    // The store opens first: an embedded log keeps its tables in the embedded store's database
    // (one transaction per stage batch), and closes before it (closing runs in reverse).
    let store = unused<DocumentStore>('document store');
    let embeddedStore: EmbeddedStore | undefined;
    let mongoStore: MongoDocumentStore | undefined;
    // The embedded log lives in the embedded store's database: a role that needs only the log
    // (the projector) opens the store too, so every role sees the same log.
    const embeddedLogInStore = needs.log && !config.kafka && !config.mongodb;
    if (needs.store && !config.mongodb && provided.connectStore) {
      const reader = await openEmbeddedStore({
        dataDir: join(config.dataDir, 'store'),
        readOnly: true,
        logger: logger.child({ engine: 'embedded-store' }),
      });
      store = provided.connectStore(reader);
      const bridged = store;
      opened.push({ name: 'document store', close: () => bridged.close() });
      readiness.push({ name: `store:${bridged.engine}`, check: () => bridged.ping() });
    } else if (needs.store || embeddedLogInStore) {
      const raw = config.mongodb
        ? (mongoStore = await openMongoStore({
            uri: config.mongodb.uri,
            dbName: config.mongodb.dbName,
            logger: logger.child({ engine: 'mongodb' }),
          }))
        : (embeddedStore = await openEmbeddedStore({
            dataDir: join(config.dataDir, 'store'),
            logger: logger.child({ engine: 'embedded-store' }),
          }));
      store = raw;
      opened.push({ name: 'document store', close: () => raw.close() });
      readiness.push({ name: `store:${raw.engine}`, check: () => raw.ping() });
      if (embeddedStore) {
        const counted = embeddedStore;
        metrics.sqliteCommitSource = () => counted.commits;
      }
      if (mongoStore) {
        const counted = mongoStore;
        metrics.storeCommandSource = () => counted.commands;
      }
    }
    let log = unused<EventLog>('event log');
    let embeddedLog: EmbeddedLog | undefined;
    if (provided.log) {
      const lent = provided.log;
      log = lent;
      opened.push({ name: 'event log', close: () => lent.close() });
      readiness.push({ name: `log:${lent.engine}`, check: () => lent.ping() });
    } else if (needs.log) {
      const raw = config.kafka
        ? await openKafkaLog({
            brokers: config.kafka.brokers,
            clientId: config.kafka.clientId,
            logger: logger.child({ engine: 'kafka' }),
          })
        : (embeddedLog = EmbeddedLog.open({
            dataDir: join(config.dataDir, 'log'),
            logger: logger.child({ engine: 'embedded-log' }),
            ...(embeddedStore ? { shared: embeddedStore } : {}),
            // A submission is written by the transaction of the chain batch that decides it, not
            // one of its own first (docs/pipeline.md "The unit of work per engine set").
            handOff: (topic) => topic === config.topicPrefix + TOPICS.submitted,
          }));
      log = instrumentEventLog(prefixEventLog(raw, config.topicPrefix), metrics);
      opened.push({ name: 'event log', close: () => raw.close() });
      readiness.push({ name: `log:${raw.engine}`, check: () => raw.ping() });
      if (embeddedLog) {
        // Retention runs where the log's read-write connection is: this process (the pipeline thread of `start`).
        const pruner = new LogPruner(embeddedLog, {
          retentionMs: config.retention.logHours * 3_600_000,
          logger: logger.child({ engine: 'embedded-log' }),
        });
        pruner.start();
        opened.push({ name: 'event log retention', close: () => pruner.stop() });
      }
    }
    const writer: BatchWriter =
      embeddedLog?.sharesConnection && embeddedStore
        ? new AtomicBatchWriter({
            store: embeddedStore,
            log: embeddedLog,
            topicPrefix: config.topicPrefix,
            metrics,
            ...(provided.decisions ? { direct: { topic: DECISIONS_TOPIC, deliver: provided.decisions } } : {}),
          })
        : needs.log && needs.store
          ? new OutboxBatchWriter(store, log)
          : unused<BatchWriter>('batch writer');
    let exportFiles = unused<ExportFileStore>('export file store');
    if (needs.store) {
      const raw = await openExportFileStore(
        config.mongodb ? { engine: 'gridfs', ...config.mongodb } : { engine: 'filesystem', dataDir: config.dataDir },
      );
      exportFiles = raw;
      opened.push({ name: 'export file store', close: () => raw.close() });
    }
    let analytics = unused<Analytics>('analytics');
    if (needs.analytics) {
      const raw = await openAnalytics(
        config.clickhouse
          ? { ...config.clickhouse, logger: logger.child({ engine: 'clickhouse' }) }
          : { dataDir: config.dataDir, logger: logger.child({ engine: 'chdb' }) },
      );
      analytics = raw;
      opened.push({ name: 'analytics', close: () => raw.close() });
      // A process that also holds the store serves or runs the pipeline: it works without
      // analytics (the projector catches up later), so an outage there degrades it, never more.
      readiness.push({ name: `analytics:${raw.engine}`, check: () => raw.ping(), degradeOnly: needs.store === true });
    }
    return {
      log,
      store,
      analytics,
      exportFiles,
      writer,
      readiness,
      async close() {
        for (const engine of opened.reverse()) {
          try {
            await engine.close();
          } catch (error) {
            logger.error({ engine: engine.name, err: error }, 'engine close failed');
          }
        }
      },
    };
  } catch (error) {
    for (const engine of opened.reverse()) await engine.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The embedded log of a data dir as `leadstream start` keeps it (its tables in the store's
 * database), for tools and tests that read it while no server runs. Closing it also closes the
 * store connection it opened.
 */
export async function openEmbeddedLogOf(dataDir: string): Promise<EventLog> {
  const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  try {
    const log = EmbeddedLog.open({ dataDir: join(dataDir, 'log'), shared: store });
    return {
      engine: log.engine,
      ensureTopics: (specs) => log.ensureTopics(specs),
      partitionCount: (topic) => log.partitionCount(topic),
      produce: (topic, records) => log.produce(topic, records),
      consumer: (options) => log.consumer(options),
      ping: () => log.ping(),
      close: async () => {
        await log.close();
        await store.close();
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
