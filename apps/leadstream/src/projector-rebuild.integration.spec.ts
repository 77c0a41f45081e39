/**
 * `leadstream projector --rebuild` (docs/analytics.md): after `leadstream start` projected real
 * leads, the rebuild replays leads.events into a fresh table and swaps it in. Projection is
 * idempotent: the rebuilt table holds exactly the rows the live projector wrote (and lead_status
 * the same current statuses), and a row the log never had (a stand-in for a projection bug) is
 * gone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyticsMigrations, openAnalytics } from '@leadstream/engine-clickhouse';
import { afterAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { jsonClient } from './test-support/json-client';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-rebuild-'));
const EMAILS = [
  'a.one@example.edu',
  'b.two@example.edu',
  'c.three@example.edu',
  'a.one@example.edu',
  'd.four@mailinator.com',
];
const env = serviceEnv({ DATA_DIR: dataDir });

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function snapshot(): Promise<unknown[]> {
  const analytics = await openAnalytics({ dataDir });
  try {
    await analytics.migrate(analyticsMigrations);
    const events = await analytics.query(
      'SELECT event_id, event, organization_id, environment, lead_id, vendor_id, toString(occurred_at) AS at, data, email_key FROM lead_events FINAL ORDER BY event_id',
    );
    const statuses = await analytics.query('SELECT lead_id, status, version FROM lead_status FINAL ORDER BY lead_id');
    return [...events, ...statuses.map((row) => ({ status: row }))];
  } finally {
    await analytics.close();
  }
}

describe('leadstream projector --rebuild', () => {
  it('rebuilds lead_events from the log: the same rows as the live projection, and nothing else', async () => {
    const { server, url } = await CliProcess.startService(env);
    try {
      const call = jsonClient(() => url);
      const token = String(
        (
          await call('POST', '/api/auth/register', {
            email: 'rebuild@example.edu',
            password: 'Rebuild-Passw0rd',
            first_name: 'Re',
            last_name: 'Build',
            organization_name: 'Rebuild College',
          })
        ).body['token'],
      );
      const vendor = String(
        (
          (await call('POST', '/api/vendors', { name: 'Rebuild Leads', type: 'inquiry' }, token)).body[
            'data'
          ] as Record<string, unknown>
        )['id'],
      );
      const key = String(
        (
          (await call('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }, token)).body['data'] as Record<
            string,
            unknown
          >
        )['key'],
      );
      for (const email of EMAILS)
        await call('POST', '/api/v1/leads/ingest', { email, first_name: 'Re', last_name: 'Play' }, key);
      // Wait until the projector has every submission (five lead.created rows).
      const deadline = Date.now() + 60_000;
      let submitted = 0;
      while (Date.now() < deadline && submitted < EMAILS.length) {
        submitted = Number(
          ((await call('GET', '/api/analytics', undefined, token)).body['data'] as { totals: { submitted: number } })
            .totals.submitted,
        );
        if (submitted < EMAILS.length) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(submitted).toBe(EMAILS.length);
    } finally {
      server.kill('SIGTERM');
      await server.exited;
    }

    const live = await snapshot();
    expect(live.length).toBeGreaterThanOrEqual(EMAILS.length * 2); // created plus validated, accepted, duplicate, rejected...
    // A row no event produced, as a projection bug would leave.
    const analytics = await openAnalytics({ dataDir });
    await analytics.insert('lead_events', [
      {
        event_id: 'evt_bogus',
        event: 'lead.created',
        organization_id: 'org_x',
        environment: 'live',
        lead_id: 'lead_x',
        vendor_id: '',
        occurred_at: '2025-01-01 00:00:00.000',
        data: '{}',
        email_key: '',
      },
    ]);
    await analytics.close();
    expect((await snapshot()).length).toBe(live.length + 2); // the event, and the status it set

    const rebuild = CliProcess.start(['projector', '--rebuild'], env);
    const exit = await rebuild.exited;
    expect(exit.code, rebuild.errorOutput).toBe(0);
    expect(await snapshot()).toEqual(live);
  });
});
