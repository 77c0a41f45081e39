/**
 * The embedded half: `leadstream start` on the embedded engines (SQLite store and log, chDB), its
 * DATA_DIR on a small filesystem of its own (a 64 MB tmpfs), with the same webhook receiver, CRM,
 * tenant and load as the distributed half. Two faults:
 *
 * - the service SIGKILLed mid-stream and started again on the same DATA_DIR;
 * - the disk filled up (a file written until the kernel refuses a byte more), kept full under
 *   load until the service has refused a few leads (at least 6 s, at most 30 s), then freed: the
 *   service must refuse with 503 in the vendor API's error format while it cannot write, stay up,
 *   and work again once there is room, losing nothing it acknowledged.
 *
 * Then the load stops, the pipeline drains, the service stops cleanly, and the invariants are
 * checked over its store and log (read directly, as the service is stopped) and the loopback ends.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { Cleanup } from './lib/cleanup';
import { fillDisk, freeBytes, mountSmallDisk } from './lib/disk';
import { checkInvariants, readStoredObservations, seenEvents, type SeenEvent } from './lib/invariants';
import { leadSubmission, LoadGenerator } from './lib/load';
import { Prober } from './lib/probe';
import { CrmProcess, WebhookReceiverProcess } from './lib/receivers';
import type { Report } from './lib/report';
import { LeadstreamProcess } from './lib/roles';
import { setUpTenant, WEBHOOK_EVENTS } from './lib/tenant';
import { commonEnv, freePort, sleep, waitUntil } from './lib/util';

export const EMBEDDED = 'embedded half (leadstream start on the embedded engines, DATA_DIR on a 64 MB tmpfs)';
const HALF = EMBEDDED;

const DISK_MB = 64;
const RECOVERY_BOUND_MS = 60_000;
const DRAIN_BOUND_MS = 60_000;
/**
 * How long the disk stays full, under load: at least FULL_MS, and on until the service has refused
 * REFUSALS leads (SQLite may go on writing into room its write-ahead log already has for a while),
 * but never past FULL_BOUND_MS.
 */
const FULL_MS = 6_000;
const REFUSALS = 3;
const FULL_BOUND_MS = 30_000;

export interface EmbeddedContext {
  report: Report;
  cleanup: Cleanup;
  workDir: string;
  deadline: number;
}

