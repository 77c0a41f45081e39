/**
 * The intake chain alone (validate → dedup → enrich → route in one batch, one commit), in this
 * process on the embedded engines: what one lead costs the pipeline thread, per batch size, with
 * no HTTP, no thread hop and no other consumer. The ingest benchmarks measure the whole service;
 * this one says how much of it is the chain, and `--profile` shows where its time goes. The CPU
 * time per lead (every thread of the process) moves less than the wall time on a shared machine:
 * compare changes by it, in alternating runs.
 *
 *   npx tsx bench/intake-chain.ts [--leads 4000] [--sizes 1,8,32,128] [--profile] [--wal-pages 40]
 *
 * `--wal-pages N` then commits N batches of one lead more and prints the write-ahead-log frames
 * (pages) each commit wrote, by the b-tree they belong to (SQLite's dbstat): what a commit's
 * fixed cost is made of. Background checkpoints are off for the run so the log keeps every frame.
 *
 * Configuration is read through the ConfigCache, as in the service. The store holds the leads of every earlier batch of the run, so dedup finds candidates the way
 * it does in a running service (names repeat: a name key is shared by many stored leads).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createDal,
  CustomFieldRepository,
  DedupRepository,
  EnrichmentConfigReader,
  LeadRepository,
  RoutingConfigReader,
  RoutingCounterRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { type EmbeddedStore, openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { LogRecord } from '@leadstream/ports';
import { ConfigCache, createLogger } from '@leadstream/runtime';
import { ensureAllIndexes } from '../apps/leadstream/src/indexes';
import { AtomicBatchWriter } from '../apps/worker/src/batch/atomic-batch-writer';
import { chainLeadStages } from '../apps/worker/src/batch/stage-chain';
import { dedupStage } from '../apps/worker/src/pipeline/dedup.stage';
import { enrichStage } from '../apps/worker/src/pipeline/enrich.stage';
import { TOPICS } from '../apps/worker/src/pipeline/outputs';
import { routeStage } from '../apps/worker/src/pipeline/route.stage';
import { validateStage } from '../apps/worker/src/pipeline/validate.stage';
import { driveStage } from '../apps/worker/src/test-support/stage-driver';
import { leadCommand } from '../apps/worker/src/test-support/lead-command';
import { fixed, option, runBenchmark, uniqueSubmission } from './support/service';

const LEADS = option('leads', 4_000);
const WAL_PAGES = process.argv.includes('--wal-pages') ? option('wal-pages', 40) : 0;
const PROFILE = process.argv.includes('--profile');
/** Batch sizes to measure (`--sizes 1` profiles what a lead alone costs: the per-batch overhead). */
const SIZES = (process.argv[process.argv.indexOf('--sizes') + 1] ?? '')
  .split(',')
  .map(Number)
  .filter((size) => process.argv.includes('--sizes') && Number.isInteger(size) && size > 0);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-chain-'));
  // The embedded engines as `leadstream start` opens them: the log in the store's database.
  const store = await openEmbeddedStore({
    dataDir: join(dir, 'store'),
    ...(WAL_PAGES ? { checkpointIntervalMs: 0 } : {}),
  });
  if (WAL_PAGES) store.db.pragma('wal_autocheckpoint = 0');
  const log = EmbeddedLog.open({ dataDir: join(dir, 'log'), shared: store });
  await log.ensureTopics(Object.values(TOPICS).map((topic) => ({ topic, partitions: 1 })));
  const writer = new AtomicBatchWriter({ store, log, topicPrefix: '' });
  // Configuration kept as the service keeps it (read once, then until a change is known).
  const config = new ConfigCache({ log, store, logger: createLogger({ level: 'silent', role: 'bench' }) });
  await config.start();
  const session = PROFILE ? new Session() : undefined;
  try {
    // Every index the service makes (leads, activity, the dedup log, ...): each costs a chain's write.
    await ensureAllIndexes(store);
    const dal = createDal(store);
    const organization = await dal.organizations.create({ name: 'Bench University' });
    const vendor = await dal.vendors.create(
      { organizationId: organization.id, environment: 'live' },
      { name: 'Vendor', type: 'inquiry' },
    );
    const leads = new LeadRepository(store);
    const chain = driveStage(
      chainLeadStages([
        validateStage({
          leads,
          organizations: dal.organizations,
          customFields: new CustomFieldRepository(store),
          validationRules: new ValidationRuleRepository(store),
          config,
          mx: undefined,
        }),
        dedupStage({ leads, dedup: new DedupRepository(store), vendors: dal.vendors, config }),
        enrichStage({ leads, enrichment: new EnrichmentConfigReader(store), config }),
        routeStage({
          leads,
          routing: new RoutingConfigReader(store),
          counters: new RoutingCounterRepository(store),
          config,
        }),
      ]),
      writer,
    );
    let sent = 0;
    /** Wall time and CPU time (every thread of the process: the checkpointer's too) of the chain's batches, ms. */
    const runBatches = async (size: number, count: number): Promise<{ ms: number; cpuMs: number }> => {
      let elapsed = 0;
      let cpu = 0;
      for (let batch = 0; batch < count; batch++) {
        const messages = Array.from({ length: size }, () =>
          leadCommand(organization.id, vendor.id, { submission: uniqueSubmission('chain', sent++) }),
        );
        const produced = messages.map((message) => ({ key: message.lead_id, value: JSON.stringify(message) }));
        const metadata = await log.produce(TOPICS.submitted, produced);
        // The records as the chain's consumer would read them.
        const records: LogRecord[] = produced.map((record, index) => ({
          ...record,
          topic: TOPICS.submitted,
          partition: 0,
          offset: metadata[index]!.offset,
          headers: {},
          timestamp: Date.now(),
        }));
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        await chain.handle(records);
        const used = process.cpuUsage(cpuBefore);
        elapsed += performance.now() - started;
        cpu += (used.user + used.system) / 1000;
      }
      return { ms: elapsed, cpuMs: cpu };
    };
    await runBatches(32, 20); // warm-up, and leads for dedup to find
    if (session) {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
    }
    console.log(`intake chain, embedded engines, in process (${LEADS} leads per batch size)`);
    for (const size of SIZES.length > 0 ? SIZES : [1, 8, 32, 128]) {
      const count = Math.max(1, Math.round(LEADS / size));
      const { ms, cpuMs } = await runBatches(size, count);
      console.log(
        `batch of ${String(size).padStart(3)}: ${fixed((ms / (count * size)) * 1000).padStart(6)} us per lead, ${fixed((count * size * 1000) / ms).padStart(6)} leads/s, CPU ${fixed((cpuMs / (count * size)) * 1000).padStart(6)} us per lead`,
      );
    }
    if (WAL_PAGES) await printWalPages(store, WAL_PAGES, () => runBatches(1, 1));
    if (session) {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync('bench/.profiles', { recursive: true });
      const file = `bench/.profiles/intake-chain-${Date.now()}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      console.log(`profile: ${file}`);
    }
  } finally {
    session?.disconnect();
    await config.stop();
    await log.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** WAL frames written by each of `rounds` commits of `commitOne`, averaged by the b-tree of their page. */
async function printWalPages(store: EmbeddedStore, rounds: number, commitOne: () => Promise<unknown>): Promise<void> {
  const walFile = `${store.db.name}-wal`;
  const pages = store.db.prepare<[], { name: string; pageno: number }>('SELECT name, pageno FROM dbstat');
  const byTree = new Map<string, number>();
  let frames = 0;
  for (let round = 0; round < rounds; round++) {
    const before = statSync(walFile).size;
    await commitOne();
    const wal = readFileSync(walFile);
    const pageSize = wal.readUInt32BE(8);
    // After the batch, so pages it allocated are named too.
    const treeOf = new Map(pages.all().map((row) => [row.pageno, row.name] as const));
    // A frame is a 24-byte header (its first 4 bytes: the page number) and the page.
    for (let offset = before; offset + 24 <= wal.length; offset += 24 + pageSize) {
      const tree = treeOf.get(wal.readUInt32BE(offset)) ?? '(free list)';
      byTree.set(tree, (byTree.get(tree) ?? 0) + 1);
      frames++;
    }
  }
  console.log(`WAL frames per commit of one lead: ${fixed(frames / rounds, 1)}, by b-tree:`);
  for (const [tree, count] of [...byTree].sort((a, b) => b[1] - a[1]))
    console.log(`  ${fixed(count / rounds, 2).padStart(6)}  ${tree}`);
}

runBenchmark(main);
