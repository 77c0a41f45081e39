/**
 * Memory of an export: the export stage must stream (store `iterate` → csv-stringify → file
 * store), so its process's peak RSS while exporting N leads stays near its idle RSS.
 * Target: peak RSS / idle RSS <= 1.5.
 *
 *   npx tsx bench/export-memory.ts [--leads 1000000] [--batch-size 500]
 *
 * The parent seeds N leads of one organization straight into an embedded store in a temp dir
 * (insertMany in chunks of 10 000, through the real LeadRepository indexes) and stores one export
 * request with the default fields. A child process (`--child`) opens the same engines as
 * `leadstream worker --stages export` would (embedded store, embedded log, DATA_DIR/exports
 * files), says it is idle, and on "go" hands one exports.requests record to the real export
 * stage (ExportWorker.handle) and waits for the generation it starts. The parent samples the child's VmRSS from /proc/<pid>/status every
 * 100 ms: idle = the largest sample over 2 s before "go", peak = the largest sample until done.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ExportRepository, LeadRepository, LEADS_COLLECTION } from '@leadstream/dal';
import {
  DEFAULT_EXPORT_FIELDS,
  exportStatusOf,
  startExport,
  startLead,
  type ExportRecord,
  type LeadRecord,
} from '@leadstream/domain';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { FilesystemExportFileStore } from '@leadstream/engine-files';
import { ExportWorker } from '@leadstream/worker';
import { pino } from 'pino';
import { option } from './support/service';

const ORG = 'org_bench_export';
const CHUNK = 10_000;

function lead(i: number, base: number): LeadRecord {
  const id = `lead_${i.toString(16).padStart(32, '0')}`;
  const at = new Date(base + i * 1000).toISOString();
  return {
    _id: id,
    organization_id: ORG,
    environment: 'live',
    vendor_id: 'vendor-1',
    status: i % 10 === 0 ? 'rejected' : 'active',
    email: `student${i}@example.edu`,
    first_name: `First${i % 997}`,
    last_name: `Last${i % 991}`,
    phone: `+1415555${(i % 10_000).toString().padStart(4, '0')}`,
    source: 'google',
    program: i % 2 ? 'Computer Science' : 'Nursing',
    program_interest: 'Bachelor of Science',
    ip_address: '203.0.113.7',
    user_agent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15',
    landing_page: 'https://apply.example.edu/cs',
    referrer: 'https://www.google.com/',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'fall-2026',
    utm_term: 'cs degree',
    utm_content: 'ad-1',
    custom_fields: { graduation_year: 2026, campus: 'North' },
    enrichment_data: { state: 'CA', city: 'San Francisco' },
    validation_status: 'passed',
    enrichment_status: 'completed',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: `student${i}@example.edu`,
    bk_email: `student${i}@example.edu`,
    bk_phone: null,
    bk_name: null,
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: at,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor: startLead(id),
    version: 3,
    applied_messages: [],
    outbox: [],
  };
}

function rssKb(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;

/** The child: the export stage's engines and handler, nothing else. */
async function child(dataDir: string, exportId: string, batchSize: number): Promise<void> {
  const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  const log = await openEmbeddedLog({ dataDir: join(dataDir, 'log') });
  await log.ensureTopics([{ topic: 'leads.events', partitions: 1 }]);
  const files = await FilesystemExportFileStore.open(join(dataDir, 'exports'));
  const worker = new ExportWorker({
    exports: new ExportRepository(store),
    files,
    log,
    logger: pino({ level: 'silent' }),
    batchSize,
  });
  const message = {
    schema_version: 1,
    message_id: 'msg_bench',
    export_id: exportId,
    organization_id: ORG,
    environment: 'live',
    requested_at: new Date().toISOString(),
  };
  const record = {
    topic: 'exports.requests',
    partition: 0,
    offset: '0',
    key: exportId,
    value: JSON.stringify(message),
    headers: {},
    timestamp: Date.now(),
  };
  console.log('idle');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line !== 'go') continue;
    const started = Date.now();
    await worker.handle(record);
    await worker.idle();
    const done = await new ExportRepository(store).findById({ organizationId: ORG, environment: 'live' }, exportId);
    console.log(
      JSON.stringify({
        done: true,
        seconds: (Date.now() - started) / 1000,
        status: done?.status,
        rows: done?.row_count,
      }),
    );
    break;
  }
  lines.close();
  await log.close();
  await store.close();
}

async function parent(): Promise<void> {
  const leads = option('leads', 1_000_000);
  const batchSize = option('batch-size', 500);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  try {
    const seedStarted = Date.now();
    const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
    await LeadRepository.ensureIndexes(store);
    await ExportRepository.ensureIndexes(store);
    const collection = store.collection<LeadRecord>(LEADS_COLLECTION);
    const base = Date.now() - leads * 1000;
    for (let from = 0; from < leads; from += CHUNK) {
      const chunk: LeadRecord[] = [];
      for (let i = from; i < Math.min(leads, from + CHUNK); i++) chunk.push(lead(i, base));
      await collection.insertMany(chunk);
      if ((from / CHUNK) % 20 === 0) process.stderr.write(`seeded ${from + chunk.length}\n`);
    }
    const exportId = `export_${randomUUID().replace(/-/g, '')}`;
    const actor = startExport(exportId);
    const request: ExportRecord = {
      _id: exportId,
      organization_id: ORG,
      environment: 'live',
      user_id: 'user_bench',
      format: 'csv',
      filters: {},
      fields: [...DEFAULT_EXPORT_FIELDS],
      status: exportStatusOf(actor.state),
      actor,
      row_count: null,
      file_id: null,
      base_url: 'http://127.0.0.1:3000',
      download_url: null,
      created_at: new Date().toISOString(),
      estimated_completion: new Date().toISOString(),
      completed_at: null,
      expires_at: null,
      error: null,
      lease_until: null,
      version: 1,
      outbox: [],
    };
    await new ExportRepository(store).insert(request);
    await store.close();
    const seedSeconds = (Date.now() - seedStarted) / 1000;

    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', dataDir, exportId, String(batchSize)],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const out = createInterface({ input: proc.stdout });
    const lines = out[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.value !== 'idle') throw new Error(`child said ${String(first.value)}`);
    let idle = 0;
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      idle = Math.max(idle, rssKb(proc.pid!) ?? 0);
    }
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssKb(proc.pid!) ?? 0);
    }, 100);
    proc.stdin.write('go\n');
    const result = JSON.parse(String((await lines.next()).value)) as { seconds: number; status: string; rows: number };
    clearInterval(sampler);
    proc.stdin.end();
    await new Promise((resolve) => proc.once('exit', resolve));
    const csvBytes = statSync(join(dataDir, 'exports', `${exportId}.csv`)).size;
    const ratio = peak / idle;
    console.log(`leads seeded      ${leads} in ${seedSeconds.toFixed(1)} s`);
    console.log(
      `export            ${result.status}, ${result.rows} rows, ${(csvBytes / 1024 / 1024).toFixed(1)} MB CSV, ${result.seconds.toFixed(1)} s (${Math.round(result.rows / result.seconds)} rows/s)`,
    );
    console.log(`idle RSS          ${mb(idle)}`);
    console.log(`peak RSS          ${mb(peak)}`);
    console.log(`peak / idle       ${ratio.toFixed(2)} (target <= 1.5: ${ratio <= 1.5 ? 'met' : 'NOT met'})`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!, Number(process.argv[5]));
else await parent();
