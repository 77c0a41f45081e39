/**
 * Suppression lists (docs/suppression-lists.md), two measurements:
 *
 * 1. The cost of the check in single-lead ingest: POST /api/v1/leads/ingest at a fixed concurrency
 *    against two deployments side by side, one whose organization has no lists and one with 10
 *    enabled lists of `--entries` entries each (4 email, 3 phone, 3 domain lists, so every lead is
 *    checked with its 3 keys against all 10). Target: the lists cost <= 5 % of the rate.
 * 2. The CSV import of `--rows` rows (one column) through POST /api/suppression-lists/:id/entries/import,
 *    streamed from a generator (the client holds no file), polled to completion. Target: the
 *    service's peak RSS during the import <= 1.5 x its idle RSS just before; prints the time.
 *
 *   npx tsx bench/suppression.ts [--engines embedded|kafka] [--entries 1000000] [--rows 1000000]
 *                                [--concurrency 16] [--seconds 10] [--skip-ingest] [--skip-import]
 *
 * Small run (a smoke test of the bench itself): --entries 10000 --rows 20000 --seconds 3.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { SuppressionRepository } from '@leadstream/dal';
import type { SuppressionKind } from '@leadstream/domain';
import {
  closedLoop,
  printLoad,
  deployment,
  enginesOption,
  fixed,
  freePort,
  option,
  post,
  runBenchmark,
  seedTenant,
  startService,
  uniqueSubmission,
  type Answer,
  type Deployment,
  type LoadResult,
} from './support/service';

const ENTRIES = option('entries', 1_000_000);
const ROWS = option('rows', 1_000_000);
const CONCURRENCY = option('concurrency', 16);
const SECONDS = option('seconds', 10);
const WARMUP_MS = 3_000;
const LIST_KINDS: SuppressionKind[] = [
  'email',
  'email',
  'email',
  'email',
  'phone',
  'phone',
  'phone',
  'domain',
  'domain',
  'domain',
];
const SEED_CHUNK = 10_000;
const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** 10 lists of `entries` hashes each for the organization; none of them holds a lead the bench sends. */
async function seedLists(target: Deployment, organizationId: string, entries: number): Promise<void> {
  const store = await target.openStore();
  try {
    const repository = new SuppressionRepository(store);
    const at = new Date();
    const started = performance.now();
    for (const [index, kind] of LIST_KINDS.entries()) {
      const list = await repository.create(
        organizationId,
        `supl_bench${String(index).padStart(19, '0')}`,
        {
          name: `bench ${kind} ${index}`,
          kind,
          action: 'reject',
          expires_after_days: null,
          sandbox_only: false,
          enabled: true,
        },
        at.toISOString(),
      );
      for (let start = 0; start < entries; start += SEED_CHUNK) {
        const hashes = Array.from({ length: Math.min(SEED_CHUNK, entries - start) }, (_, offset) =>
          sha256Hex(`suppressed.${index}.${start + offset}@elsewhere.example`),
        );
        await repository.addEntries(list, hashes, at);
      }
    }
    console.log(
      `seeded ${LIST_KINDS.length} lists x ${entries} entries in ${fixed((performance.now() - started) / 1000, 1)} s`,
    );
  } finally {
    await store.close();
  }
}

/** Single ingest of unique leads against one deployment: warm-up, then the measured phase. */
async function ingestRate(target: Deployment, key: string, run: string, first: number): Promise<LoadResult> {
  const service = await startService(target, await freePort());
  try {
    // Each round's leads are other people (phones included), so none is a duplicate of an earlier round's.
    let counter = first;
    const send = (): Promise<Answer> =>
      post(`${service.url}/api/v1/leads/ingest`, key, JSON.stringify(uniqueSubmission(run, counter++)));
    await closedLoop(send, CONCURRENCY, WARMUP_MS);
    return await closedLoop(send, CONCURRENCY, SECONDS * 1000);
  } finally {
    await service.stop();
  }
}

