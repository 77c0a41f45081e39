/**
 * The console's suppression lists in Chromium (docs/suppression-lists.md), against the real
 * `leadstream start` on the embedded engines: an owner makes a list from the navigation, adds a
 * value, checks another way of writing it, imports a CSV file and sees the job finish, then uses
 * the lead page's "Do not contact" and the person's next submission is refused.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, goTo, screenshotTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`suppression.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'owner@suppression-console.edu',
  password: 'Console-Passw0rd',
  first_name: 'Sue',
  last_name: 'Pressor',
  organization_name: 'Suppression Console College',
};

describe.skipIf(!chromiumAvailable)('the console’s suppression lists in Chromium', () => {
  const session = new ConsoleSession('suppression', OWNER);
  const { call, consoleErrors, outside } = session;
  let base = '';
  let page: Page;
  let token = '';
  let key = '';

  beforeAll(async () => {
    ({ base, token } = await session.start());
    const vendor = await call('POST', '/api/vendors', { name: 'Fair Leads', type: 'inquiry' }, token);
    const vendorId = String((vendor.body['data'] as Record<string, unknown>)['id']);
    const issued = await call('POST', '/api/api-keys', { name: 'live', vendor_id: vendorId }, token);
    key = String((issued.body['data'] as Record<string, unknown>)['key']);
    page = await session.openPage({ width: 1280, height: 900 });
    page.on('dialog', (dialog) => void dialog.accept());
  }, 240_000);

  afterAll(() => session.close());

  it('makes a list, adds and checks values, imports a CSV file', async () => {
    await goTo(page, 'Suppression lists');
    await page.getByRole('button', { name: 'New suppression list' }).click();
    const form = page.getByRole('form', { name: 'New suppression list' });
    await form.getByLabel('Name').fill('Do not contact');
    await form.getByRole('button', { name: 'Create list' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Do not contact' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toMatch(/Email\s+Reject\s+Never\s+0\s+Enabled/);

    await row.getByRole('button', { name: 'Open Do not contact' }).click();
    await page.getByLabel('Add values (one per line, up to 10,000)').fill('Jane.Doe+ads@gmail.com\n');
    await page.getByRole('button', { name: 'Add to list' }).click();
    await page.getByText('1 new entries; the list holds 1.').waitFor();

    await page.getByLabel('Check a value').fill('janedoe@googlemail.com');
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText(/^On the list since /).waitFor();

    await page.getByLabel('Or import a CSV file of one column (up to 1,000,000 rows)').setInputFiles({
      name: 'students.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('email\nstudent.one@college.edu\nstudent.two@college.edu\nnot-an-email\n'),
    });
    await page.getByRole('button', { name: 'Add to list' }).click();
    await page
      .getByText('Import finished: 3 rows, 2 new entries, 1 invalid rows skipped.')
      .waitFor({ timeout: 30_000 });
    await expect.poll(async () => row.innerText()).toMatch(/Never\s+3\s+Enabled/);
    await screenshotTo(page, 'console-suppression-lists');
  }, 120_000);

  it("puts a lead's email on the list from the lead page, and the person's next submission is refused", async () => {
    const email = 'second.thoughts@college.edu';
    const first = await call('POST', '/api/v1/leads/ingest', { email, first_name: 'Sam', last_name: 'Second' }, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await page.goto(`${base}/app/leads/${String(first.body['lead_id'])}`);
    await page.getByRole('button', { name: 'Do not contact' }).click();
    await page.getByText('Added to Do not contact.').waitFor();
    const again = await call('POST', '/api/v1/leads/ingest', { email, first_name: 'Sam', last_name: 'Second' }, key);
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ success: false, error: 'Lead rejected', reason: 'suppressed' });
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);
});
