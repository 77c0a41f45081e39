/**
 * The engine pairs the pipeline's integration specs run on: the embedded log and store (one
 * transaction per batch) always, Kafka + the MongoDB-protocol server (transactional outbox) when
 * `npm run infra:up` has them running. Each pair can also make a writer that fails once at a
 * chosen point, to cut a batch's commit the way a crash would.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKafkaLog } from '@leadstream/engine-kafka';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { Collection, DocumentStore, EventLog } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { prefixEventLog } from '@leadstream/runtime';
import type { BatchWriter } from '../batch/batch-write';
import { OutboxBatchWriter } from '../batch/outbox-batch-writer';
import { TOPICS } from '../pipeline/outputs';
import { openEmbeddedEngines } from './embedded-engines';

export interface EnginePair {
  log: EventLog;
  store: DocumentStore;
  writer: BatchWriter;
  /** A writer over engines that fail once at `point` (null: the embedded writer fails inside its transaction). */
  faulty(point: CrashPoint): BatchWriter;
  close: () => Promise<void>;
}

/** Where a batch's commit is cut: before anything, after the documents, after the leads, after the produce. */
export type CrashPoint = 'documents' | 'leads' | 'produce' | 'clear';

export class Crash extends Error {}

/** The store, failing the first bulkWrite of `collection` that matches. */
function failingStore(store: DocumentStore, collection: string, nth: number): DocumentStore {
  let calls = 0;
  return {
    engine: store.engine,
    sweepExpired: () => store.sweepExpired(),
    ping: () => store.ping(),
    close: () => store.close(),
    collection<T extends { _id: string }>(name: string): Collection<T> {
      const inner = store.collection<T>(name);
      if (name !== collection) return inner;
      return new Proxy(inner, {
        get(target, property, receiver) {
          if (property !== 'bulkWrite') return Reflect.get(target, property, receiver) as unknown;
          return async (operations: Parameters<Collection<T>['bulkWrite']>[0]) => {
            calls++;
            if (calls === nth) throw new Crash(`crash at bulkWrite ${nth} of ${name}`);
            return target.bulkWrite(operations);
          };
        },
      });
    },
  };
}

/** [name, open] for describe.each; `prefix` names the Kafka topics and database of a run. */
export function enginePairs(prefix: string): Array<[string, () => Promise<EnginePair>]> {
  const pairs: Array<[string, () => Promise<EnginePair>]> = [
    [
      'embedded log and store (one transaction)',
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'idempotency-'));
        const engines = await openEmbeddedEngines(dir, 2);
        return {
          log: engines.log,
          store: engines.store,
          writer: engines.writer,
          // Whatever the point, the transaction fails after its writes began: nothing of it stays.
          faulty: () => ({
            atomic: true,
            commit: (write, position) =>
              engines.writer.commit(
                {
                  ...write,
                  documents: [
                    ...write.documents,
                    {
                      collection: 'leads',
                      operations: [{ insertOne: { document: { _id: write.leads[0]?.lead._id ?? 'x' } } }],
                    },
                  ],
                },
                position,
              ),
          }),
          close: async () => {
            await engines.close();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    ],
  ];
  const kafka = lookupInfra('KAFKA_BROKERS');
  const mongodb = lookupInfra('MONGODB_URI');
  if (kafka.value && mongodb.value) {
    const brokers = kafka.value.split(',');
    const uri = mongodb.value;
    pairs.push([
      'Kafka and FerretDB (outbox)',
      async () => {
        const suffix = randomUUID().slice(0, 8);
        const log = prefixEventLog(await openKafkaLog({ brokers, clientId: `${prefix}-test` }), `${prefix}-${suffix}.`);
        await log.ensureTopics(
          Object.values(TOPICS)
            .flatMap((topic) => [topic, `${topic}.dlq`])
            .map((topic) => ({ topic, partitions: 2 })),
        );
        const store = await openMongoStore({ uri, dbName: `${prefix}_${suffix}` });
        return {
          log,
          store,
          writer: new OutboxBatchWriter(store, log),
          faulty(point) {
            if (point === 'produce') {
              let failed = false;
              const flaky: EventLog = {
                ...log,
                engine: log.engine,
                produce: async (topic, records) => {
                  if (!failed) {
                    failed = true;
                    throw new Crash('crash at produce');
                  }
                  return log.produce(topic, records);
                },
              };
              return new OutboxBatchWriter(store, flaky);
            }
            if (point === 'documents') return new OutboxBatchWriter(failingStore(store, 'leads', 1), log);
            // 'leads': the leads write itself; 'clear': the second leads bulkWrite, after the produce.
            return new OutboxBatchWriter(failingStore(store, 'leads', point === 'leads' ? 1 : 2), log);
          },
          close: async () => {
            await log.close();
            await store.close();
          },
        };
      },
    ]);
  }
  return pairs;
}
