/**
 * The analytics contract on chDB, in-process, each test on a fresh temporary data directory; then
 * what only an embedded engine must prove: its data survives a close and a reopen.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { analyticsContract } from '@leadstream/ports/contract/analytics.contract';
import type { Analytics } from '@leadstream/ports';
import { AnalyticsBatcher } from './analytics-batcher';
import { openAnalytics } from './clickhouse-analytics';
import { analyticsMigrations, LEAD_EVENTS_TABLE } from './migrations';

function tempDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'leadstream-chdb-'));
}

analyticsContract('chdb', async () => {
  const dataDir = tempDataDir();
  const analytics = await openAnalytics({ dataDir });
  return {
    analytics,
    createBatcher: (a, options) => new AnalyticsBatcher(a, options),
    dispose: async () => {
      await analytics.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});

describe('chdb analytics on disk', () => {
  const dirs: string[] = [];
  const open: Analytics[] = [];

  async function openOn(dataDir: string): Promise<Analytics> {
    const analytics = await openAnalytics({ dataDir });
    open.push(analytics);
    return analytics;
  }

  afterEach(async () => {
    for (const analytics of open.splice(0)) await analytics.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reports chdb as its engine and keeps its files in dataDir/analytics', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const analytics = await openOn(dataDir);
    expect(analytics.engine).toBe('chdb');
    await analytics.migrate(analyticsMigrations);
    await analytics.close();
    expect(readdirSync(join(dataDir, 'analytics'))).toContain('metadata');
  });

  it('keeps dataDir/analytics private (0700), also when an earlier version made it readable', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    mkdirSync(join(dataDir, 'analytics'));
    chmodSync(join(dataDir, 'analytics'), 0o755);
    await openOn(dataDir);
    expect((statSync(join(dataDir, 'analytics')).mode & 0o777).toString(8)).toBe('700');
  });

  it('keeps rows and applied migrations across a close and a reopen on the same directory', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const event = {
      event_id: 'evt_1',
      event: 'lead.created',
      organization_id: 'org_1',
      environment: 'live',
      lead_id: 'lead_1',
      vendor_id: 'vendor_1',
      occurred_at: '2024-05-01T12:00:00.000Z',
      data: '{"source":"web"}',
    };

    const first = await openOn(dataDir);
    expect(await first.migrate(analyticsMigrations)).toEqual(analyticsMigrations.map((migration) => migration.version));
    await first.insert(LEAD_EVENTS_TABLE, [event, { ...event, event_id: 'evt_2' }]);
    await first.close();

    const second = await openOn(dataDir);
    expect(await second.migrate(analyticsMigrations)).toEqual([]);
    expect(await second.query('SELECT event_id, occurred_at, data FROM lead_events ORDER BY event_id')).toEqual([
      { event_id: 'evt_1', occurred_at: '2024-05-01 12:00:00.000', data: '{"source":"web"}' },
      { event_id: 'evt_2', occurred_at: '2024-05-01 12:00:00.000', data: '{"source":"web"}' },
    ]);
  });

  it('collapses a redelivered event in lead_events', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const analytics = await openOn(dataDir);
    await analytics.migrate(analyticsMigrations);
    const event = {
      event_id: 'evt_1',
      event: 'lead.created',
      organization_id: 'org_1',
      environment: 'live',
      lead_id: 'lead_1',
      vendor_id: 'vendor_1',
      occurred_at: '2024-05-01T12:00:00.000Z',
      data: '{}',
    };
    // Two deliveries of one event, in two inserts (two parts), plus a different event.
    await analytics.insert(LEAD_EVENTS_TABLE, [event]);
    await analytics.insert(LEAD_EVENTS_TABLE, [event, { ...event, event_id: 'evt_2' }]);

    expect(await analytics.query('SELECT count() AS n FROM lead_events')).toEqual([{ n: 3 }]); // before a merge
    expect(await analytics.query('SELECT count() AS n FROM lead_events FINAL')).toEqual([{ n: 2 }]);
    await analytics.command('OPTIMIZE TABLE lead_events FINAL');
    expect(await analytics.query('SELECT count() AS n FROM lead_events')).toEqual([{ n: 2 }]);
  });

  it('lets one process at a time open a data directory, and the next one sees its rows', async () => {
    const dataDir = tempDataDir();
    dirs.push(dataDir);
    const analytics = await openOn(dataDir);
    await analytics.migrate(analyticsMigrations);
    await analytics.insert(LEAD_EVENTS_TABLE, [{ event_id: 'evt_1', occurred_at: '2024-05-01T12:00:00.000Z' }]);

    // chDB locks the directory (its `status` file), as a ClickHouse server does.
    const whileOpen = await countInAnotherProcess(dataDir);
    expect(whileOpen).toMatchObject({ ok: false });
    expect(whileOpen.message).toMatch(/another process may be using this data directory/);

    await analytics.close();
    expect(await countInAnotherProcess(dataDir)).toEqual({ ok: true, n: 1 });
  });
});

const execFileAsync = promisify(execFile);
const MODULE = fileURLToPath(new URL('./clickhouse-analytics.ts', import.meta.url));

/** Opens dataDir in a child process (tsx) and counts lead_events there. */
async function countInAnotherProcess(dataDir: string): Promise<{ ok: boolean; n?: number; message?: string }> {
  const script = `
    import { openAnalytics } from ${JSON.stringify(MODULE)};
    try {
      const analytics = await openAnalytics({ dataDir: ${JSON.stringify(dataDir)} });
      const [row] = await analytics.query('SELECT count() AS n FROM lead_events');
      await analytics.close();
      console.log(JSON.stringify({ ok: true, n: row.n }));
    } catch (error) {
      console.log(JSON.stringify({ ok: false, message: error.message }));
    }`;
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  const lastLine = stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(lastLine) as { ok: boolean; n?: number; message?: string };
}
