/**
 * The distributed half: private Kafka, FerretDB on PostgreSQL and the ClickHouse stand-in, and
 * leadstream split into its roles as README "Scaling workers" runs them: one api process, a worker
 * for the intake chain, one for crm-sync, notify and deliver, one for activity (with rule-webhook,
 * recalculate and export), and a projector. While the load runs, each fault in turn, each with a
 * probe lead that must have every effect again before the next (docs/chaos.md):
 *
 * - the Kafka broker, PostgreSQL (under FerretDB) and the ClickHouse front SIGKILLed, away a few
 *   seconds, started again on their data;
 * - the api process and each worker process SIGKILLed and started again (so every stage group
 *   loses a worker once);
 * - the webhook receiver paused (SIGSTOP) past the delivery timeout, then continued.
 *
 * Then the load stops, every consumer group's lag must reach zero within a bound, and the
 * invariants are checked over the stores, the topics and what the loopback ends recorded.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openMongoStore } from '@leadstream/engine-mongo';
import type { Cleanup } from './lib/cleanup';
import { crashServer, privateInfraDown, privateInfraUp, type PrivateInfraOptions, type ServerName } from './lib/infra';
import { checkInvariants, readStoredObservations, seenEvents, type SeenEvent } from './lib/invariants';
import { KafkaInspector } from './lib/kafka-inspect';
import { FerretdbLiveness } from './lib/liveness';
import { LoadGenerator } from './lib/load';
import { Prober } from './lib/probe';
import { CrmProcess, WebhookReceiverProcess } from './lib/receivers';
import type { Report } from './lib/report';
import { LeadstreamProcess } from './lib/roles';
import { setUpTenant, WEBHOOK_EVENTS } from './lib/tenant';
import { commonEnv, freePort, sleep, waitUntil } from './lib/util';

export const DISTRIBUTED =
  'distributed half (Kafka + FerretDB on PostgreSQL + ClickHouse stand-in, roles as separate processes)';
const HALF = DISTRIBUTED;

export interface HalfContext {
  report: Report;
  cleanup: Cleanup;
  /** Where logs and data of the run go. */
  workDir: string;
  /** When this half must have finished (epoch ms): faults left when it is near are skipped, and the run fails. */
  deadline: number;
  infra: PrivateInfraOptions;
  /** Only these faults (their keys: kafka, postgres, clickhouse, api, intake, outbound, activity, projector, receiver); all when absent. */
  faults?: string[];
}

/** How long a fault may take to recover before the run fails. */
const RECOVERY_BOUND_MS = 75_000;
/** How long every consumer group may take to reach zero lag once the load stops. */
const LAG_BOUND_MS = 60_000;
/** How long each crashed server stays away. */
const SERVER_DOWN_MS = 3_000;
/** How long the webhook receiver stays paused: past WEBHOOK_TIMEOUT_MS (2 s), and past a first retry's. */
const RECEIVER_PAUSE_MS = 8_000;

/**
 * The worker processes, grouped as README "Scaling workers" runs them: each stage group (consumer
 * group) lives in exactly one of them, so one SIGKILL of each process kills a worker of every
 * stage group once.
 */
const WORKERS: Array<{ name: string; args: string[] }> = [
  { name: 'worker intake chain (validate+dedup+enrich+route)', args: ['worker', '--stages', 'validate'] },
  { name: 'worker crm-sync,notify,deliver', args: ['worker', '--stages', 'crm-sync,notify,deliver'] },
  {
    name: 'worker activity,rule-webhook,recalculate,export',
    args: ['worker', '--stages', 'activity,rule-webhook,recalculate,export'],
  },
  { name: 'projector', args: ['projector'] },
];

