/**
 * Single-lead ingestion: POST /api/v1/leads/ingest with unique leads at a fixed concurrency,
 * answered after the pipeline's decision (validate, dedup), against a bare Koa + koa-body endpoint
 * that parses the same body and answers 201, measured in the same run (docs/performance.md).
 *
 *   npx tsx bench/ingest-single.ts [--engines embedded|kafka] [--concurrency 32] [--seconds 10] [--profile]
 *
 * Targets (docs/performance.md): embedded, service rps >= 0.1 x bare rps, p99 <= 20 ms at half the
 * achieved rate (open loop), <= 1.2 SQLite commits per accepted lead; Kafka + MongoDB-protocol server
 * (run it with --concurrency 16), no answer past the decision deadline (no 202), >= 130 req/s, and
 * the store's round trips per lead and per intake-chain batch printed.
 * The service runs as `leadstream start` in a child process (MX_CHECK=off, a key whose rate limit
 * is raised for the run); `--profile` writes its CPU profile (node --cpu-prof) to bench/.profiles.
 * Every 2xx answer must be a stored lead afterwards, or the run fails.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  closedLoop,
  deployment,
  enginesOption,
  fixed,
  freePort,
  openLoop,
  option,
  post,
  runBenchmark,
  seedTenant,
  startChild,
  startService,
  uniqueSubmission,
  verifyStored,
  type Answer,
  type LoadResult,
} from './support/service';

const CONCURRENCY = option('concurrency', 32);
const SECONDS = option('seconds', 10);
const WARMUP_MS = 3_000;
const PROFILE = process.argv.includes('--profile');

function line(name: string, result: LoadResult): void {
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${status}:${count}`)
    .join(' ');
  console.log(
    `${name.padEnd(34)} ${fixed(result.rps).padStart(6)} req/s   p50 ${fixed(result.p50, 2).padStart(6)} ms   p99 ${fixed(result.p99, 2).padStart(6)} ms   (${result.requests} requests; ${statuses})`,
  );
}

/** The counters this bench reads from the service's /metrics (each undefined when absent). */
interface Counts {
  /** leadstream_sqlite_commits (embedded engines). */
  commits: number | undefined;
  /** leadstream_mongodb_commands (a MongoDB-protocol store): the store's round trips. */
  commands: number | undefined;
  /** Batches of the intake chain (its head stage, validate). */
  chainBatches: number | undefined;
  /** leadstream_messages_produced_total by topic: the log records written. */
  produced: Map<string, number>;
}

async function counts(url: string): Promise<Counts> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (pattern: RegExp): number | undefined => {
    const match = pattern.exec(text);
    return match ? Number(match[1]) : undefined;
  };
  return {
    commits: value(/^leadstream_sqlite_commits (\d+)/m),
    commands: value(/^leadstream_mongodb_commands (\d+)/m),
    chainBatches: value(/^leadstream_stage_batch_duration_seconds_count\{[^}]*stage="validate"[^}]*\} (\d+)/m),
    produced: new Map(
      [...text.matchAll(/^leadstream_messages_produced_total\{[^}]*topic="([^"]+)"[^}]*\} (\d+)/gm)].map(
        (match) => [match[1]!, Number(match[2])] as const,
      ),
    ),
  };
}

