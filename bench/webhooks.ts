/**
 * Webhook deliveries per second (docs/webhooks.md): events on leads.events go through the notify
 * and deliver stages (`leadstream worker --stages notify,deliver`, embedded engines) to a receiver
 * on loopback, against a bare POST loop (node's fetch, undici) with the same concurrency to the
 * same receiver, measured in the same run (docs/performance.md).
 *
 *   npx tsx bench/webhooks.ts [--events 4000] [--webhooks 8] [--concurrency 64] [--seconds 10]
 *
 * Target: deliveries/s >= 0.5 x the bare loop's POSTs/s (measured before and after the service phase, mean of both). The receiver is a child process that
 * answers 200 and counts; the events are produced before the worker starts, and the rate is
 * measured from the end of the first tenth of the deliveries (the worker's warm-up) to the last. Every delivery must be stored delivered, once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import { WEBHOOK_EVENTS, type Webhook } from '@leadstream/domain';
import { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { pipelineTopics } from '@leadstream/runtime';
import {
  ensureAllIndexes,
  fixed,
  freePort,
  MAIN,
  option,
  runBenchmark,
  startChild,
  startReceiverProcess,
} from './support/service';

const EVENTS = option('events', 4_000);
const WEBHOOKS = option('webhooks', 8);
const CONCURRENCY = option('concurrency', 64);
const SECONDS = option('seconds', 10);
const PARTITIONS = 6;

/** The receiver: answers 200 to every POST, counts them, tells the count at GET /count. */
const RECEIVER = `
const http = require('node:http');
let count = 0;
http.createServer((request, response) => {
  if (request.method === 'GET') { response.end(String(count)); return; }
  request.on('data', () => {});
  request.on('end', () => { count++; response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'); });
}).listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
`;

async function startReceiver(): Promise<{ url: string; count(): Promise<number>; stop(): Promise<void> }> {
  const { url, stop } = await startReceiverProcess(RECEIVER);
  return { url, count: async () => Number(await (await fetch(`${url}/count`)).text()), stop };
}

/** POSTs of a body like a delivery's, `concurrency` at a time, for `ms`: requests per second. */
async function bareLoop(
  url: string,
  body: string,
  concurrency: number,
  ms: number,
): Promise<{ rps: number; requests: number }> {
  let requests = 0;
  const end = performance.now() + ms;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-service-signature': 't=0,v1=00' },
          body,
        });
        await response.text();
        if (response.status !== 200) throw new Error(`receiver answered ${response.status}`);
        requests++;
      }
    }),
  );
  return { rps: requests / ((performance.now() - started) / 1000), requests };
}

function leadCreated(index: number, organizationId: string): string {
  return JSON.stringify({
    schema_version: 1,
    id: `evt_bench${String(index).padStart(8, '0')}`,
    event: 'lead.created',
    timestamp: new Date().toISOString(),
    organization_id: organizationId,
    environment: 'live',
    data: {
      lead: {
        id: `lead_${index}`,
        email: `lead${index}@example.edu`,
        first_name: 'Ada',
        last_name: 'Byron',
        phone: null,
        program_interest: null,
        source: 'web',
        utm_source: null,
        utm_medium: null,
        utm_campaign: null,
        custom_fields: {},
        created_at: new Date().toISOString(),
        vendor_id: 'vendor_1',
      },
    },
  });
}

