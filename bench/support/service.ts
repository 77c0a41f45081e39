/**
 * What the HTTP benchmarks share: engines chosen by `--engines embedded|kafka`, a tenant with a
 * vendor and a key whose rate limit is raised for the run, the real `leadstream start` in a child
 * process (so the load generator and the service do not share an event loop), a keep-alive HTTP
 * client with latency percentiles, and the check that every 2xx answer is a stored lead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createDal,
  CustomFieldRepository,
  DedupRepository,
  ensureIndexes,
  LeadActivityRepository,
  LeadRepository,
} from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { DocumentStore } from '@leadstream/ports';
import { lookupInfra } from '@leadstream/ports/contract/infra';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN = join(ROOT, 'apps', 'leadstream', 'src', 'main.ts');

export function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : undefined;
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

export type EnginesChoice = 'embedded' | 'kafka';

export function enginesOption(): EnginesChoice {
  const at = process.argv.indexOf('--engines');
  const raw = at >= 0 ? process.argv[at + 1] : 'embedded';
  if (raw !== 'embedded' && raw !== 'kafka') throw new Error('--engines must be embedded or kafka');
  return raw;
}

/** Where the service keeps its data for one run, and the environment that points it there. */
export interface Deployment {
  engines: EnginesChoice;
  dataDir: string;
  env: Record<string, string>;
  openStore(): Promise<DocumentStore>;
  cleanup(): Promise<void>;
}