/** Log records written per accepted lead between two counts, in all and by topic. */
function recordsPerLead(before: Counts, after: Counts, leads: number): string {
  const byTopic = [...after.produced]
    .map(([topic, count]) => [topic, (count - (before.produced.get(topic) ?? 0)) / Math.max(1, leads)] as const)
    .filter(([, perLead]) => perLead > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = byTopic.reduce((sum, [, perLead]) => sum + perLead, 0);
  return `${total.toFixed(2)} (${byTopic.map(([topic, perLead]) => `${topic} ${perLead.toFixed(2)}`).join(', ')})`;
}

const perLead = (after: number | undefined, before: number | undefined, leads: number): string | undefined =>
  after !== undefined && before !== undefined ? ((after - before) / Math.max(1, leads)).toFixed(2) : undefined;

function leadIdsOf(answers: Answer[]): string[] {
  return answers
    .filter((answer) => answer.status >= 200 && answer.status < 300)
    .map((answer) => String((JSON.parse(answer.body) as { lead_id?: unknown }).lead_id));
}

async function main(): Promise<void> {
  const engines = enginesOption();
  const run = randomUUID().slice(0, 8);
  console.log(`single-lead ingest, ${engines} engines, concurrency ${CONCURRENCY}, ${SECONDS} s per phase`);

  // Baseline: bare Koa parsing the same JSON body.
  const bare = await startChild(['bench/support/bare-koa.ts'], {}, await freePort(), '/');
  let bareResult: LoadResult;
  try {
    const send = (i: number) =>
      post(`${bare.url}/api/v1/leads/ingest`, 'none', JSON.stringify(uniqueSubmission(run, i)));
    await closedLoop(send, CONCURRENCY, WARMUP_MS);
    bareResult = await closedLoop(send, CONCURRENCY, SECONDS * 1000);
  } finally {
    await bare.stop();
  }
  line('bare koa + koa-body', bareResult);

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
      {},
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const answers: Answer[] = [];
    let full: LoadResult;
    let half: LoadResult;
    let counter = 0;
    try {
      const send = (): Promise<Answer> =>
        post(`${service.url}/api/v1/leads/ingest`, tenant.key, JSON.stringify(uniqueSubmission(run, counter++)));
      answers.push(...(await closedLoop(send, CONCURRENCY, WARMUP_MS)).answers);
      const before = await counts(service.url);
      full = await closedLoop(send, CONCURRENCY, SECONDS * 1000);
      answers.push(...full.answers);
      line(`leadstream (${engines})`, full);
      // Let the pipeline finish the phase's leads (activity, projector) before counting.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const after = await counts(service.url);
      const accepted = full.answers.filter((answer) => answer.status === 201).length;
      const commits = perLead(after.commits, before.commits, accepted);
      if (engines === 'embedded' && commits !== undefined)
        console.log(`SQLite commits per accepted lead at steady state: ${commits} (target <= 1.2)`);
      console.log(`log records written per accepted lead: ${recordsPerLead(before, after, accepted)} (target <= 4)`);
      const commands = perLead(after.commands, before.commands, accepted);
      if (
        engines === 'kafka' &&
        commands !== undefined &&
        after.chainBatches !== undefined &&
        before.chainBatches !== undefined
      ) {
        const batches = Math.max(1, after.chainBatches - before.chainBatches);
        console.log(
          `MongoDB round trips (commands, both threads, every stage) per accepted lead: ${commands}; intake chain batches: ${batches} (${(accepted / batches).toFixed(1)} leads each), round trips per chain batch: ${((after.commands! - before.commands!) / batches).toFixed(1)}`,
        );
      }
      half = await openLoop(send, Math.max(1, Math.floor(full.rps / 2)), SECONDS * 1000);
      answers.push(...half.answers);
      line(`leadstream at half rate (${Math.floor(full.rps / 2)}/s, open)`, half);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const halfCommits = perLead(
        (await counts(service.url)).commits,
        after.commits,
        half.answers.filter((answer) => answer.status === 201).length,
      );
      // Small batches at half the rate: the cost of each commit is paid by fewer leads.
      if (engines === 'embedded' && halfCommits !== undefined)
        console.log(`SQLite commits per accepted lead at half rate: ${halfCommits}`);
    } finally {
      await service.stop();
    }
    const check = await target.openStore();
    try {
      await verifyStored(check, tenant.organizationId, leadIdsOf(answers));
    } finally {
      await check.close();
    }
    const failed = answers.filter((answer) => answer.status !== 201);
    if (failed.length > 0)
      console.log(`non-201 answers: ${failed.length}, e.g. ${failed[0]?.status} ${failed[0]?.body}`);
    const ratio = full.rps / bareResult.rps;
    if (engines === 'embedded') {
      console.log(
        `leadstream / bare = ${ratio.toFixed(3)} (target >= 0.1)   p99 at half rate = ${half.p99.toFixed(2)} ms (target <= 20 ms)`,
      );
    } else {
      const late = answers.filter((answer) => answer.status === 202).length;
      console.log(
        `leadstream / bare = ${ratio.toFixed(4)}   ${full.rps.toFixed(0)} req/s (target >= 130, 10x the 13-15 req/s before the intake chain)   answers past the decision deadline (202) = ${late} (target 0)`,
      );
    }
  } finally {
    await target.cleanup();
  }
}

runBenchmark(main);