async function ingestCost(): Promise<void> {
  const engines = enginesOption();
  const without = deployment(engines);
  const withLists = deployment(engines);
  try {
    const plainStore = await without.openStore();
    const plain = await seedTenant(plainStore);
    await plainStore.close();
    const listStore = await withLists.openStore();
    const listed = await seedTenant(listStore);
    await listStore.close();
    await seedLists(withLists, listed.organizationId, ENTRIES);
    // Side by side: each deployment twice, alternating, the better of its two runs counts.
    const runs: Array<[string, LoadResult]> = [];
    for (let round = 0; round < 2; round++) {
      const a = await ingestRate(without, plain.key, `${randomUUID().slice(0, 6)}a${round}`, round * 1_000_000);
      printLoad(`no lists (round ${round + 1})`, a);
      runs.push(['none', a]);
      const b = await ingestRate(withLists, listed.key, `${randomUUID().slice(0, 6)}b${round}`, round * 1_000_000);
      printLoad(`10 lists x ${ENTRIES} (round ${round + 1})`, b);
      runs.push(['lists', b]);
    }
    const best = (name: string) => Math.max(...runs.filter(([kind]) => kind === name).map(([, result]) => result.rps));
    const cost = 1 - best('lists') / best('none');
    console.log(`suppression check cost in single ingest: ${fixed(cost * 100, 1)} % (target <= 5 %)`);
  } finally {
    await without.cleanup();
    await withLists.cleanup();
  }
}

/** Resident set size of a process in bytes (Linux). */
function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

async function json(
  url: string,
  method: string,
  token: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** `rows` CSV rows made as they are sent: the client never holds the file. */
function csvRows(rows: number): Readable {
  let next = 0;
  return new Readable({
    read() {
      if (next === 0) this.push('email\n');
      const end = Math.min(rows, next + 5_000);
      let chunk = '';
      for (; next < end; next++) chunk += `student.${next}@alumni.example.edu\n`;
      this.push(chunk);
      if (next >= rows) this.push(null);
    },
  });
}

function upload(url: string, token: string, body: Readable): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

async function importMemory(): Promise<void> {
  const target = deployment(enginesOption());
  try {
    const store = await target.openStore();
    await seedTenant(store); // indexes
    await store.close();
    const service = await startService(target, await freePort());
    const pid = service.process.pid!;
    try {
      const registered = await json(`${service.url}/api/auth/register`, 'POST', undefined, {
        email: `bench.${randomUUID().slice(0, 6)}@college.edu`,
        password: 'Passw0rd!',
        first_name: 'Bench',
        last_name: 'Owner',
        organization_name: 'Import Bench',
      });
      const token = String(registered.body['token']);
      const list = await json(`${service.url}/api/suppression-lists`, 'POST', token, { name: 'Alumni', kind: 'email' });
      const listId = String((list.body['data'] as Record<string, unknown>)['id']);
      // Idle: the service started and served a few requests; let it settle.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const idle = rssOf(pid);
      let peak = idle;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 100);
      const started = performance.now();
      const answered = await upload(
        `${service.url}/api/suppression-lists/${listId}/entries/import`,
        token,
        csvRows(ROWS),
      );
      if (answered.status !== 202) throw new Error(`import answered ${answered.status} ${answered.body}`);
      const uploadedMs = performance.now() - started;
      let job = (JSON.parse(answered.body) as { data: Record<string, unknown> }).data;
      while (job['status'] === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        job = (await json(`${service.url}${String(job['status_url'])}`, 'GET', token)).body['data'] as Record<
          string,
          unknown
        >;
      }
      const totalMs = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, rssOf(pid));
      if (job['status'] !== 'completed' || job['added'] !== ROWS)
        throw new Error(`import ended ${JSON.stringify(job)}`);
      console.log(
        `import of ${ROWS} rows: upload ${fixed(uploadedMs / 1000, 1)} s, done in ${fixed(totalMs / 1000, 1)} s (${fixed(ROWS / (totalMs / 1000))} rows/s)`,
      );
      console.log(
        `RSS idle ${fixed(idle / 1048576)} MB, peak ${fixed(peak / 1048576)} MB, peak / idle = ${(peak / idle).toFixed(2)} (target <= 1.5)`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    await target.cleanup();
  }
}

async function main(): Promise<void> {
  console.log(
    `suppression lists, ${enginesOption()} engines: ${ENTRIES} entries per list, import of ${ROWS} rows, concurrency ${CONCURRENCY}, ${SECONDS} s per phase`,
  );
  if (!process.argv.includes('--skip-ingest')) await ingestCost();
  if (!process.argv.includes('--skip-import')) await importMemory();
}

runBenchmark(main);