export async function runDistributed(ctx: HalfContext): Promise<void> {
  const { report, cleanup } = ctx;
  const run = randomUUID().slice(0, 8);
  const logDir = join(ctx.workDir, 'logs-distributed');
  mkdirSync(logDir, { recursive: true });
  report.log(`${HALF}: logs in ${logDir}`);

  report.log(
    `starting private servers in ${ctx.infra.runDir} (Kafka 127.0.0.1:${ctx.infra.kafkaPort}, FerretDB :${ctx.infra.ferretdbPort}, PostgreSQL :${ctx.infra.postgresPort}, ClickHouse stand-in :${ctx.infra.clickhousePort})`,
  );
  const infraStarted = Date.now();
  const stopInfra = cleanup.add('private servers (infra/down.sh)', () => privateInfraDown(ctx.infra));
  const infra = await privateInfraUp(ctx.infra);
  report.figure(HALF, 'private servers up in', `${((Date.now() - infraStarted) / 1000).toFixed(1)} s`);
  const liveness = new FerretdbLiveness(ctx.infra.runDir, infra.MONGODB_URI, (reason) =>
    report.log(`liveness check: ${reason}; FerretDB restarted`),
  );
  liveness.start();
  cleanup.add('FerretDB liveness check', () => liveness.stop());

  const crmAuth = `Bearer chaos-crm-${run}`;
  const receiver = await WebhookReceiverProcess.start();
  cleanup.add('webhook receiver', () => receiver.stop());
  cleanup.addEmergency('webhook receiver', () => receiver.killNow());
  const crm = await CrmProcess.start(crmAuth);
  cleanup.add('CRM', () => crm.stop());
  cleanup.addEmergency('CRM', () => crm.killNow());

  const apiPort = await freePort();
  const base = `http://127.0.0.1:${apiPort}`;
  const shared = { ...commonEnv(), ...infra, MONGODB_DB: `chaos_${run}`, TOPIC_PARTITIONS: '2' };
  const unplanned: string[] = [];
  const role = (name: string, args: string[], extra: Record<string, string> = {}): LeadstreamProcess => {
    const dataDir = join(ctx.workDir, `data-${name.replace(/[^a-z0-9]+/gi, '-')}`);
    mkdirSync(dataDir, { recursive: true });
    const proc = new LeadstreamProcess({
      name,
      args,
      env: { ...shared, DATA_DIR: dataDir, ...extra },
      logFile: join(logDir, `${name.replace(/[^a-z0-9]+/gi, '-')}.log`),
      onUnplannedExit: (who, code, signal) => {
        unplanned.push(`${who} (code ${code}, signal ${signal}) at +${report.elapsed().toFixed(1)}s`);
        report.log(`${who} exited by itself (code ${code}, signal ${signal}); restarting it as a supervisor would`);
      },
    });
    cleanup.add(name, () => proc.close());
    cleanup.addEmergency(name, () => proc.killNow());
    return proc;
  };

  const started = Date.now();
  // The api first: it creates the indexes, the analytics tables and the topics the others use
  // (processes that create the same indexes at the same moment can fail to start on FerretDB: its
  // upserts are not atomic, and the TTL index record's upsert then meets a duplicate key).
  const api = role('api', ['api'], { PORT: String(apiPort) });
  await api.start();
  const workers = WORKERS.map(({ name, args }) => role(name, args));
  await Promise.all(workers.map((worker) => worker.start()));
  report.figure(
    HALF,
    'leadstream processes ready in',
    `${((Date.now() - started) / 1000).toFixed(1)} s (1 api, ${workers.length - 1} workers, 1 projector)`,
  );

  const tenant = await setUpTenant(base, run, crm, crmAuth, receiver);
  report.log(
    `organization ${tenant.organizationId}: CRM connection ${tenant.connectionId}, routing rule ${tenant.routingRuleId}, webhook ${tenant.webhookId}`,
  );

  // 3 requests a second, one in 10 of the first client's a batch of 20: a few hundred single leads
  // and a few batches in a run, which the pipeline on FerretDB catches up with after each fault on
  // this 2-core machine (at twice that, the backlog after the Kafka fault made every later recovery slower).
  const load = new LoadGenerator({
    base: () => base,
    key: tenant.key,
    run,
    clients: 4,
    maxSingles: 100_000,
    bulkEvery: 10,
    bulkSize: 20,
    ratePerSecond: 3,
    requestTimeoutMs: 20_000,
  });
  const acknowledged = load.acknowledged;
  const projected = async (leadId: string): Promise<string | undefined> => {
    const rows = await clickhouse(
      infra.CLICKHOUSE_URL,
      `SELECT count() FROM lead_events WHERE lead_id = {lead:String} AND event = 'lead.crm_synced'`,
      { lead: leadId },
    );
    return rows.trim() === '0' ? 'not projected to ClickHouse yet' : undefined;
  };
  const prober = new Prober({
    base: () => base,
    key: tenant.key,
    token: tenant.token,
    run,
    crm,
    receiver,
    acknowledged,
    extra: projected,
  });

  const baseline = await prober.recovery(Date.now(), 60_000);
  if (baseline.seconds === undefined)
    throw new Error(`the pipeline does not work before any fault: ${baseline.lastMissing}`);
  report.figure(
    HALF,
    'a lead end to end before any fault',
    `${baseline.seconds.toFixed(1)} s (acknowledged, stored, synced, CRM record, webhooks, activity, projected)`,
  );

  load.start();
  const loadStarted = Date.now();
  await sleep(2_000);

  const fault = async (name: string, inject: () => Promise<number>): Promise<void> => {
    if (Date.now() > ctx.deadline - 25_000) {
      report.fail(HALF, `"${name}" skipped: the run's time is nearly used up`);
      return;
    }
    const window = load.window();
    const since = Date.now();
    const startedAt = report.elapsed();
    const restartsBefore = liveness.restarts.length;
    report.log(`fault: ${name}`);
    const [down, recovery] = await Promise.all([inject(), prober.recovery(since, RECOVERY_BOUND_MS)]);
    load.closeWindow(window);
    const notes = [
      ...liveness.restarts
        .slice(restartsBefore)
        .map(
          (restart) =>
            `FerretDB hung and was restarted by the liveness check ${((restart.at - since) / 1000).toFixed(1)} s in`,
        ),
      ...(recovery.seconds === undefined ? [`the last probe: ${recovery.lastMissing}`] : []),
    ];
    report.fault({
      half: HALF,
      name,
      startedAt,
      downSeconds: down,
      recoveredAfter: recovery.seconds,
      answers: window.answers,
      ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    });
    await sleep(500);
  };

  const crashAndRestart = (server: ServerName) => async (): Promise<number> => {
    const crashed = await crashServer(ctx.infra.runDir, server);
    await sleep(SERVER_DOWN_MS);
    crashed.restart();
    return (Date.now() - crashed.killedAt) / 1000;
  };
  const killAndRestart = (proc: LeadstreamProcess) => async (): Promise<number> => {
    const killedAt = Date.now();
    await proc.kill();
    await proc.start();
    return (Date.now() - killedAt) / 1000;
  };

  const [intake, outbound, activityWorker, projector] = workers as [
    LeadstreamProcess,
    LeadstreamProcess,
    LeadstreamProcess,
    LeadstreamProcess,
  ];
  const faults: Array<{ key: string; name: string; inject: () => Promise<number> }> = [
    {
      key: 'kafka',
      name: `Kafka broker SIGKILL, restart after ${SERVER_DOWN_MS / 1000} s`,
      inject: crashAndRestart('kafka'),
    },
    {
      key: 'postgres',
      name: `PostgreSQL under FerretDB SIGKILL, restart after ${SERVER_DOWN_MS / 1000} s`,
      inject: crashAndRestart('postgres'),
    },
    {
      key: 'clickhouse',
      name: `ClickHouse front SIGKILL, restart after ${SERVER_DOWN_MS / 1000} s`,
      inject: crashAndRestart('clickhouse'),
    },
    { key: 'api', name: 'api process SIGKILL, restart', inject: killAndRestart(api) },
    { key: 'intake', name: `${intake.name} SIGKILL, restart`, inject: killAndRestart(intake) },
    { key: 'outbound', name: `${outbound.name} SIGKILL, restart`, inject: killAndRestart(outbound) },
    { key: 'activity', name: `${activityWorker.name} SIGKILL, restart`, inject: killAndRestart(activityWorker) },
    { key: 'projector', name: `${projector.name} SIGKILL, restart`, inject: killAndRestart(projector) },
    {
      key: 'receiver',
      name: `webhook receiver SIGSTOP for ${RECEIVER_PAUSE_MS / 1000} s (delivery timeout 2 s)`,
      inject: async () => {
        const pausedAt = Date.now();
        receiver.pause();
        await sleep(RECEIVER_PAUSE_MS);
        receiver.resume();
        return (Date.now() - pausedAt) / 1000;
      },
    },
  ];
  for (const { key, name, inject } of faults) {
    if (ctx.faults && !ctx.faults.includes(key)) continue;
    await fault(name, inject);
  }

  await load.stop();
  const loadSeconds = (Date.now() - loadStarted) / 1000;
  report.figure(
    HALF,
    'load',
    `${load.singles} single requests and ${load.batches} batches (${load.leadsInBatches} leads) in ${loadSeconds.toFixed(0)} s; ${acknowledged.size} leads acknowledged (probes included)`,
  );
  if (unplanned.length > 0)
    report.figure(HALF, 'exits a supervisor restarted', `${unplanned.length}: ${unplanned.join('; ')}`);
  report.figure(
    HALF,
    'FerretDB restarts by the liveness check',
    `${liveness.restarts.length}${liveness.restarts.length > 0 ? ' (FerretDB 1.24 hangs after its PostgreSQL is killed under load; docs/chaos.md)' : ''}`,
  );

  // Drain: every group that commits must reach zero lag.
  const kafka = new KafkaInspector(infra.KAFKA_BROKERS);
  cleanup.add('kafka inspector', () => kafka.close());
  let lastLag: Array<{ group: string; topic: string; partition: number; lag: number }> = [];
  const drainedAfter = await waitUntil(
    async () => {
      lastLag = await kafka.lag();
      return lastLag.length > 0 && lastLag.every((entry) => entry.lag === 0);
    },
    LAG_BOUND_MS,
    1_000,
  );
  const groups = new Set(lastLag.map((entry) => entry.group));
  report.invariant(
    HALF,
    `every consumer group's lag returns to zero within ${LAG_BOUND_MS / 1000} s of the load's end`,
    drainedAfter !== undefined,
    drainedAfter !== undefined
      ? `${groups.size} groups (${lastLag.length} partitions) at zero after ${(drainedAfter / 1000).toFixed(1)} s`
      : `still lagging: ${lastLag.filter((entry) => entry.lag > 0).length} partitions`,
    lastLag
      .filter((entry) => entry.lag > 0)
      .map((entry) => `${entry.group} ${entry.topic}/${entry.partition}: ${entry.lag}`),
  );
  // Deliveries and syncs still waiting on a retry topic are lag too; once it is zero, give in-flight calls a moment.
  await sleep(1_000);

  // Observations.
  const store = await openMongoStore({ uri: infra.MONGODB_URI, dbName: `chaos_${run}` });
  cleanup.add('store client', () => store.close());
  const { leads, activity } = await readStoredObservations(store, tenant.organizationId, report, HALF);
  await store.close();
  const deadLetterCounts = await kafka.deadLetterCounts();
  const nonEmpty = [...deadLetterCounts].filter(([, count]) => count > 0).map(([topic]) => topic);
  const records = await kafka.read(['leads.events', ...nonEmpty]);
  const events: SeenEvent[] = records
    .filter((record) => record.topic === 'leads.events')
    .flatMap((record) => seenEvents(record.value, tenant.organizationId));
  const deadLetters = [...deadLetterCounts].map(([topic, count]) => ({
    topic,
    count,
    examples: records
      .filter((record) => record.topic === topic)
      .slice(0, 3)
      .map((record) => `${record.key ?? ''} ${record.value.slice(0, 300)}`),
  }));
  await kafka.close();

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

  // The analytics engine went down and came back: every event is projected, once (uniqExact, as the reports count).
  const projectedIds = new Set(
    (
      await clickhouse(
        infra.CLICKHOUSE_URL,
        `SELECT DISTINCT event_id FROM lead_events WHERE organization_id = {org:String}`,
        { org: tenant.organizationId },
      )
    )
      .split('\n')
      .filter(Boolean),
  );
  const eventIds = new Set(events.map((event) => event.id));
  const unprojected = [...eventIds].filter((id) => !projectedIds.has(id));
  const strange = [...projectedIds].filter((id) => !eventIds.has(id));
  report.invariant(
    HALF,
    'every event projected to the analytics engine',
    unprojected.length + strange.length === 0,
    `${eventIds.size} events, ${projectedIds.size} distinct events in lead_events; not projected ${unprojected.length}, projected but not on leads.events ${strange.length}`,
    [...unprojected.map((id) => `${id} not projected`), ...strange.map((id) => `${id} projected, not on leads.events`)],
  );

  // A clean stop of every process still works after all that.
  const exits = await Promise.all(
    [api, ...workers].map(async (proc) => ({ name: proc.name, exit: await proc.stopAndReport() })),
  );
  const unclean = exits.filter(({ exit }) => exit.code !== 0);
  report.figure(
    HALF,
    'clean stops (SIGTERM) at the end',
    `${exits.length - unclean.length} of ${exits.length} exited 0${unclean.length > 0 ? `; ${unclean.map(({ name, exit }) => `${name}: code ${exit.code}, signal ${exit.signal}`).join(', ')}` : ''}`,
  );
  liveness.stop();
  await stopInfra();
}

/** One query to the ClickHouse HTTP interface, with `{name:Type}` parameters; the TSV answer. */
async function clickhouse(url: string, sql: string, params: Record<string, string>): Promise<string> {
  const query = new URLSearchParams(
    Object.fromEntries(Object.entries(params).map(([name, value]) => [`param_${name}`, value])),
  );
  const response = await fetch(`${url}/?${query.toString()}`, {
    method: 'POST',
    body: sql,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse answered ${response.status}: ${text.slice(0, 300)}`);
  return text;
}
