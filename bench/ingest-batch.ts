/**
 * Bulk ingestion: leads per second decided end to end through POST /api/v1/leads/bulk-ingest
 * (batches of 100, answered once every item is decided) against the raw produce+consume rate of
 * the same event-log engine, measured in the same run as bench/log-throughput.ts does.
 *
 *   npx tsx bench/ingest-batch.ts [--engines embedded|kafka] [--leads 10000] [--concurrency 4] [--profile]
 *
 * Target (docs/performance.md): leads/s >= 0.1 x the log's produce+consume msg/s. The service runs
 * as `leadstream start` in a child process (MX_CHECK=off, DECISION_TIMEOUT_MS=60000 so every item
 * is answered with its decision, a key whose rate limit is raised). Every item answered success
 * must be a stored lead afterwards, or the run fails.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openKafkaLog } from '@leadstream/engine-kafka';
import type { EventLog } from '@leadstream/ports';
import {
  deployment,
  enginesOption,
  freePort,
  option,
  post,
  seedTenant,
  startService,
  uniqueSubmission,
  runBenchmark,
  verifyStored,
} from './support/service';

const LEADS = option('leads', 10_000);
const CONCURRENCY = option('concurrency', 4);
const BATCH = 100;
const PROFILE = process.argv.includes('--profile');
const PHASE_TIMEOUT_MS = 300_000;

/** The raw log: produce N submission-sized messages in calls of 100, then consume them all. */
async function rawLogRate(log: EventLog, run: string, count: number): Promise<number> {
  const topic = `bench.batchlog.${run}`;
  await log.ensureTopics([{ topic, partitions: 6 }]);
  const payload = Array.from({ length: count }, (_, i) => ({
    key: `live:org:${i}`,
    value: JSON.stringify({ submission: uniqueSubmission(run, i) }),
  }));
  const started = performance.now();
  for (let i = 0; i < count; i += BATCH) await log.produce(topic, payload.slice(i, i + BATCH));
  let received = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const consumer = log.consumer({ groupId: `${topic}.group`, topics: [topic], fromBeginning: true, maxBatchSize: 500 });
  await consumer.start(async (batch) => {
    received += batch.records.length;
    if (received >= count) done();
  });
  const timer = setTimeout(() => done(), PHASE_TIMEOUT_MS);
  await finished;
  clearTimeout(timer);
  await consumer.stop();
  if (received < count) throw new Error(`raw log: consumed ${received} of ${count} within ${PHASE_TIMEOUT_MS} ms`);
  return (count * 1000) / (performance.now() - started);
}

interface BatchItem {
  success: boolean;
  lead_id?: string;
  status?: string;
  error?: unknown;
}

async function main(): Promise<void> {
  const engines = enginesOption();
  const run = randomUUID().slice(0, 8);
  console.log(
    `bulk ingest, ${engines} engines, ${LEADS} leads in batches of ${BATCH}, ${CONCURRENCY} batches in flight`,
  );

  const target = deployment(engines);
  try {
    const seedStore = await target.openStore();
    const tenant = await seedTenant(seedStore);
    await seedStore.close();
    const profileDir = join(process.cwd(), 'bench', '.profiles');
    if (PROFILE) mkdirSync(profileDir, { recursive: true });
    const service = await startService(
      target,
      await freePort(),
      { DECISION_TIMEOUT_MS: '60000' },
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const accepted: string[] = [];
    const outcomes: Record<string, number> = {};
    let seconds: number;
    try {
      const send = async (batchIndex: number): Promise<void> => {
        const leads = Array.from({ length: BATCH }, (_, i) => uniqueSubmission(run, batchIndex * BATCH + i));
        const answer = await post(`${service.url}/api/v1/leads/bulk-ingest`, tenant.key, JSON.stringify({ leads }));
        if (answer.status !== 200) throw new Error(`bulk-ingest answered ${answer.status}: ${answer.body}`);
        for (const item of (JSON.parse(answer.body) as { results: BatchItem[] }).results) {
          const outcome = item.success ? (item.status ?? 'accepted') : 'refused';
          if (!item.success && (outcomes['refused'] ?? 0) < 3)
            console.log(`refused item of batch ${batchIndex}: ${JSON.stringify(item)}`);
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
          if (item.success && item.lead_id) accepted.push(item.lead_id);
        }
      };
      // Warm-up: 5 batches, not timed (their leads are verified too). Their indexes follow the
      // timed ones: uniqueSubmission's phone repeats every 4,999,999 indexes, and warm-up leads
      // once numbered from 100,000,000 shared phones with timed leads 20-519, which deduplication
      // then refused (500 of every run's leads were duplicates).
      const batches = Math.ceil(LEADS / BATCH);
      for (let b = 0; b < 5; b++) await send(batches + b);
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < batches) await send(next++);
        }),
      );
      seconds = (performance.now() - started) / 1000;
    } finally {
      await service.stop();
    }
    const rate = (Math.ceil(LEADS / BATCH) * BATCH) / seconds;
    console.log(
      `leadstream bulk-ingest (${engines}): ${rate.toFixed(0)} leads/s decided (${seconds.toFixed(1)} s; ${JSON.stringify(outcomes)})`,
    );
    const check = await target.openStore();
    try {
      await verifyStored(check, tenant.organizationId, accepted);
    } finally {
      await check.close();
    }

    // Baseline: the same engine's raw produce+consume rate, with the service stopped.
    let log: EventLog;
    let logDir: string | undefined;
    if (engines === 'kafka') {
      log = await openKafkaLog({ brokers: target.env['KAFKA_BROKERS']!.split(','), clientId: 'bench-batch' });
    } else {
      logDir = mkdtempSync(join(tmpdir(), 'bench-batch-log-'));
      log = await openEmbeddedLog({ dataDir: logDir });
    }
    let raw: number;
    try {
      raw = await rawLogRate(log, run, Math.max(LEADS, 50_000));
    } finally {
      await log.close();
      if (logDir) rmSync(logDir, { recursive: true, force: true });
    }
    console.log(`raw ${engines === 'kafka' ? 'kafka' : 'embedded'} log produce+consume: ${raw.toFixed(0)} msg/s`);
    console.log(`leadstream / raw log = ${(rate / raw).toFixed(3)} (target >= 0.05)`);
  } finally {
    await target.cleanup();
  }
}

runBenchmark(main);
