/**
 * The engine sets black-box suites run `leadstream start` on: the embedded engines always, and
 * Kafka + FerretDB when `npm run infra:up` has them running (under REQUIRE_INFRA=1 their absence
 * fails). Each setup has its own DATA_DIR, topic prefix and database, so suites share servers.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openKafkaLog } from '@leadstream/engine-kafka';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { prefixEventLog } from '@leadstream/runtime';
import { MongoClient } from 'mongodb';
import { openEmbeddedLogOf } from '../engines';

export interface EngineSetup {
  /** Environment for the `leadstream` processes of this setup. */
  env: Record<string, string>;
  openStore: () => Promise<DocumentStore>;
  openLog: () => Promise<EventLog>;
  /** The embedded engines are locked by a running process: read them after it stops. */
  readWhileRunning: boolean;
  cleanup: () => Promise<void>;
}

function embedded(name: string): EngineSetup {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  return {
    env: { DATA_DIR: dataDir },
    openStore: () => openEmbeddedStore({ dataDir: join(dataDir, 'store') }),
    openLog: () => openEmbeddedLogOf(dataDir),
    readWhileRunning: false,
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

function distributed(name: string, brokers: string, uri: string): EngineSetup {
  const suffix = randomUUID().slice(0, 8);
  const prefix = `${name}-${suffix}.`;
  const dbName = `${name}_${suffix}`;
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  return {
    env: { DATA_DIR: dataDir, KAFKA_BROKERS: brokers, TOPIC_PREFIX: prefix, MONGODB_URI: uri, MONGODB_DB: dbName },
    openStore: () => openMongoStore({ uri, dbName }),
    openLog: async () =>
      prefixEventLog(await openKafkaLog({ brokers: brokers.split(','), clientId: `${name}-test` }), prefix),
    readWhileRunning: true,
    cleanup: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      const client = new MongoClient(uri);
      try {
        await client.connect();
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    },
  };
}

/** `[label, make]` pairs for `describe.each`; `name` prefixes data dirs, topics and databases. */
export function engineSetups(name: string): Array<[string, () => EngineSetup]> {
  const setups: Array<[string, () => EngineSetup]> = [['embedded engines', () => embedded(name)]];
  const kafka = lookupInfra('KAFKA_BROKERS');
  const mongodb = lookupInfra('MONGODB_URI');
  if (kafka.value && mongodb.value) {
    const [brokers, uri] = [kafka.value, mongodb.value];
    setups.push(['Kafka and FerretDB', () => distributed(name, brokers, uri)]);
  }
  return setups;
}
