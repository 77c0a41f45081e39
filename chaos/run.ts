/**
 * `npm run chaos`: the fault-injection suite (docs/chaos.md). Breaks leadstream's dependencies and
 * its own processes under load, on loopback only, and checks that nothing acknowledged is lost or
 * duplicated. Two halves: the distributed engines (private Kafka, FerretDB on PostgreSQL and the
 * ClickHouse stand-in, started by this run on ports of its own) and the embedded engines (a
 * SIGKILL, and a full disk on a small tmpfs). Prints a report; exits 0 when every invariant held,
 * 1 otherwise. Stops by itself: a hard timeout ends the run, after cleaning up, whatever happens.
 *
 *   npm run chaos [-- --only distributed|embedded] [--faults kafka,api,...] [--keep]
 *
 * --keep leaves the work directory (logs, data) in place after a pass; after a failure it is always
 * kept. --faults runs only the named faults of the distributed half (for investigating one).
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cleanup } from './lib/cleanup';
import { privateInfraDown, privateInfraDownSync, type PrivateInfraOptions } from './lib/infra';
import { Report } from './lib/report';
import { DISTRIBUTED, runDistributed } from './distributed';
import { EMBEDDED, runEmbedded } from './embedded';

/** The whole run, both halves and their servers included, ends within this: under 6 minutes (docs/chaos.md). */
const HARD_TIMEOUT_MS = Number(process.env['CHAOS_TIMEOUT_S'] ?? 350) * 1000;
/** Time kept for cleaning up after the work (stopping processes and servers, unmounting): about 10 s is used. */
const CLEANUP_RESERVE_MS = 30_000;

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? '') : undefined;
}

const only = option('only');
if (only !== undefined && only !== 'distributed' && only !== 'embedded') {
  process.stderr.write('--only takes distributed or embedded\n');
  process.exit(2);
}
const keep = process.argv.includes('--keep');
/** For investigating one fault: --faults postgres,api runs only those of the distributed half (the run then proves less). */
const faults = option('faults')?.split(',').filter(Boolean);

const report = new Report();
const cleanup = new Cleanup();
const startedAt = Date.now();
const workDir = join(
  process.env['CHAOS_WORK_DIR'] ?? join(tmpdir(), 'leadstream-chaos'),
  `run-${new Date().toISOString().replace(/[:.]/g, '-')}`,
);
mkdirSync(workDir, { recursive: true });
const infra: PrivateInfraOptions = {
  // A fixed place, so that a run killed before its cleanup leaves servers the next run stops first.
  runDir: process.env['CHAOS_INFRA_DIR'] ?? join(tmpdir(), 'leadstream-chaos', 'infra'),
  kafkaPort: Number(process.env['CHAOS_KAFKA_PORT'] ?? 29092),
  ferretdbPort: Number(process.env['CHAOS_FERRETDB_PORT'] ?? 27028),
  postgresPort: Number(process.env['CHAOS_POSTGRES_PORT'] ?? 25432),
  clickhousePort: Number(process.env['CHAOS_CLICKHOUSE_PORT'] ?? 28123),
};

let finishing: Promise<never> | undefined;
/**
 * Prints the report, cleans up and exits: 0 only when `code` is 0 and every invariant held. Called
 * again while it runs (the work ending after the hard timeout fired), it waits for the first call.
 */
function finish(code: number): Promise<never> {
  finishing ??= (async (): Promise<never> => {
    // The report first: a cleanup that overruns the hard timeout must not swallow it.
    report.print();
    report.log('cleaning up');
    await cleanup.runAll(20_000);
    const ok = code === 0 && report.ok;
    if (ok && !keep) rmSync(workDir, { recursive: true, force: true });
    else process.stdout.write(`logs and data of this run: ${workDir}\n`);
    process.exit(ok ? 0 : 1);
  })();
  return finishing;
}

cleanup.addEmergency('private servers (infra/down.sh)', () => privateInfraDownSync(infra));

// The hard timeout: fail the run, clean up within the reserve, and exit even if cleaning up hangs.
const hard = setTimeout(() => {
  report.fail('run', `hard timeout: the run did not finish within ${HARD_TIMEOUT_MS / 1000} s`);
  setTimeout(() => {
    process.stderr.write('[chaos] cleanup did not finish in time; killing what the run started and exiting\n');
    cleanup.runEmergency();
    process.exit(1);
  }, CLEANUP_RESERVE_MS - 5_000).unref();
  void finish(1);
}, HARD_TIMEOUT_MS - CLEANUP_RESERVE_MS);
hard.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    report.fail('run', `interrupted (${signal})`);
    void finish(130);
  });
}

async function main(): Promise<void> {
  report.log(`leadstream chaos: work directory ${workDir}; hard timeout ${HARD_TIMEOUT_MS / 1000} s`);
  // Servers left by an earlier run that was killed before its cleanup.
  await privateInfraDown(infra).catch(() => undefined);
  const workEnd = startedAt + HARD_TIMEOUT_MS - CLEANUP_RESERVE_MS;
  if (only !== 'embedded') {
    // The embedded half needs about 70 s on a quiet machine; it keeps at least that, and 30 % of a
    // longer budget (a slower machine is slower at both halves); the distributed half gets the rest.
    const embeddedShare = Math.max(75_000, Math.round(HARD_TIMEOUT_MS * 0.3));
    const deadline = only === 'distributed' ? workEnd : workEnd - embeddedShare;
    await runDistributed({
      report,
      cleanup,
      workDir: join(workDir, 'distributed'),
      deadline,
      infra,
      ...(faults ? { faults } : {}),
    }).catch((error: unknown) => report.fail(DISTRIBUTED, error instanceof Error ? error.message : String(error)));
    await cleanup.runAll(20_000);
  }
  if (only !== 'distributed') {
    await runEmbedded({ report, cleanup, workDir: join(workDir, 'embedded'), deadline: workEnd }).catch(
      (error: unknown) => report.fail(EMBEDDED, error instanceof Error ? error.message : String(error)),
    );
  }
}

await main();
await finish(0);
