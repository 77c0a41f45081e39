/**
 * Reprocessing against live ingest (docs/reprocessing.md): single-lead ingest (POST
 * /api/v1/leads/ingest, closed loop) alone, then the same load while a reprocessing job applies a
 * new enrichment rule to N stored leads, in the same run and the same process.
 *
 *   npx tsx bench/reprocess.ts [--engines embedded|kafka] [--leads 100000] [--concurrency 16] [--seconds 10]
 *                              [--rounds 3] [--batch-size 50] [--pause-ms 0] [--share 10] [--finish] [--dry-run] [--profile]
 *
 * Target: ingest while reprocessing >= 0.8 x ingest alone (no more than 20 % slower) in every
 * round. A round is a phase of ingest while a new job runs (cancelled at the phase's end; the last
 * one runs to its end with --finish) and a phase alone after it; each "while" phase is compared with
 * the mean of the phases alone either side of it. Also printed: each job's leads per second and
 * what it changed. The service runs as
 * `leadstream start` in a child process (MX_CHECK=off). A user registers through the API; the
 * service is stopped while the N leads are seeded straight into its store (insertMany in chunks
 * of 10 000: the embedded store is locked by a running process) and started again.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LEADS_COLLECTION } from '@leadstream/dal';
import { API_KEY_RATE_LIMIT_MAX, startLead, type LeadRecord } from '@leadstream/domain';
import {
  closedLoop,
  only2xx,
  printLoad,
  deployment,
  enginesOption,
  fixed,
  freePort,
  option,
  post,
  runBenchmark,
  startService,
  uniqueSubmission,
  type Child,
  type LoadResult,
} from './support/service';

const LEADS = option('leads', 100_000);
const CONCURRENCY = option('concurrency', 16);
const SECONDS = option('seconds', 10);
/** Rounds of (ingest while a job runs, ingest alone after it), after a first phase alone. */
const ROUNDS = option('rounds', 3);
/** REPROCESS_BATCH_SIZE and REPROCESS_PAUSE_MS of the service (the defaults: 50 and 0). */
const BATCH_SIZE = option('batch-size', 50);
// 0 (no pause) is allowed here, unlike option()'s positive integers.
const PAUSE_MS = process.argv.includes('--pause-ms') ? option('pause-ms', 1) : 0;
/** REPROCESS_SHARE_PERCENT of the service when given (else the service's default). */
const SHARE = process.argv.includes('--share') ? option('share', 10) : undefined;
const CHUNK = 10_000;
/** Wait for the whole job instead of cancelling it once ingest has been measured beside it. */
const FINISH = process.argv.includes('--finish');
/** A dry run (counts, writes nothing): what reading and deciding cost live ingest without the writes. */
const DRY_RUN = process.argv.includes('--dry-run');
/** `--profile`: the service writes CPU profiles (node --cpu-prof, one a thread) to bench/.profiles. */
const PROFILE = process.argv.includes('--profile');
const PASSWORD = 'Bench-Passw0rd!';

function seededLead(organizationId: string, vendorId: string, i: number, base: number): LeadRecord {
  const id = `lead_${i.toString(16).padStart(32, '0')}`;
  const at = new Date(base + i * 10).toISOString();
  return {
    _id: id,
    organization_id: organizationId,
    environment: 'live',
    vendor_id: vendorId,
    status: 'active',
    email: `stored${i}@example.edu`,
    first_name: `First${i % 997}`,
    last_name: `Last${i % 991}`,
    phone: null,
    source: 'search',
    program: null,
    program_interest: 'MSc Data Science',
    utm_source: 'google',
    utm_campaign: 'fall-2026',
    custom_fields: {},
    enrichment_data: {},
    validation_status: 'passed',
    enrichment_status: 'completed',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'not_applicable',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: `stored${i}@example.edu`,
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
  } as unknown as LeadRecord;
}

