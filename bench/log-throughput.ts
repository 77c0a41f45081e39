/**
 * Event-log throughput: messages per second produced and then consumed through the port, for the
 * embedded engine and for Kafka, against bare kafkajs on the same broker in the same run
 * (docs/performance.md). Targets: Kafka through the port >= 0.8 x bare kafkajs; embedded >= 1.0 x.
 *
 *   npx tsx bench/log-throughput.ts [--messages 200000] [--batch 500] [--partitions 6]
 *
 * Each run produces N keyed ~300-byte JSON messages in sequential produce calls of `batch`
 * records, then consumes them all with one group member from the beginning. The figure compared
 * is N / (produce time + consume time). Kafka parts are skipped when no broker is configured.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import kafkajs from 'kafkajs';
import type { EventLog } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openKafkaLog } from '@leadstream/engine-kafka';
import { runBenchmark } from './support/service';

const { Kafka, Partitioners, logLevel } = kafkajs;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : undefined;
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const MESSAGES = option('messages', 200_000);
const BATCH = option('batch', 500);
const PARTITIONS = option('partitions', 6);
/** Every phase gives up after this long, so the bench always ends. */
const PHASE_TIMEOUT_MS = 180_000;

interface Result {
  name: string;
  produceMs: number;
  consumeMs: number;
}

const rate = (ms: number): number => Math.round((MESSAGES * 1000) / ms);
const combined = (r: Result): number => rate(r.produceMs + r.consumeMs);

/** A lead-like JSON document of about 300 bytes. */
function leadMessage(i: number): { key: string; value: string } {
  const key = `lead-${i.toString(36).padStart(8, '0')}`;
  const value = JSON.stringify({
    schema: 'lead.submitted.v1',
    id: key,
    vendorId: `vendor-${i % 37}`,
    email: `prospect.${i}@example.edu`,
    firstName: 'Alexandra',
    lastName: 'Montgomery-Smith',
    phone: '+1-555-010-' + String(i % 10_000).padStart(4, '0'),
    program: 'MSc Data Science',
    consent: true,
    submittedAt: '2025-01-15T10:20:30.000Z',
    utm: { source: 'search', campaign: 'fall-2025' },
  });
  return { key, value };
}

const payload = Array.from({ length: MESSAGES }, (_, i) => leadMessage(i));

async function withTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: gave up after ${PHASE_TIMEOUT_MS} ms`)), PHASE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function throughPort(name: string, log: EventLog): Promise<Result> {
  const topic = `bench.log.${randomUUID().slice(0, 8)}`;
  await log.ensureTopics([{ topic, partitions: PARTITIONS }]);

  const produceStart = performance.now();
  await withTimeout(
    `${name} produce`,
    (async () => {
      for (let i = 0; i < MESSAGES; i += BATCH) await log.produce(topic, payload.slice(i, i + BATCH));
    })(),
  );
  const produceMs = performance.now() - produceStart;

  const consumeStart = performance.now();
  let received = 0;
  let allReceived!: () => void;
  const finished = new Promise<void>((resolve) => (allReceived = resolve));
  const consumer = log.consumer({
    groupId: `${topic}.group`,
    topics: [topic],
    fromBeginning: true,
    maxBatchSize: BATCH,
  });
  await consumer.start(async (batch) => {
    received += batch.records.length;
    if (received >= MESSAGES) allReceived();
  });
  try {
    await withTimeout(`${name} consume`, finished);
  } finally {
    await consumer.stop();
  }
  return { name, produceMs, consumeMs: performance.now() - consumeStart };
}

async function bareKafkajs(brokers: string[]): Promise<Result> {
  const kafka = new Kafka({ clientId: 'bench-bare', brokers, logLevel: logLevel.WARN });
  const topic = `bench.bare.${randomUUID().slice(0, 8)}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: PARTITIONS }] });
  await admin.disconnect();

  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const produceStart = performance.now();
  await withTimeout(
    'bare kafkajs produce',
    (async () => {
      for (let i = 0; i < MESSAGES; i += BATCH)
        await producer.send({ topic, acks: -1, messages: payload.slice(i, i + BATCH) });
    })(),
  );
  const produceMs = performance.now() - produceStart;
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId: `${topic}.group`, maxWaitTimeInMs: 250 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const consumeStart = performance.now();
  let received = 0;
  let allReceived!: () => void;
  const finished = new Promise<void>((resolve) => (allReceived = resolve));
  // kafkajs's usual shape: eachBatch with its default auto-resolve and periodic auto-commit.
  await consumer.run({
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) {
        // Decode as the port does, so both sides pay for turning bytes into strings.
        if (message.value) received += message.value.toString().length > 0 ? 1 : 0;
      }
      if (received >= MESSAGES) allReceived();
    },
  });
  try {
    await withTimeout('bare kafkajs consume', finished);
  } finally {
    await consumer.disconnect();
  }
  return { name: 'bare kafkajs', produceMs, consumeMs: performance.now() - consumeStart };
}

function print(r: Result): void {
  console.log(
    `${r.name.padEnd(22)} produce ${String(rate(r.produceMs)).padStart(8)} msg/s   consume ${String(rate(r.consumeMs)).padStart(8)} msg/s   produce+consume ${String(combined(r)).padStart(8)} msg/s`,
  );
}

async function main(): Promise<void> {
  console.log(
    `${MESSAGES} messages of ~${payload[0]!.value.length} bytes, produce calls of ${BATCH}, ${PARTITIONS} partitions`,
  );
  const results: Result[] = [];

  const dataDir = mkdtempSync(join(tmpdir(), 'bench-log-'));
  try {
    const embedded = await openEmbeddedLog({ dataDir });
    try {
      results.push(await throughPort('embedded (port)', embedded));
    } finally {
      await embedded.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  print(results[0]!);

  const { value, skipReason } = lookupInfra('KAFKA_BROKERS');
  if (!value) {
    console.log(`Kafka parts skipped: ${skipReason}`);
    return;
  }
  const brokers = value.split(',').map((b) => b.trim());
  const bare = await bareKafkajs(brokers);
  print(bare);
  const kafkaLog = await openKafkaLog({ brokers, clientId: 'bench-port' });
  let viaPort: Result;
  try {
    viaPort = await throughPort('kafka (port)', kafkaLog);
  } finally {
    await kafkaLog.close();
  }
  print(viaPort);

  const ratio = (r: Result): string => (combined(r) / combined(bare)).toFixed(2);
  console.log(`kafka (port) / bare kafkajs = ${ratio(viaPort)} (target >= 0.8)`);
  console.log(`embedded / bare kafkajs     = ${ratio(results[0]!)} (target >= 1.0)`);
}

runBenchmark(main);
