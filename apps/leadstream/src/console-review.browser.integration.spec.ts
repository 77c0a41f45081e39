/**
 * The console's Review page end to end (docs/review-queue.md): the real `leadstream start` process
 * and Chromium driven by playwright-core. Three leads flagged as possible bots (their form was
 * filled in 2 s) wait in the queue with the flag in words; one is approved from the keyboard (the
 * row focused, A), the two others are selected and rejected at once with a reason. The service
 * then shows the first active and routed, the two others rejected, all with lead.reviewed. A
 * screenshot goes to artifacts/. Needs /usr/bin/chromium, as the console spec.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, goTo, screenshotTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`console-review.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'reviewer@console.edu',
  password: 'Console-Passw0rd',
  first_name: 'Rita',
  last_name: 'Reviewer',
  organization_name: 'Review College',
};

describe.skipIf(!chromiumAvailable)('the console’s Review page in Chromium', () => {
  const session = new ConsoleSession('review', OWNER);
  const { call, consoleErrors, outside } = session;
  let page: Page;
  let token = '';
  let key = '';
  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

  async function ingestFlagged(name: string): Promise<string> {
    const response = await call(
      'POST',
      '/api/v1/leads/ingest',
      { email: `${name}@example.edu`, first_name: name, form_started_at: new Date(Date.now() - 2_000).toISOString() },
      key,
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return String(response.body['lead_id']);
  }

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 30_000;
    let value = await read();
    while (!done(value)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      value = await read();
    }
    return value;
  }

  beforeAll(async () => {
    ({ token } = await session.start());
    const vendor = String(
      data((await call('POST', '/api/vendors', { name: 'Quick Leads', type: 'inquiry' }, token)).body)['id'],
    );
    key = String(data((await call('POST', '/api/api-keys', { name: 'live', vendor_id: vendor }, token)).body)['key']);
    page = await session.openPage({ width: 1280, height: 900 });
  }, 240_000);

  afterAll(() => session.close());

  it('approves one lead from the keyboard and rejects two selected at once', async () => {
    const ids = [await ingestFlagged('ann'), await ingestFlagged('ben'), await ingestFlagged('cat')];
    const [approved, ...rejected] = ids as [string, string, string];
    await until(
      async () => ((await call('GET', '/api/review-queue', undefined, token)).body['meta'] ?? {}) as { total?: number },
      (meta) => meta.total === 3,
      'three leads in the queue',
    );

    await goTo(page, 'Review');
    const table = page.getByTestId('review-queue');
    await expect.poll(() => table.locator('tbody tr[data-lead-id]').count()).toBe(3);
    const row = (id: string) => table.locator(`tr[data-lead-id="${id}"]`);
    // The flag in words.
    await expect
      .poll(() => row(approved).innerText())
      .toMatch(/Possible bot: submitted \d+\.\d s after the form opened/);
    expect(await page.getByLabel('Flag').innerText()).toContain('Possible bot (3)');
    await screenshotTo(page, 'console-review');

    // The keyboard: focus the row, A approves it.
    await row(approved).focus();
    await page.keyboard.press('a');
    await page.getByText('Approved 1 lead.').waitFor();
    await expect.poll(() => row(approved).count()).toBe(0);

    // Bulk: select the two others and reject them with a reason.
    await page.getByLabel('Reason for rejections').fill('form bots');
    for (const id of rejected) await row(id).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Reject selected (2)' }).click();
    await page.getByText('Rejected 2 leads.').waitFor();
    await expect.poll(() => table.locator('tbody tr[data-lead-id]').count()).toBe(0);

    // What the service did with them.
    const lead = async (id: string) => data((await call('GET', `/api/leads/${id}`, undefined, token)).body);
    const first = await until(
      () => lead(approved),
      (value) => typeof (value['routing'] as { routed_at?: unknown } | null)?.routed_at === 'string',
      'the approved lead routed',
    );
    expect(first['status']).toBe('active');
    for (const id of rejected)
      await until(
        () => lead(id),
        (value) => value['status'] === 'rejected',
        `${id} rejected`,
      );
    const activity = (await call('GET', `/api/leads/${rejected[0]}/activity`, undefined, token)).body['data'] as Array<{
      event: string;
      metadata: Record<string, unknown>;
    }>;
    expect(activity.find((entry) => entry.event === 'lead.reviewed')?.metadata).toMatchObject({
      decision: 'reject',
      reason: 'form bots',
    });
    expect((await call('GET', '/api/review-queue', undefined, token)).body['meta']).toMatchObject({ total: 0 });
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  }, 120_000);
});
