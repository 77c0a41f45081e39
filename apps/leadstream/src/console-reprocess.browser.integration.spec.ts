/**
 * Reprocessing from the console, in Chromium against `leadstream start` (docs/reprocessing.md):
 * after a new enrichment rule, "Preview the effect" on the rules page shows the dry run's counts
 * and changes nothing; "Apply to existing leads" changes the lead the rule now matches; the
 * routing page has the same two buttons.
 *
 * Needs /usr/bin/chromium (see console.browser.integration.spec.ts); skipped without it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, screenshotTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`console-reprocess.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'rules@reprocess.edu',
  password: 'Reprocess-Passw0rd',
  first_name: 'Rory',
  last_name: 'Rules',
  organization_name: 'Reprocess College',
};

describe.skipIf(!chromiumAvailable)('reprocessing from the console, in Chromium against leadstream start', () => {
  const session = new ConsoleSession('reprocess', OWNER);
  const { call, consoleErrors, outside } = session;
  let base = '';
  let page: Page;
  let token = '';
  const api = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const answer = await call(method, path, body, token);
    expect([200, 201, 202], `${method} ${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    return answer.body;
  };
  const leadIds: string[] = [];

  beforeAll(async () => {
    ({ base, token } = await session.start());
    const vendor = String(
      ((await api('POST', '/api/vendors', { name: 'Fair Co', type: 'inquiry' }))['data'] as { id: string }).id,
    );
    const key = String(
      ((await api('POST', '/api/api-keys', { name: 'form', vendor_id: vendor }))['data'] as { key: string }).key,
    );
    for (const [email, utm] of [
      ['fair.visitor@example.edu', 'fair'],
      ['web.visitor@example.edu', 'web'],
    ] as const) {
      const answer = await call(
        'POST',
        '/api/v1/leads/ingest',
        { email, first_name: 'Vi', last_name: 'Sitor', utm_source: utm },
        key,
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      leadIds.push(String(answer.body['lead_id']));
    }
    await api('POST', '/api/enrichment/rules', {
      name: 'Fair tier',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'utm_source', operator: 'equals', value: 'fair' }] },
      actions: [{ type: 'set_field', field: 'enrichment_data.tier', value: 'fair' }],
    });
    page = await session.openPage();
  }, 240_000);

  afterAll(() => session.close());

  const status = () => page.getByLabel('Reprocessing').locator('.reprocess-status');

  it('previews the effect of the rules on the leads received, changing nothing', async () => {
    await page.goto(`${base}/app/rules`);
    await page.getByRole('heading', { level: 1, name: 'Enrichment rules' }).waitFor();
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    await status().getByText('Nothing was changed.').waitFor({ timeout: 30_000 });
    expect(await status().innerText()).toContain('Preview: 1 lead of 2 would change. Nothing was changed.');
    expect(
      await status()
        .getByRole('row', { name: /Enrichment data/ })
        .innerText(),
    ).toMatch(/Enrichment data\s+1/);
    await screenshotTo(page, 'console-reprocess-preview');
    const fair = (await api('GET', `/api/leads/${leadIds[0]}`))['data'] as Record<string, unknown>;
    expect(fair['enrichment_data']).toEqual({});
  }, 60_000);

  it('applies the rules to the existing leads after a confirmation', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Apply to existing leads' }).click();
    await status()
      .getByText(/^Applied:/)
      .waitFor({ timeout: 30_000 });
    expect(await status().innerText()).toContain('Applied: 1 lead of 2 changed.');
    const fair = (await api('GET', `/api/leads/${leadIds[0]}`))['data'] as Record<string, unknown>;
    expect(fair['enrichment_data']).toEqual({ tier: 'fair' });
    const web = (await api('GET', `/api/leads/${leadIds[1]}`))['data'] as Record<string, unknown>;
    expect(web['enrichment_data']).toEqual({});
  }, 60_000);

  it('offers the same on the routing page, with no script error and nothing loaded from elsewhere', async () => {
    await page.goto(`${base}/app/routing`);
    await page.getByRole('heading', { level: 1, name: 'Routing' }).waitFor();
    await page.getByRole('button', { name: 'Preview the effect' }).click();
    await status().getByText('Nothing was changed.').waitFor({ timeout: 30_000 });
    expect(await status().innerText()).toMatch(/^Preview: \d+ leads? of 2 would change/);
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);
});