export function deployment(engines: EnginesChoice): Deployment {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-service-'));
  const run = randomUUID().slice(0, 8);
  const env: Record<string, string> = { DATA_DIR: dataDir };
  let openStore = (): Promise<DocumentStore> => openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  let dropDatabase = async (): Promise<void> => undefined;
  if (engines === 'kafka') {
    const kafka = lookupInfra('KAFKA_BROKERS');
    const mongodb = lookupInfra('MONGODB_URI');
    if (!kafka.value || !mongodb.value)
      throw new Error(`--engines kafka needs the infra: ${kafka.skipReason ?? mongodb.skipReason ?? ''}`);
    const uri = mongodb.value;
    const dbName = `bench_${run}`;
    Object.assign(env, {
      KAFKA_BROKERS: kafka.value,
      MONGODB_URI: uri,
      MONGODB_DB: dbName,
      TOPIC_PREFIX: `bench.${run}.`,
    });
    openStore = () => openMongoStore({ uri, dbName });
    dropDatabase = async () => {
      const { MongoClient } = await import('mongodb');
      const client = new MongoClient(uri);
      try {
        await client.connect();
        await client.db(dbName).dropDatabase();
      } finally {
        await client.close();
      }
    };
  }
  return {
    engines,
    dataDir,
    env,
    openStore,
    async cleanup() {
      await dropDatabase().catch((error: unknown) => console.error('could not drop the bench database', error));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function ensureAllIndexes(store: DocumentStore): Promise<void> {
  await ensureIndexes(store);
  await LeadRepository.ensureIndexes(store);
  await LeadActivityRepository.ensureIndexes(store);
  await DedupRepository.ensureIndexes(store);
  await CustomFieldRepository.ensureIndexes(store);
}

/** An organization, one vendor and a live key allowed a million requests a minute. */
export async function seedTenant(
  store: DocumentStore,
): Promise<{ organizationId: string; vendorId: string; key: string }> {
  await ensureAllIndexes(store);
  const dal = createDal(store);
  const organization = await dal.organizations.create({ name: 'Benchmark University', plan: 'enterprise' });
  const tenant = { organizationId: organization.id, environment: 'live' as const };
  const vendor = await dal.vendors.create(tenant, {
    name: 'Bench Vendor',
    type: 'inquiry',
    group: null,
    contact_email: null,
  });
  const issued = await dal.apiKeys.create(tenant, {
    vendorId: vendor.id,
    name: 'bench',
    permissions: ['read', 'write'],
    ipRestrictions: [],
    rateLimit: 1_000_000,
  });
  return { organizationId: organization.id, vendorId: vendor.id, key: issued.key };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A child process running a TypeScript entry point; killed by `stop()`. */
export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startChild(
  args: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
  extraNodeArgs: string[] = [],
): Promise<Child> {
  const child = spawn(process.execPath, [...extraNodeArgs, '--import', 'tsx', ...args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
    cwd: ROOT,
  });
  const exited = once(child, 'exit');
  // A bench that dies (its output piped to `head`, an error) must not leave the service running
  // on the machine's infra servers, where it would keep consuming their topics.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${url}${readyPath}`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} was not ready within 120 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function startService(
  deployment: Deployment,
  port: number,
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Child> {
  return startChild([MAIN, 'start'], { MX_CHECK: 'off', ...deployment.env, ...extraEnv }, port, '/readyz', nodeArgs);
}

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One POST of a JSON body over a keep-alive connection; resolves with status, body and latency. */
export function post(url: string, key: string, body: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<number, number>;
  answers: Answer[];
}

function summarize(answers: Answer[], seconds: number): LoadResult {
  const latencies = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  const statuses: Record<number, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  return {
    requests: answers.length,
    seconds,
    rps: answers.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
    answers,
  };
}

/**
 * A loopback HTTP receiver run from `source` in a child process of its own (so its work is not the
 * measured process's): `source` listens on process.env.PORT at 127.0.0.1 and prints a line once it does.
 */
export async function startReceiverProcess(source: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', source], {
    env: { PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout, 'data');
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** Every answer must be a 2xx: a 429 would measure the rate limiter, a 4xx a broken bench, not the service. */
export function only2xx(name: string, result: LoadResult): LoadResult {
  const failed = Object.keys(result.statuses).filter((status) => Number(status) < 200 || Number(status) >= 300);
  if (failed.length > 0) throw new Error(`${name}: answers other than 2xx: ${JSON.stringify(result.statuses)}`);
  return result;
}

/** One line of a load phase: its rate, p50, p99, requests and answers by status. */
export function printLoad(name: string, result: LoadResult, width = 36): void {
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  console.log(
    `${name.padEnd(width)} ${fixed(result.rps).padStart(6)} req/s   p50 ${fixed(result.p50, 2).padStart(7)} ms   p99 ${fixed(result.p99, 2).padStart(7)} ms   (${result.requests} requests; ${statuses})`,
  );
}

/** Closed loop: `concurrency` clients each send the next request as soon as the last is answered. */
export async function closedLoop(
  send: (i: number) => Promise<Answer>,
  concurrency: number,
  durationMs: number,
): Promise<LoadResult> {
  const answers: Answer[] = [];
  let next = 0;
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) answers.push(await send(next++));
    }),
  );
  return summarize(answers, (performance.now() - started) / 1000);
}

/** Open loop: requests start at a fixed rate whatever the answers do, so latency is not hidden by back-pressure. */
export async function openLoop(
  send: (i: number) => Promise<Answer>,
  ratePerSecond: number,
  durationMs: number,
): Promise<LoadResult> {
  const total = Math.floor((ratePerSecond * durationMs) / 1000);
  const interval = 1000 / ratePerSecond;
  const started = performance.now();
  const pending: Array<Promise<Answer>> = [];
  for (let i = 0; i < total; i++) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    // Latency counts from the scheduled time, so a late start (coordinated omission) is not hidden.
    const lateBy = Math.max(0, performance.now() - due);
    pending.push(send(i).then((answer) => ({ ...answer, ms: answer.ms + lateBy })));
  }
  const answers = await Promise.all(pending);
  return summarize(answers, (performance.now() - started) / 1000);
}

/**
 * Every lead id a 2xx answer named must be a stored lead. Leads answered 202 are still being
 * processed: wait for them a little. Throws (the benchmark fails loudly) when any is missing.
 */
export async function verifyStored(store: DocumentStore, organizationId: string, leadIds: string[]): Promise<void> {
  const leads = store.collection('leads');
  const deadline = Date.now() + 60_000;
  let missing = [...new Set(leadIds)];
  while (missing.length > 0) {
    const stillMissing: string[] = [];
    for (let i = 0; i < missing.length; i += 500) {
      const chunk = missing.slice(i, i + 500);
      const found = new Set(
        (await leads.find({ _id: { $in: chunk }, organization_id: organizationId })).map((doc) => doc._id),
      );
      for (const id of chunk) if (!found.has(id)) stillMissing.push(id);
    }
    missing = stillMissing;
    if (missing.length === 0) break;
    if (Date.now() > deadline)
      throw new Error(`${missing.length} leads answered 2xx are not stored, e.g. ${missing.slice(0, 5).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  console.log(`verified: all ${new Set(leadIds).size} leads answered 2xx are stored`);
}

/** A realistic, unique submission: distinct email, phone and a name from a small pool. */
const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Perlman',
];

export function uniqueSubmission(run: string, i: number): Record<string, unknown> {
  return {
    email: `prospect.${run}.${i}@example.edu`,
    first_name: FIRST[i % FIRST.length],
    last_name: `${LAST[(i * 7) % LAST.length]}-${i.toString(36)}`,
    phone: `+1617${String(5_000_000 + (i % 4_999_999)).padStart(7, '0')}`,
    program_interest: 'MSc Data Science',
    source: 'search',
    utm_source: 'google',
    utm_campaign: 'fall-2026',
    form_started_at: new Date(Date.now() - 60_000).toISOString(),
  };
}

export const fixed = (value: number, digits = 0): string => value.toFixed(digits);

/** Runs a benchmark's main and exits: 0 when it finishes, 1 with the error printed when it throws. */
export function runBenchmark(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