export async function runEmbedded(ctx: EmbeddedContext): Promise<void> {
  const { report, cleanup } = ctx;
  const run = randomUUID().slice(0, 8);
  mkdirSync(ctx.workDir, { recursive: true });
  const dataDir = join(ctx.workDir, 'data');
  const disk = mountSmallDisk(dataDir, DISK_MB);
  const unmount = cleanup.add(`unmount ${dataDir}`, () => disk.unmount());
  cleanup.addEmergency(`unmount ${dataDir}`, () => disk.unmount());
  report.log(
    `${HALF}: DATA_DIR ${dataDir} on a ${DISK_MB} MB ${disk.kind}; log in ${join(ctx.workDir, 'leadstream-start.log')}`,
  );
  if (disk.kind !== 'tmpfs')
    report.figure(HALF, 'small filesystem', `tmpfs could not be mounted here; a ${disk.kind} of ${DISK_MB} MB instead`);

  const crmAuth = `Bearer chaos-crm-${run}`;
  const receiver = await WebhookReceiverProcess.start();
  cleanup.add('webhook receiver (embedded half)', () => receiver.stop());
  cleanup.addEmergency('webhook receiver (embedded half)', () => receiver.killNow());
  const crm = await CrmProcess.start(crmAuth);
  cleanup.add('CRM (embedded half)', () => crm.stop());
  cleanup.addEmergency('CRM (embedded half)', () => crm.killNow());

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const unplanned: string[] = [];
  const service = new LeadstreamProcess({
    name: 'leadstream start',
    args: ['start'],
    env: { ...commonEnv(), DATA_DIR: dataDir, PORT: String(port) },
    logFile: join(ctx.workDir, 'leadstream-start.log'),
    onUnplannedExit: (who, code, signal) => {
      unplanned.push(`${who} (code ${code}, signal ${signal}) at +${report.elapsed().toFixed(1)}s`);
      report.log(`${who} exited by itself (code ${code}, signal ${signal}); restarting it as a supervisor would`);
    },
  });
  cleanup.add('leadstream start', () => service.close());
  cleanup.addEmergency('leadstream start', () => service.killNow());
  const started = Date.now();
  await service.start();
  report.figure(
    HALF,
    'leadstream start ready in',
    `${((Date.now() - started) / 1000).toFixed(1)} s; ${(freeBytes(dataDir) / 2 ** 20).toFixed(1)} MB of ${DISK_MB} MB free`,
  );

  const tenant = await setUpTenant(base, run, crm, crmAuth, receiver);
  const load = new LoadGenerator({
    base: () => base,
    key: tenant.key,
    run,
    clients: 4,
    maxSingles: 100_000,
    bulkEvery: 10,
    bulkSize: 25,
    ratePerSecond: 25,
    requestTimeoutMs: 20_000,
  });
  const acknowledged = load.acknowledged;
  const prober = new Prober({
    base: () => base,
    key: tenant.key,
    token: tenant.token,
    run,
    crm,
    receiver,
    acknowledged,
  });
  const baseline = await prober.recovery(Date.now(), 60_000);
  if (baseline.seconds === undefined)
    throw new Error(`the pipeline does not work before any fault: ${baseline.lastMissing}`);
  report.figure(
    HALF,
    'a lead end to end before any fault',
    `${baseline.seconds.toFixed(1)} s (acknowledged, stored, synced, CRM record, webhooks, activity)`,
  );

  load.start();
  const loadStarted = Date.now();
  await waitUntil(async () => acknowledged.size >= 150, 20_000, 200);

  // 1. SIGKILL mid-stream, restart on the same DATA_DIR.
  {
    const window = load.window();
    const since = Date.now();
    const startedAt = report.elapsed();
    report.log('fault: leadstream start SIGKILL, restart');
    const [down, recovery] = await Promise.all([
      (async () => {
        await service.kill();
        await service.start();
        return (Date.now() - since) / 1000;
      })(),
      prober.recovery(since, RECOVERY_BOUND_MS),
    ]);
    load.closeWindow(window);
    report.fault({
      half: HALF,
      name: 'leadstream start SIGKILL, restart',
      startedAt,
      downSeconds: down,
      recoveredAfter: recovery.seconds,
      answers: window.answers,
      ...(recovery.seconds === undefined ? { note: `the last probe: ${recovery.lastMissing}` } : {}),
    });
  }
  await sleep(2_000);

  // 2. The disk fills up under load, stays full, and is freed.
  const fullAnswers: Array<{ status: number; body: string }> = [];
  {
    const window = load.window();
    const since = Date.now();
    const startedAt = report.elapsed();
    const filled = fillDisk(dataDir);
    report.log(
      `fault: disk full (${(filled.bytes / 2 ** 20).toFixed(1)} MB written, ${freeBytes(dataDir)} bytes left)`,
    );
    // While it is full: what a lead gets (besides the load's own answers).
    const fullUntil = Date.now() + FULL_MS;
    const boundAt = Date.now() + FULL_BOUND_MS;
    let index = 0;
    while (
      Date.now() < boundAt &&
      (Date.now() < fullUntil || fullAnswers.filter((answer) => answer.status === 503).length < REFUSALS)
    ) {
      const submission = leadSubmission(`full${run}`, index++);
      try {
        const response = await fetch(`${base}/api/v1/leads/ingest`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(submission),
          signal: AbortSignal.timeout(10_000),
        });
        const body = await response.text();
        fullAnswers.push({ status: response.status, body });
        if (response.status === 201 || response.status === 202) {
          const leadId = (JSON.parse(body) as { lead_id?: unknown }).lead_id;
          if (typeof leadId === 'string') acknowledged.set(leadId, String(submission['email']));
        }
      } catch (error) {
        fullAnswers.push({ status: 0, body: error instanceof Error ? error.message : String(error) });
      }
      await sleep(300);
    }
    rmSync(filled.file, { force: true });
    const freedAt = Date.now();
    report.log(`disk freed after ${((freedAt - since) / 1000).toFixed(1)} s`);
    const recovery = await prober.recovery(since, RECOVERY_BOUND_MS);
    load.closeWindow(window);
    report.fault({
      half: HALF,
      name: `disk full (${FULL_MS / 1000} s or more, until ${REFUSALS} refusals), then freed`,
      startedAt,
      downSeconds: (freedAt - since) / 1000,
      recoveredAfter: recovery.seconds,
      answers: window.answers,
      ...(recovery.seconds === undefined ? { note: `the last probe: ${recovery.lastMissing}` } : {}),
    });
  }
  await sleep(2_000);
  await load.stop();
  report.figure(
    HALF,
    'load',
    `${load.singles} single requests and ${load.batches} batches (${load.leadsInBatches} leads) in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s; ${acknowledged.size} leads acknowledged (probes included)`,
  );

  // While the disk was full: every refusal a 503 in the vendor API's error format, the service up throughout.
  {
    const statuses: Record<string, number> = {};
    for (const answer of fullAnswers) statuses[String(answer.status)] = (statuses[String(answer.status)] ?? 0) + 1;
    const wrong = fullAnswers.filter((answer) => {
      if (answer.status === 201 || answer.status === 202) return false;
      if (answer.status !== 503) return true;
      try {
        const body = JSON.parse(answer.body) as Record<string, unknown>;
        return !(
          body['success'] === false &&
          typeof body['error'] === 'string' &&
          body['code'] === 'SERVICE_UNAVAILABLE'
        );
      } catch {
        return true;
      }
    });
    const refused = fullAnswers.filter((answer) => answer.status === 503).length;
    report.invariant(
      HALF,
      'while the disk is full the service refuses with 503 in the error format, and stays up',
      wrong.length === 0 && unplanned.length === 0 && refused > 0,
      `${fullAnswers.length} leads sent while full: ${Object.entries(statuses)
        .map(([status, count]) => `${count}x${status === '0' ? 'no answer' : status}`)
        .join(
          ' ',
        )}; other answers ${wrong.length}; exits on its own ${unplanned.length}${refused === 0 ? '; no 503 at all (the disk never refused a write?)' : ''}`,
      [
        ...wrong.map((answer) => `${answer.status} ${answer.body.slice(0, 300)}`),
        ...unplanned.map((exit) => `exited by itself: ${exit}`),
      ],
    );
  }

  // Drain: every acknowledged lead synced and announced, and the consumers' lag (as /metrics tells it) at zero.
  const drained = await waitUntil(
    async () => {
      const records = new Set((await crm.records()).records.map((record) => record.externalId));
      if (![...acknowledged.keys()].every((id) => records.has(id))) return false;
      const synced = new Set(
        (await receiver.received())
          .filter((delivery) => delivery.event === 'lead.crm_synced')
          .map((delivery) => delivery.leadId),
      );
      if (![...acknowledged.keys()].every((id) => synced.has(id))) return false;
      const metrics = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
      const lags = metrics.split('\n').filter((line) => line.startsWith('leadstream_consumer_lag{'));
      return lags.length > 0 && lags.every((line) => Number(line.slice(line.lastIndexOf(' ') + 1)) === 0);
    },
    DRAIN_BOUND_MS,
    1_000,
  );
  report.figure(
    HALF,
    'drained (every acknowledged lead synced and announced) after',
    drained === undefined ? `not within ${DRAIN_BOUND_MS / 1000} s` : `${(drained / 1000).toFixed(1)} s`,
  );
  const exit = await service.stopAndReport();
  report.figure(HALF, 'clean stop (SIGTERM) at the end', `exit code ${exit.code}, signal ${exit.signal}`);

  // Observations, read from the stopped service's files.
  const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  const { leads, activity } = await readStoredObservations(store, tenant.organizationId, report, HALF);
  await store.close();
  const db = new Database(join(dataDir, 'store', 'documents.sqlite'), { readonly: true, fileMustExist: true });
  let events: SeenEvent[];
  let deadLetters: Array<{ topic: string; count: number; examples: string[] }>;
  let lag: Array<{ group_id: string; topic: string; partition_id: number; lag: number }>;
  try {
    events = (
      db
        .prepare(
          `SELECT value FROM _leadstream_log_records WHERE topic = 'leads.events' ORDER BY partition_id, log_offset`,
        )
        .all() as Array<{ value: string }>
    ).flatMap((row) => seenEvents(row.value, tenant.organizationId));
    deadLetters = (
      db.prepare(`SELECT name AS topic FROM _leadstream_log_topics WHERE name LIKE '%.dlq'`).all() as Array<{
        topic: string;
      }>
    ).map(({ topic }) => {
      const rows = db.prepare(`SELECT key, value FROM _leadstream_log_records WHERE topic = ?`).all(topic) as Array<{
        key: string | null;
        value: string;
      }>;
      return {
        topic,
        count: rows.length,
        examples: rows.slice(0, 3).map((row) => `${row.key ?? ''} ${row.value.slice(0, 300)}`),
      };
    });
    lag = db
      .prepare(
        `SELECT c.group_id, c.topic, c.partition_id,
                (SELECT COALESCE(MAX(r.log_offset) + 1, 0) FROM _leadstream_log_records r WHERE r.topic = c.topic AND r.partition_id = c.partition_id) - c.next_offset AS lag
           FROM _leadstream_log_committed_offsets c`,
      )
      .all() as typeof lag;
  } finally {
    db.close();
  }
  const groups = new Set(lag.map((entry) => entry.group_id));
  const behind = lag.filter((entry) => entry.lag > 0);
  report.invariant(
    HALF,
    `every consumer group's lag returns to zero within ${DRAIN_BOUND_MS / 1000} s of the load's end`,
    drained !== undefined && behind.length === 0 && lag.length > 0,
    `${groups.size} groups (${lag.length} partitions) with committed positions; behind their partition's end after the clean stop: ${behind.length}`,
    behind.map((entry) => `${entry.group_id} ${entry.topic}/${entry.partition_id}: ${entry.lag}`),
  );

  checkInvariants(report, {
    half: HALF,
    load,
    acknowledged,
    leads,
    events,
    activity,
    deliveries: await receiver.received(),
    webhookEvents: WEBHOOK_EVENTS,
    crm: await crm.records(),
    deadLetters,
  });
  await unmount();
}
