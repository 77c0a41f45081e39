/**
 * Screens staff can read, in Chromium against `leadstream start`: a duplicate's page says in words
 * why it is neither synced nor routed, linked to the lead it duplicates; the route reads the same
 * in the timeline as in the details; a flagged lead's flags, warnings and review flags are
 * sentences and its raw JSON folds and wraps; user text is rendered isolated (a U+202E cannot
 * reverse what follows it); the API keys page fits 1280 pixels with labelled live and sandbox keys
 * and revoked keys greyed with their time; cost per lead reads the same on every page; and the
 * environment switch shows sandbox leads.
 *
 * Needs /usr/bin/chromium (see console.browser.integration.spec.ts); skipped without it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, goTo, screenshotTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`console-readable.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'reader@readable.edu',
  password: 'Readable-Passw0rd',
  first_name: 'Rhea',
  last_name: 'Reader',
  organization_name: 'Readable College',
};

describe.skipIf(!chromiumAvailable)('screens staff can read, in Chromium against leadstream start', () => {
  const session = new ConsoleSession('readable', OWNER);
  const { call, consoleErrors, outside } = session;
  let base = '';
  let page: Page;
  let token = '';
  let vendorId = '';
  let liveKey = '';
  let sandboxKey = '';

  const api = async (
    method: string,
    path: string,
    body?: unknown,
    expected = [200, 201, 204],
  ): Promise<Record<string, unknown>> => {
    const answer = await call(method, path, body, token);
    expect(expected, `${method} ${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    return answer.body;
  };
  const ingest = async (
    lead: Record<string, unknown>,
    options: { sandbox?: boolean; expected?: number } = {},
  ): Promise<Record<string, unknown>> => {
    const answer = await call(
      'POST',
      `${options.sandbox ? '/sandbox' : ''}/api/v1/leads/ingest`,
      { form_started_at: new Date(Date.now() - 30_000).toISOString(), ...lead },
      options.sandbox ? sandboxKey : liveKey,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(options.expected ?? 201);
    return answer.body;
  };
  /** A lead's page once the pipeline has decided it (the page retries a lead still processing). */
  const openLead = async (id: string, heading: string): Promise<void> => {
    await page.goto(`${base}/app/leads/${id}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor({ timeout: 30_000 });
  };
  /** The value of a details row of the lead page, by its label. */
  const detail = (label: string) =>
    page
      .locator('dl.details > div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('dd');

  beforeAll(async () => {
    ({ base, token } = await session.start({ RATE_LIMIT_SCALE: '10' }));
    vendorId = String(
      (
        (await api('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry', cost_per_lead: 12.5 }))['data'] as {
          id: string;
        }
      ).id,
    );
    const key = async (name: string, environment: 'live' | 'sandbox'): Promise<string> =>
      String(
        (
          (
            await api('POST', '/api/api-keys', {
              name,
              vendor_id: vendorId,
              environment,
              ip_restrictions: ['127.0.0.1', '::1', '10.20.30.0/24'],
              rate_limit: 1000,
            })
          )['data'] as { key: string }
        ).key,
      );
    liveKey = await key('Website form', 'live');
    sandboxKey = await key('Website form (test)', 'sandbox');
    page = await session.openPage();
  }, 240_000);

  afterAll(() => session.close());

  let originalId = '';

  it('says in words why a duplicate is neither synced nor routed, linked to the lead it duplicates', async () => {
    originalId = String(
      (await ingest({ email: 'dee.uplicate@example.edu', first_name: 'Dee', last_name: 'Uplicate' }))['lead_id'],
    );
    const again = await ingest(
      { email: 'dee.uplicate@example.edu', first_name: 'Dee', last_name: 'Uplicate' },
      { expected: 409 },
    );
    expect(again['duplicate_of']).toBe(originalId);
    const duplicates = (await api('GET', '/api/leads?status=duplicate'))['data'] as Array<{ id: string }>;
    const duplicateId = String(duplicates[0]?.id);

    await openLead(duplicateId, 'Dee Uplicate');
    const panel = page.getByTestId('lead-crm');
    expect(await detail('CRM sync').innerText()).toBe(`Not synced: duplicate of ${originalId}`);
    expect(await detail('Route').innerText()).toBe(`Not routed: duplicate of ${originalId}`);
    expect(await detail('Enrichment').innerText()).toBe(`Skipped: duplicate of ${originalId}`);
    expect(await panel.innerText()).not.toMatch(/pending|not routed yet/);
    await screenshotTo(page, 'console-lead-duplicate');
    await detail('CRM sync').getByRole('link', { name: originalId }).click();
    await page.getByRole('heading', { level: 1, name: 'Dee Uplicate' }).waitFor();
    expect(page.url()).toBe(`${base}/app/leads/${originalId}`);
  }, 60_000);

  it('tells the route the same way in the timeline as in the details', async () => {
    await openLead(originalId, 'Dee Uplicate');
    // No routing rule and no CRM connection: the route stage decided there is nowhere to send it.
    const sentence = 'Not routed: no routing rule matched, and there is no default route or enabled CRM connection';
    await expect.poll(() => detail('Route').innerText(), { timeout: 15_000 }).toContain(sentence);
    const routed = page
      .getByRole('list', { name: 'Activity timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'lead.routed' });
    await routed.waitFor();
    expect(await routed.locator('p').first().innerText()).toBe(`${sentence}.`);
    expect(await page.getByRole('list', { name: 'Activity timeline' }).innerText()).not.toContain('Lead routed');
    expect(await detail('CRM sync').innerText()).toBe('Not synced: no CRM destination');
  }, 60_000);

  it("shows a flagged lead's flags, warnings and review flags as sentences; raw JSON folds and wraps", async () => {
    // A rule whose lookup table was deleted cannot be evaluated: the lead goes to review naming it.
    const table = (
      await api('POST', '/api/enrichment/lookup-tables', { name: 'zip_states', mappings: { '10001': 'NY' } })
    )['data'] as { id: string };
    await api('POST', '/api/enrichment/rules', {
      name: 'State from zip',
      priority: 1,
      conditions: { operator: 'AND', rules: [{ field: 'email', operator: 'is_not_empty' }] },
      actions: [
        { type: 'lookup', target_field: 'enrichment_data.state', table_name: 'zip_states', lookup_field: 'source' },
      ],
    });
    await api('DELETE', `/api/enrichment/lookup-tables/${table.id}`);
    const sent = await ingest({ email: 'john@gmial.com', first_name: 'John', last_name: 'Typo', source: '10001' });
    expect(sent['warnings']).toEqual([{ field: 'email', message: 'Did you mean john@gmail.com?' }]);

    await openLead(String(sent['lead_id']), 'John Typo');
    const review = page.getByRole('region', { name: 'Flagged for review' });
    await review.getByText('Did you mean john@gmail.com?').waitFor({ timeout: 15_000 });
    const items = await review.getByRole('listitem').allInnerTexts();
    expect(items).toEqual([
      'Email: Did you mean john@gmail.com?',
      'The email address may be mistyped.',
      'Rule “State from zip” could not be evaluated: actions[0].table_name: no lookup table named zip_states (high severity).',
    ]);
    expect(await detail('Validation').innerText()).toBe('Flagged for review (see below)');

    // The raw event data is folded away, and wraps when opened (nothing cut off at the right edge).
    const enriched = page
      .getByRole('list', { name: 'Activity timeline' })
      .getByRole('listitem')
      .filter({ hasText: 'lead.enriched' });
    const raw = enriched.locator('pre');
    expect(await raw.isVisible()).toBe(false);
    await enriched.getByText('Raw event data').click();
    await raw.waitFor();
    const overflow = await raw.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(overflow.scroll).toBeLessThanOrEqual(overflow.client);
    expect(await raw.innerText()).toContain('no lookup table named zip_states');
    await screenshotTo(page, 'console-lead-flagged');
  }, 60_000);

  it('renders user text isolated, so a right-to-left override cannot reverse what follows it', async () => {
    const sent = await ingest({
      email: 'rlo@example.edu',
      first_name: '\u202Eevil',
      last_name: 'Name',
      source: '\u202Ebrochure',
      program_interest: 'Art \u202Eand design',
    });
    await openLead(String(sent['lead_id']), 'evil Name');
    for (const label of ['Source', 'Program interest']) {
      const style = await detail(label).evaluate((element) => {
        const holder = element.querySelector('bdi') ?? element;
        return {
          unicodeBidi: holder.ownerDocument.defaultView?.getComputedStyle(holder).unicodeBidi,
          text: holder.textContent,
        };
      });
      expect(style.unicodeBidi, label).toBe('isolate');
    }
    // Where a name runs into other text (the account in the top bar), the name is isolated too.
    const account = await page
      .getByTestId('signed-in-as')
      .evaluate((element) => [...element.querySelectorAll('bdi')].map((bdi) => bdi.textContent));
    expect(account).toEqual(['Rhea Reader']);
    expect(consoleErrors).toEqual([]);
  }, 60_000);

  it('fits the API keys page in 1280 pixels: labelled live and sandbox keys, the ingest path, revoked keys greyed with their time', async () => {
    const retired = String(
      ((await api('POST', '/api/api-keys', { name: 'Old feed', vendor_id: vendorId }))['data'] as { id: string }).id,
    );
    await goTo(page, 'API keys');
    await page.getByRole('cell', { name: 'Old feed', exact: true }).waitFor();
    expect(await page.locator('main').innerText()).toContain('POST /api/v1/leads/ingest');

    const wrap = await page.locator('.table-wrap').boundingBox();
    for (const name of ['Website form', 'Website form (test)', 'Old feed']) {
      for (const action of ['Rotate', 'Revoke']) {
        const box = await page.getByRole('button', { name: `${action} ${name}`, exact: true }).boundingBox();
        expect(box, `${action} ${name}`).not.toBeNull();
        expect(box!.x + box!.width, `${action} ${name} ends inside the table`).toBeLessThanOrEqual(
          wrap!.x + wrap!.width,
        );
        expect(box!.x + box!.width).toBeLessThanOrEqual(1280);
      }
    }
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    expect(await row('Website form').getByText('Live', { exact: true }).isVisible()).toBe(true);
    expect(await row('Website form (test)').getByText('Sandbox', { exact: true }).isVisible()).toBe(true);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Old feed', exact: true }).click();
    await row('Old feed')
      .getByText(/^Revoked /)
      .waitFor();
    const revoked = await api('GET', '/api/api-keys');
    const revokedAt = (revoked['data'] as Array<{ id: string; revoked_at: string | null }>).find(
      (key) => key.id === retired,
    )?.revoked_at;
    expect(revokedAt).toEqual(expect.any(String));
    expect(await row('Old feed').getAttribute('class')).toContain('revoked');
    expect(
      Number(
        await row('Old feed').evaluate(
          (element) => element.ownerDocument.defaultView?.getComputedStyle(element).opacity,
        ),
      ),
    ).toBeLessThan(1);
    expect(await row('Old feed').getByRole('button').count()).toBe(0);
    await screenshotTo(page, 'console-api-keys');
  }, 60_000);

  it('shows cost per lead the same way on the vendors page as on the reports ($12.50)', async () => {
    await goTo(page, 'Vendors');
    await page.getByRole('cell', { name: '$12.50', exact: true }).waitFor();
    await goTo(page, 'Reports');
    await page.getByTestId('vendor-roi').getByRole('cell', { name: '$12.50', exact: true }).waitFor();
  }, 60_000);

  it('shows sandbox leads behind the environment switch, read-only', async () => {
    const sandboxLead = String(
      (await ingest({ email: 'sam.sandbox@example.edu', first_name: 'Sam', last_name: 'Sandbox' }, { sandbox: true }))[
        'lead_id'
      ],
    );
    await goTo(page, 'Leads');
    await page.getByRole('link', { name: 'dee.uplicate@example.edu' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'sam.sandbox@example.edu' }).count()).toBe(0);

    await page.getByLabel('Environment').selectOption('sandbox');
    await page.getByRole('link', { name: 'sam.sandbox@example.edu' }).waitFor();
    expect(await page.getByRole('link', { name: 'dee.uplicate@example.edu' }).count()).toBe(0);
    await page.getByText('Sandbox: leads sent with vk_test_ keys').waitFor();
    // Read-only: the user API changes live leads.
    expect(await page.getByRole('button', { name: 'New lead' }).count()).toBe(0);
    await page.getByRole('link', { name: 'sam.sandbox@example.edu' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sam Sandbox' }).waitFor();
    expect(page.url()).toBe(`${base}/app/leads/${sandboxLead}`);
    expect(await page.getByRole('button', { name: 'Save status' }).count()).toBe(0);
    expect(await detail('CRM sync').innerText()).toBe('Not synced: sandbox leads are never sent to a CRM');
    await screenshotTo(page, 'console-sandbox-lead');

    await page.getByLabel('Environment').selectOption('live');
    await page.getByText('Lead not found').waitFor();
    await goTo(page, 'Leads');
    await page.getByRole('link', { name: 'dee.uplicate@example.edu' }).first().waitFor();
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  }, 60_000);
});
