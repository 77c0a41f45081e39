/**
 * The console's Volume caps page, in Chromium against `leadstream start` (docs/caps.md): an owner
 * makes a vendor cap in the form, sees its period's count move as the vendor's leads are accepted,
 * and disables it.
 *
 * Needs /usr/bin/chromium (see console.browser.integration.spec.ts); skipped without it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, goTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`console-caps.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'owner@caps-console.edu',
  password: 'Caps-Console-Passw0rd',
  first_name: 'Cara',
  last_name: 'Capper',
  organization_name: 'Capped Console College',
};

describe.skipIf(!chromiumAvailable)('the Volume caps page, in Chromium against leadstream start', () => {
  const session = new ConsoleSession('caps', OWNER);
  const { call, consoleErrors, outside } = session;
  let page: Page;
  let token = '';

  beforeAll(async () => {
    ({ token } = await session.start());
    page = await session.openPage();
  }, 240_000);

  afterAll(() => session.close());

  it('makes a vendor cap, shows its count as leads are accepted, and disables it', async () => {
    const vendor = await call('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry' }, token);
    const vendorId = String((vendor.body['data'] as { id: string }).id);
    const key = await call('POST', '/api/api-keys', { name: 'Form', vendor_id: vendorId }, token);
    const liveKey = String((key.body['data'] as { key: string }).key);

    await page.reload();
    await goTo(page, 'Volume caps');
    await page.getByText('No cap yet.').waitFor();
    await page.getByRole('button', { name: 'New cap' }).click();
    const form = page.getByRole('form', { name: 'New cap' });
    await form.getByLabel('Name').fill('Inquiry Co daily');
    await form.getByLabel('Applies to').selectOption('vendor');
    await form.getByLabel('Vendor').selectOption(vendorId);
    await form.getByLabel('Maximum leads').fill('50');
    await form.getByLabel('Time zone').fill('America/New_York');
    await form.getByRole('button', { name: 'Create cap' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Inquiry Co daily' });
    await expect.poll(() => row.innerText()).toContain('0 of 50 (50 left)');
    expect(await row.innerText()).toContain('Vendor Inquiry Co');
    expect(await row.innerText()).toContain('50 per day (America/New_York)');
    const caps = await call('GET', '/api/caps', undefined, token);
    expect(caps.body['data']).toEqual([
      expect.objectContaining({ scope: 'vendor', vendor_id: vendorId, maximum: 50, time_zone: 'America/New_York' }),
    ]);

    const lead = await call(
      'POST',
      '/api/v1/leads/ingest',
      {
        email: 'first.capped@example.edu',
        first_name: 'First',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
      },
      liveKey,
    );
    expect(lead.status, JSON.stringify(lead.body)).toBe(201);
    await page.reload();
    await expect.poll(() => row.innerText()).toContain('1 of 50 (49 left)');

    await row.getByRole('button', { name: /Disable/ }).click();
    await expect.poll(() => row.innerText()).toContain('Disabled');
    expect(
      ((await call('GET', '/api/caps', undefined, token)).body['data'] as Array<{ enabled: boolean }>)[0],
    ).toMatchObject({
      enabled: false,
    });
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  });
});