async function main(): Promise<void> {
  const deliveries = EVENTS * WEBHOOKS;
  console.log(
    `webhook deliveries, embedded engines: ${EVENTS} events x ${WEBHOOKS} webhooks = ${deliveries} deliveries; bare loop concurrency ${CONCURRENCY}, ${SECONDS} s`,
  );
  const receiver = await startReceiver();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  try {
    const sample = leadCreated(0, 'org_bench');
    await bareLoop(`${receiver.url}/bare`, sample, CONCURRENCY, 2_000);
    const bareBefore = await bareLoop(`${receiver.url}/bare`, sample, CONCURRENCY, SECONDS * 1000);
    console.log(
      `${'bare POST loop (fetch), before'.padEnd(34)} ${fixed(bareBefore.rps).padStart(6)} POST/s   (${bareBefore.requests} requests)`,
    );

    // Webhooks and events in the data dir, before the worker opens it.
    const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
    const log = EmbeddedLog.open({ dataDir: join(dataDir, 'log'), shared: store });
    try {
      await ensureAllIndexes(store);
      await log.ensureTopics(pipelineTopics(PARTITIONS));
      const webhooks = new WebhookRepository(store);
      const at = new Date().toISOString();
      for (let index = 0; index < WEBHOOKS; index++) {
        const webhook: Webhook = {
          id: `wh_bench${index}`,
          organization_id: 'org_bench',
          environment: 'live',
          url: `${receiver.url}/hook${index}`,
          events: [...WEBHOOK_EVENTS],
          enabled: true,
          description: null,
          secret: `whsec_bench${index}`,
          created_at: at,
          updated_at: at,
          disabled_at: null,
          disabled_reason: null,
          failure_streak_since: at,
        };
        await webhooks.create(webhook);
      }
      for (let from = 0; from < EVENTS; from += 500) {
        const records = Array.from({ length: Math.min(500, EVENTS - from) }, (_, offset) => ({
          key: `lead_${from + offset}`,
          value: leadCreated(from + offset, 'org_bench'),
        }));
        await log.produce('leads.events', records);
      }
    } finally {
      await log.close();
      await store.close();
    }

    const before = await receiver.count();
    const port = await freePort();
    const worker = await startChild(
      [MAIN, 'worker', '--stages', 'notify,deliver'],
      {
        DATA_DIR: dataDir,
        OPS_PORT: String(port),
        TOPIC_PARTITIONS: String(PARTITIONS),
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        ...(process.env['BENCH_LOG'] ? { LOG_LEVEL: process.env['BENCH_LOG'] } : {}),
      },
      port,
      '/readyz',
      process.env['BENCH_PROF'] ? ['--cpu-prof', `--cpu-prof-dir=${process.env['BENCH_PROF']}`] : [],
    );
    // The first tenth is the worker's warm-up (module loading, JIT, first connections), as the bare loop's first 2 s are.
    const warmup = Math.floor(deliveries / 10);
    let first = 0;
    let seenAtFirst = 0;
    let last = 0;
    let seen = 0;
    try {
      const deadline = Date.now() + 300_000;
      for (;;) {
        seen = (await receiver.count()) - before;
        const now = performance.now();
        if (seen >= warmup && first === 0) {
          first = now;
          seenAtFirst = seen;
        }
        if (seen >= deliveries) {
          last = now;
          break;
        }
        if (Date.now() > deadline) throw new Error(`only ${seen} of ${deliveries} deliveries within 300 s`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Let the last batch commit before counting what is stored.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    } finally {
      await worker.stop();
    }
    const rate = (deliveries - seenAtFirst) / ((last - first) / 1000);
    console.log(
      `${'notify + deliver (embedded)'.padEnd(34)} ${fixed(rate).padStart(6)} deliveries/s   (${deliveries - seenAtFirst} deliveries after the first ${seenAtFirst}, in ${fixed((last - first) / 1000, 2)} s)`,
    );

    const check = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
    try {
      const repository = new WebhookDeliveryRepository(check);
      let delivered = 0;
      for (let index = 0; index < WEBHOOKS; index++)
        delivered += (
          await repository.stats({ organizationId: 'org_bench', environment: 'live' }, `wh_bench${index}`, new Date())
        ).successful_deliveries;
      const extra = (await receiver.count()) - before - deliveries;
      console.log(`stored delivered: ${delivered} of ${deliveries}; POSTs beyond one per delivery: ${extra}`);
      if (delivered !== deliveries) throw new Error(`${deliveries - delivered} deliveries not stored as delivered`);
    } finally {
      await check.close();
    }
    // The baseline again after the service phase: on a shared machine the load drifts, and the mean of both is the fairer yardstick.
    const bareAfter = await bareLoop(`${receiver.url}/bare`, sample, CONCURRENCY, SECONDS * 1000);
    console.log(
      `${'bare POST loop (fetch), after'.padEnd(34)} ${fixed(bareAfter.rps).padStart(6)} POST/s   (${bareAfter.requests} requests)`,
    );
    const bare = (bareBefore.rps + bareAfter.rps) / 2;
    console.log(
      `deliveries / bare POSTs = ${(rate / bare).toFixed(3)} (target >= 0.5; against the mean of both bare runs)`,
    );
  } finally {
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark(main);