async function json(
  base: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const data = (body: Record<string, unknown>) => body['data'] as Record<string, unknown>;

async function main(): Promise<void> {
  const engines = enginesOption();
  const run = randomUUID().slice(0, 8);
  const email = `bench.${run}@example.edu`;
  console.log(
    `reprocessing ${LEADS} leads against single ingest, ${engines} engines, concurrency ${CONCURRENCY}, ${SECONDS} s alone`,
  );
  const target = deployment(engines);
  let service: Child | undefined;
  try {
    // 1. A user, a vendor and a key through the API.
    service = await startService(target, await freePort());
    const registered = await json(service.url, 'POST', '/api/auth/register', '', {
      email,
      password: PASSWORD,
      first_name: 'Bench',
      last_name: 'Mark',
      organization_name: 'Reprocessing Bench University',
    });
    let token = String(registered['token']);
    const organizationId = String(data(await json(service.url, 'GET', '/api/organization', token))['id']);
    const vendorId = String(
      data(await json(service.url, 'POST', '/api/vendors', token, { name: 'Bench Vendor', type: 'inquiry' }))['id'],
    );
    const key = String(
      data(
        // A production key's default is 500 requests a minute (the spec's limit); a load run needs its override.
        await json(service.url, 'POST', '/api/api-keys', token, {
          name: 'bench',
          vendor_id: vendorId,
          rate_limit: API_KEY_RATE_LIMIT_MAX,
        }),
      )['key'],
    );
    await service.stop();
    service = undefined;

    // 2. N stored leads, straight into the store.
    const store = await target.openStore();
    try {
      const leads = store.collection<LeadRecord>(LEADS_COLLECTION);
      const base = Date.now() - LEADS * 10 - 60_000;
      const seeded = performance.now();
      for (let i = 0; i < LEADS; i += CHUNK)
        await leads.insertMany(
          Array.from({ length: Math.min(CHUNK, LEADS - i) }, (_, j) =>
            seededLead(organizationId, vendorId, i + j, base),
          ),
        );
      console.log(`seeded ${LEADS} leads in ${fixed((performance.now() - seeded) / 1000, 1)} s`);
    } finally {
      await store.close();
    }

    // 3. Ingest alone, then ingest while the job runs.
    const profileDir = join(process.cwd(), 'bench', '.profiles');
    if (PROFILE) mkdirSync(profileDir, { recursive: true });
    service = await startService(
      target,
      await freePort(),
      {
        REPROCESS_BATCH_SIZE: String(BATCH_SIZE),
        REPROCESS_PAUSE_MS: String(PAUSE_MS),
        ...(SHARE === undefined ? {} : { REPROCESS_SHARE_PERCENT: String(SHARE) }),
        // The job is polled twice a second beside the user's other calls: past the user API's 100 a minute.
        RATE_LIMIT_SCALE: '100',
      },
      PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const url = service.url;
    token = String((await json(url, 'POST', '/api/auth/login', '', { email, password: PASSWORD }))['token']);
    let counter = 0;
    const send = () => post(`${url}/api/v1/leads/ingest`, key, JSON.stringify(uniqueSubmission(run, counter++)));
    await closedLoop(send, CONCURRENCY, 2_000); // warm-up
    const alone = only2xx('ingest alone', await closedLoop(send, CONCURRENCY, SECONDS * 1000));
    printLoad('ingest alone', alone);

    const rule = String(
      data(
        await json(url, 'POST', '/api/enrichment/rules', token, {
          name: 'Search tier',
          priority: 1,
          conditions: { operator: 'AND', rules: [{ field: 'source', operator: 'equals', value: 'search' }] },
          actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: 'search-0' }],
        }),
      )['id'],
    );
    // Rounds: ingest alone, then ingest while a job runs, ..., then alone once more. Each "while"
    // phase is compared with the mean of the phases alone either side of it, so the rate's drift
    // (the store grows by the leads ingested; the machine's other load comes and goes) falls on both
    // sides of the ratio. Each round's job applies a new value of the rule, so it changes every lead
    // it reaches, as the first job did.
    const alones: LoadResult[] = [alone];
    const rounds: Array<{ during: LoadResult; ratio: number }> = [];
    for (let round = 1; round <= ROUNDS; round++) {
      if (round > 1)
        await json(url, 'PATCH', `/api/enrichment/rules/${rule}`, token, {
          actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: `search-${round}` }],
        });
      const started = performance.now();
      const job = String(
        data(
          await json(url, 'POST', '/api/reprocess', token, {
            filter: { vendor_id: vendorId, end_date: new Date(Date.now() - 30_000).toISOString() },
            stages: ['enrich'],
            ...(DRY_RUN ? { dry_run: true } : {}),
          }),
        )['id'],
      );
      let state: Record<string, unknown> = {};
      let finishedAt = 0;
      const poll = (async () => {
        for (;;) {
          state = data(await json(url, 'GET', `/api/reprocess/${job}`, token));
          if (['completed', 'cancelled', 'failed'].includes(String(state['status']))) {
            finishedAt = performance.now();
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      const during = only2xx('ingest while reprocessing', await closedLoop(send, CONCURRENCY, SECONDS * 1000));
      // A job still running after its phase is cancelled (unless --finish): a job of 100,000 leads at
      // its default share of the time runs for many minutes, and what it costs ingest is measured by then.
      if (finishedAt === 0 && !(FINISH && round === ROUNDS))
        await json(url, 'POST', `/api/reprocess/${job}/cancel`, token);
      await poll;
      const jobSeconds = (finishedAt - started) / 1000;
      const after = only2xx('ingest alone', await closedLoop(send, CONCURRENCY, SECONDS * 1000));
      const before = alones[alones.length - 1]!;
      alones.push(after);
      const ratio = during.rps / ((before.rps + after.rps) / 2);
      rounds.push({ during, ratio });
      printLoad(`round ${round}: ingest while reprocessing`, during);
      console.log(
        `  job ${job}: ${String(state['status'])}, done ${String(state['done'])}/${String(state['total'])}, changed ${String(state['changed'])}, failed ${String(state['failed'])}, ${fixed(Number(state['done']) / Math.max(jobSeconds, 1e-9))} leads/s`,
      );
      if (FINISH && round === ROUNDS && Number(state['changed']) !== LEADS)
        console.log(`  WARNING: the job changed ${String(state['changed'])} of ${LEADS} leads`);
      printLoad(`round ${round}: ingest alone, after the job`, after);
      console.log(`  round ${round}: while / mean of alone before and after = ${ratio.toFixed(3)}`);
    }
    const ratios = rounds.map((round) => round.ratio).sort((a, b) => a - b);
    const during = rounds.reduce((sum, round) => sum + round.during.rps, 0) / rounds.length;
    const baseline = alones.reduce((sum, phase) => sum + phase.rps, 0) / alones.length;
    console.log(
      `ingest while reprocessing / ingest alone, per round: ${rounds.map((round) => round.ratio.toFixed(3)).join(', ')}; lowest ${ratios[0]!.toFixed(3)}, median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(3)}; mean while ${fixed(during)} req/s against mean alone ${fixed(baseline)} req/s (target >= 0.8 in every round)`,
    );
  } finally {
    await service?.stop();
    await target.cleanup();
  }
}

runBenchmark(main);
