/**
 * The funnel reports over 10 M projected events on chDB (the embedded engine), and the projector's
 * throughput against raw inserts of the same rows (docs/performance.md, "Funnel reports at 10 M
 * events").
 *
 *   npx tsx bench/funnel.ts [--events 10000000] [--runs 30] [--projection-rows 200000]
 *
 * Data: `--events` rows of `lead_events` written by one INSERT ... SELECT FROM numbers(): ten
 * organizations, each submission three events (lead.created, lead.validated, lead.accepted) spread
 * over 90 days; per organization five inquiry vendors and two application vendors, a fifth of the
 * submissions applications by a person who inquired between minutes and 13 hours before. Timed:
 * each of the five funnel reports (FunnelReports, the code behind the routes) for one organization
 * over the last 30 days, `--runs` times after one warm-up; p50 and p99. Twice: as inserted (a dozen
 * parts, which FINAL must merge at query time) and after `OPTIMIZE TABLE ... FINAL` (the steady
 * state ClickHouse's background merges reach). Target: overview p99 <= 0.1 s.
 *
 * Projection: `--projection-rows` events as the log carries them (JSON text) parsed, checked and
 * mapped by the projector's own code and inserted in batches of 1,000, against inserting the
 * already-mapped rows in the same batches. Target: projection >= 0.5 x raw rows per second.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseFunnelPeriod } from '@leadstream/domain';
import { analyticsMigrations, openAnalytics } from '@leadstream/engine-clickhouse';
import { toLeadEventRow } from '@leadstream/projector';
import { parseLeadEvent, type LeadEventMessage } from '@leadstream/schemas';
import { FunnelQueries } from '../apps/api/src/funnel/funnel.queries';
import { FunnelReports, type NamedFunnelScope } from '../apps/api/src/funnel/funnel.reports';
import { option, percentile } from './support/service';

const EVENTS = option('events', 10_000_000);
const RUNS = option('runs', 30);
const PROJECTION_ROWS = option('projection-rows', 200_000);
const ORGS = 10;
const BATCH = 1_000;
const DAY_MS = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'leadstream-bench-funnel-'));
const analytics = await openAnalytics({ dataDir: dir });
const now = new Date();

async function seed(): Promise<number> {
  const startMs = now.getTime() - 90 * DAY_MS;
  const perOrg = Math.ceil(EVENTS / ORGS);
  const leadsPerOrg = Math.ceil(perOrg / 3);
  const stepMs = Math.max(1, Math.floor((90 * DAY_MS) / leadsPerOrg));
  const started = performance.now();
  // n -> organization n % 10, event k % 3 of lead L = k / 3 (k = n / 10). Leads with L % 10 >= 8 are
  // applications by the person of inquiry L - 8 - 10 * (L % 200), minutes to hours earlier.
  await analytics.command(`
    INSERT INTO lead_events (event_id, event, organization_id, environment, lead_id, vendor_id, occurred_at, data, email_key)
    SELECT
      concat('evt_', toString(n)) AS event_id,
      ['lead.created', 'lead.validated', 'lead.accepted'][(k % 3) + 1] AS event,
      concat('org_bench_', toString(n % ${ORGS})) AS organization_id,
      'live' AS environment,
      concat('lead_', toString(n % ${ORGS}), '_', toString(L)) AS lead_id,
      if(L % 10 >= 8, concat('app_', toString(5 + L % 2)), concat('inq_', toString(L % 5))) AS vendor_id,
      fromUnixTimestamp64Milli(toInt64(${startMs} + L * ${stepMs} + (k % 3) * 1000), 'UTC') AS occurred_at,
      concat('{"lead":{"id":"', lead_id, '","email":"', email, '","vendor_id":"', vendor_id, '"}}') AS data,
      if(k % 3 = 0, email, '') AS email_key
    FROM (
      SELECT number AS n, intDiv(number, ${ORGS}) AS k, intDiv(k, 3) AS L,
        concat('p', toString(if(L % 10 >= 8, greatest(0, toInt64(L) - 8 - 10 * (L % 200)), L)), '@x.edu') AS email
      FROM numbers(${EVENTS})
    )`);
  return (performance.now() - started) / 1000;
}

function scope(organizationId: string): NamedFunnelScope {
  const inquiry = [0, 1, 2, 3, 4].map((i) => `inq_${i}`);
  const application = ['app_5', 'app_6'];
  return {
    organizationId,
    environment: 'live',
    inquiryVendorIds: inquiry,
    applicationVendorIds: application,
    links: inquiry.flatMap((inquiryVendorId) =>
      application.map((applicationVendorId) => ({ inquiryVendorId, applicationVendorId, timeWindowHours: 24 })),
    ),
    vendorNames: new Map([...inquiry, ...application].map((id) => [id, id])),
  };
}

async function timeReports(): Promise<Array<{ report: string; p50: number; p99: number }>> {
  const reports = new FunnelReports(new FunnelQueries(analytics));
  const parsed = parseFunnelPeriod({}, now);
  if (!parsed.ok) throw new Error('period');
  const period = parsed.value;
  const target = scope('org_bench_0');
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['overview', () => reports.overview(target, period)],
    ['time-to-convert', () => reports.timeToConvert(target, period)],
    ['drop-offs', () => reports.dropOffs(target, period, 24, now)],
    ['by-vendor', () => reports.byVendor(target, period)],
    ['daily', () => reports.daily(target, period)],
  ];
  const results: Array<{ report: string; p50: number; p99: number }> = [];
  for (const [report, run] of cases) {
    await run(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await run();
      times.push((performance.now() - started) / 1000);
    }
    times.sort((a, b) => a - b);
    results.push({ report, p50: percentile(times, 50), p99: percentile(times, 99) });
  }
  const overview = await reports.overview(target, period);
  console.log(`overview of org_bench_0, last 30 days: ${JSON.stringify(overview)}`);
  return results;
}

async function projectionRatio(): Promise<{ raw: number; projected: number }> {
  const messages: string[] = [];
  for (let i = 0; i < PROJECTION_ROWS; i++) {
    const message: LeadEventMessage = {
      schema_version: 1,
      id: `evt_p_${i}`,
      event: 'lead.created',
      timestamp: new Date(now.getTime() - i * 1000).toISOString(),
      organization_id: 'org_projection',
      environment: 'live',
      data: {
        lead: {
          id: `lead_p_${i}`,
          email: `Person.${i}@Example.edu`,
          first_name: 'Pat',
          last_name: 'Ient',
          vendor_id: 'inq_0',
          source: 'web',
          utm_source: 'google',
          custom_fields: { gpa: 3.5 },
        },
      },
    };
    messages.push(JSON.stringify(message));
  }
  const rows = messages.map((text) => ({ ...toLeadEventRow(parseLeadEvent(JSON.parse(text))) }));
  await analytics.command('CREATE TABLE IF NOT EXISTS raw_events AS lead_events');
  await analytics.command('CREATE TABLE IF NOT EXISTS projected_events AS lead_events');
  let started = performance.now();
  for (let i = 0; i < rows.length; i += BATCH) await analytics.insert('raw_events', rows.slice(i, i + BATCH));
  const rawSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  for (let i = 0; i < messages.length; i += BATCH) {
    const batch = messages.slice(i, i + BATCH).map((text) => ({ ...toLeadEventRow(parseLeadEvent(JSON.parse(text))) }));
    await analytics.insert('projected_events', batch);
  }
  const projectedSeconds = (performance.now() - started) / 1000;
  return { raw: PROJECTION_ROWS / rawSeconds, projected: PROJECTION_ROWS / projectedSeconds };
}

try {
  await analytics.migrate(analyticsMigrations);
  const seconds = await seed();
  const [counted] = await analytics.query<{ rows: number }>('SELECT count() AS rows FROM lead_events');
  console.log(`seeded ${counted?.rows} events in ${seconds.toFixed(1)} s`);
  for (const state of ['as inserted', 'after merges']) {
    if (state === 'after merges') await analytics.command('OPTIMIZE TABLE lead_events FINAL');
    const [parts] = await analytics.query<{ parts: number }>(
      `SELECT count() AS parts FROM system.parts WHERE table = 'lead_events' AND active`,
    );
    const results = await timeReports();
    console.log(`\n${state} (${parts?.parts} parts)          p50 (s)   p99 (s)`);
    for (const { report, p50, p99 } of results)
      console.log(`${report.padEnd(28)} ${p50.toFixed(4).padStart(8)}  ${p99.toFixed(4).padStart(8)}`);
    const overview = results.find((result) => result.report === 'overview')!;
    console.log(
      `overview p99 ${overview.p99.toFixed(4)} s ${state}: ${overview.p99 <= 0.1 ? 'meets' : 'MISSES'} the 0.1 s target`,
    );
  }
  const projection = await projectionRatio();
  const ratio = projection.projected / projection.raw;
  console.log(
    `projection ${Math.round(projection.projected)} rows/s vs raw inserts ${Math.round(projection.raw)} rows/s: ${ratio.toFixed(2)}x (target >= 0.5x: ${ratio >= 0.5 ? 'meets' : 'MISSES'})`,
  );
} finally {
  await analytics.close();
  rmSync(dir, { recursive: true, force: true });
}
