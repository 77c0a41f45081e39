/**
 * The lead page's stage waterfall (docs/timeline.md), in Chromium against `leadstream start`: a
 * lead routed to a CRM on loopback and synced shows one row per stage in order, each with its
 * outcome in words, its duration, and a bar placed on the time axis inside the track.
 *
 * Needs /usr/bin/chromium (see console.browser.integration.spec.ts); skipped without it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, screenshotTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`console-timeline.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'waterfall@timeline.edu',
  password: 'Waterfall-Passw0rd',
  first_name: 'Wanda',
  last_name: 'Fall',
  organization_name: 'Waterfall College',
};

describe.skipIf(!chromiumAvailable)("the lead page's stage waterfall, in Chromium against leadstream start", () => {
  const session = new ConsoleSession('timeline', OWNER);
  const { call, consoleErrors, outside } = session;
  let crm: Server | undefined;
  let crmUrl = '';
  let base = '';
  let page: Page;
  let token = '';
  const api = async (method: string, path: string, body?: unknown, key = token): Promise<Record<string, unknown>> => {
    const answer = await call(method, path, body, key);
    expect([200, 201], `${method} ${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    return answer.body;
  };

  beforeAll(async () => {
    // A CRM on loopback that takes every lead and answers a record id.
    crm = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"rec_1"}'));
    });
    await new Promise<void>((resolve) => crm!.listen(0, '127.0.0.1', resolve));
    crmUrl = `http://127.0.0.1:${(crm.address() as AddressInfo).port}`;
    ({ base, token } = await session.start({ RATE_LIMIT_SCALE: '10', WEBHOOK_ALLOW_INSECURE_TARGETS: 'true' }));
    page = await session.openPage();
  }, 240_000);

  afterAll(async () => {
    await session.close();
    await new Promise((resolve) => crm?.close(resolve));
  });

  it('shows one row per stage in order, with the outcome in words, the duration and a bar on the time axis', async () => {
    const data = (body: Record<string, unknown>) => body['data'] as Record<string, unknown>;
    const vendor = String(data(await api('POST', '/api/vendors', { name: 'Fair Leads', type: 'inquiry' }))['id']);
    const key = String(data(await api('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }))['key']);
    await api('POST', '/api/crm/connections', {
      name: 'Admissions CRM',
      type: 'webhook_json',
      settings: { url: `${crmUrl}/admissions` },
      credentials: {},
    });
    const ingested = await api(
      'POST',
      '/api/v1/leads/ingest',
      { email: 'grace.waterfall@example.edu', first_name: 'Grace', last_name: 'Hopper' },
      key,
    );
    const leadId = String(ingested['lead_id']);
    // Synced before the page is opened, so every row is there at once.
    for (const deadline = Date.now() + 60_000; ;) {
      const stages = (
        data(await api('GET', `/api/leads/${leadId}/timeline`)) as unknown as Array<{ stage: string }>
      ).map((entry) => entry.stage);
      if (stages.includes('crm_synced')) break;
      if (Date.now() > deadline) throw new Error(`the lead was not synced: ${stages.join()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    await page.goto(`${base}/app/leads/${leadId}`);
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor({ timeout: 30_000 });
    const waterfall = page.getByRole('list', { name: 'Stage timeline' });
    await waterfall.getByText('Synced to the CRM').waitFor();
    const rows = waterfall.getByRole('listitem');
    const cells = (
      await rows.evaluateAll((items) =>
        items.map((item) => ({
          stage: item.querySelector('.waterfall-stage')?.textContent ?? '',
          outcome: item.querySelector('.waterfall-outcome')?.textContent ?? '',
          duration: item.querySelector('.waterfall-duration')?.textContent ?? '',
          style: item.querySelector('.waterfall-bar')?.getAttribute('style') ?? '',
        })),
      )
    ).map((cell) => ({
      ...cell,
      left: parseFloat(/left:\s*([\d.]+)%/.exec(cell.style)?.[1] ?? 'NaN'),
      width: parseFloat(/width:\s*([\d.]+)%/.exec(cell.style)?.[1] ?? 'NaN'),
    }));
    expect(cells.map((cell) => [cell.stage, cell.outcome])).toEqual([
      ['Received', 'Submission received'],
      ['Validation', 'Passed validation'],
      ['Deduplication', 'Not a duplicate'],
      ['Enrichment', 'Enrichment rules applied'],
      ['Routing', 'Routed to a CRM'],
      ['CRM sync', 'Synced to the CRM'],
    ]);
    for (const cell of cells) {
      expect(cell.duration, cell.stage).toMatch(/^\d+(\.\d)? (ms|s|min|h)$/);
      expect(cell.left, cell.stage).toBeGreaterThanOrEqual(0);
      expect(cell.width, cell.stage).toBeGreaterThan(0);
      expect(cell.left + cell.width, cell.stage).toBeLessThanOrEqual(100.001);
    }
    // The bars follow the stages along the axis: each starts no earlier than the one before.
    for (let index = 1; index < cells.length; index++)
      expect(cells[index]!.left).toBeGreaterThanOrEqual(cells[index - 1]!.left);
    await expect(page.getByLabel('Time axis').innerText()).resolves.toMatch(/^0 ms\s+\d/);
    await screenshotTo(page, 'console-lead-timeline');
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  }, 120_000);
});
