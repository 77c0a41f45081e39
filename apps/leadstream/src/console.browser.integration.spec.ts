/**
 * The web console (/app, apps/console) end to end, as a school's team meets it: the real
 * `leadstream start` process serving the built console and Chromium driven by playwright-core.
 * Register; create two vendors, a funnel link and an API key in the UI; ingest leads with that key
 * over HTTP; see them in the table and one lead's activity; change its status; create an
 * enrichment rule in the UI and see it applied to the next lead; see the funnel tiles change when
 * the application vendor sends the same person; open every screen and configure a lookup table, a
 * validation rule, a calculated field and the organization's validation settings. Then: a viewer
 * sees no write buttons, a narrow window still works, and an invalid session goes back to sign-in.
 *
 * Screenshots go to artifacts/ (listed by .ci/run); the two of the README are written to
 * docs/images/ when they are missing or UPDATE_DOCS_IMAGES=1 (so a run does not dirty the tree).
 * Needs /usr/bin/chromium (Debian's `chromium`; .ci/run installs it). Without it the suite is
 * skipped with a printed reason, except under REQUIRE_INFRA=1 where that fails the run.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import {
  CHROMIUM,
  ROOT,
  buildConsole,
  chromiumAvailable,
  closeBrowserAndService,
  goTo,
  launchChromium,
  screenshotTo,
  signIn,
  watchPage,
} from './test-support/console-browser';
import { jsonClient } from './test-support/json-client';

const DOCS_IMAGES = join(ROOT, 'docs/images');
const requireInfra = process.env['REQUIRE_INFRA'] === '1';
if (!chromiumAvailable)
  console.warn(`console.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

describe('chromium for the console test', () => {
  it.runIf(requireInfra)('is installed (REQUIRE_INFRA=1)', () => {
    expect(chromiumAvailable, `${CHROMIUM} is absent; .ci/run installs it with apt-get install chromium`).toBe(true);
  });
});

const OWNER = {
  email: 'registrar@console.edu',
  password: 'Console-Passw0rd',
  first: 'Rita',
  last: 'Registrar',
  organization: 'Console College',
};

describe.skipIf(!chromiumAvailable)('the web console in Chromium against leadstream start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-console-'));
  let server: CliProcess;
  let base = '';
  let browser: Browser;
  let page: Page;
  let inquiryKey = '';
  let applicationKey = '';
  let token = '';
  const consoleErrors: string[] = [];
  const outside: string[] = [];
  const call = jsonClient(() => base);

  /** A screenshot kept in artifacts/ and, for the README's two, in docs/images/. */
  async function screenshot(name: string, docsImage = false): Promise<void> {
    const file = await screenshotTo(page, name);
    const docsFile = join(DOCS_IMAGES, `${name}.png`);
    if (docsImage && (process.env['UPDATE_DOCS_IMAGES'] === '1' || !existsSync(docsFile))) {
      mkdirSync(DOCS_IMAGES, { recursive: true });
      copyFileSync(file, docsFile);
    }
  }

  async function ingest(key: string, lead: Record<string, unknown>, allowed = [201, 202]): Promise<string> {
    const response = await call('POST', '/api/leads/inbound', lead, key);
    expect(allowed, JSON.stringify(response.body)).toContain(response.status);
    const id = response.body['lead_id'] ?? response.body['id'];
    return typeof id === 'string' ? id : '';
  }

  const go = (link: string) => goTo(page, link);

  beforeAll(async () => {
    buildConsole();
    // The suite walks every screen of one user within a minute, faster than a person: the
    // general_api limit (100 a minute) would answer 429 on its own calls; the limits have their own
    // tests.
    ({ server, url: base } = await CliProcess.startService(serviceEnv({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '10' })));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    watchPage(page, base, { consoleErrors, outside });
  }, 240_000);

  afterAll(async () => {
    await closeBrowserAndService(browser, server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('prints the console address on start and serves it at /app', async () => {
    const line = await server.waitFor((entry) => entry.msg.startsWith('web console'));
    expect(line['url']).toBe(`${base}/app/`);
    const answer = await fetch(`${base}/app/leads`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/html');
  });

  it('registers a new organization and lands on the empty leads table', async () => {
    await page.goto(`${base}/app/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: 'Create an organization' }).click();
    await page.getByLabel('Organization name').fill(OWNER.organization);
    await page.getByLabel('First name').fill(OWNER.first);
    await page.getByLabel('Last name').fill(OWNER.last);
    await page.getByLabel('Email', { exact: true }).fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
    expect(await page.getByTestId('signed-in-as').innerText()).toContain('owner');
    await page.getByText('No lead matches.').waitFor();
    token = String(
      (await call('POST', '/api/auth/login', { email: OWNER.email, password: OWNER.password })).body['token'],
    );
    expect(token).not.toBe('');
  }, 60_000);

  it('creates two vendors, links them for the funnel and creates an API key shown once', async () => {
    await go('Vendors');
    for (const [name, type] of [
      ['Inquiry Co', 'inquiry'],
      ['Apply Portal', 'application'],
    ] as const) {
      await page.getByRole('button', { name: 'Add vendor' }).click();
      const form = page.getByRole('form', { name: 'New vendor' });
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Type').selectOption(type);
      await form.getByRole('button', { name: 'Create vendor' }).click();
      await page.getByRole('cell', { name, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'Edit Inquiry Co' }).click();
    const edit = page.getByRole('form', { name: 'Edit Inquiry Co' });
    await edit.getByLabel('Group (optional)').fill('College fairs');
    await edit.getByLabel('Cost per lead (optional)').fill('12.5');
    await edit.getByRole('button', { name: 'Save vendor' }).click();
    await page.getByRole('cell', { name: 'College fairs', exact: true }).waitFor();
    // Shown as the reports show it.
    await page.getByRole('cell', { name: '$12.50', exact: true }).waitFor();

    const link = page.getByRole('form', { name: 'New funnel link' });
    await link.getByLabel('Inquiry vendor').selectOption({ label: 'Inquiry Co' });
    await link.getByLabel('Application vendor').selectOption({ label: 'Apply Portal' });
    await link.getByRole('button', { name: 'Link vendors' }).click();
    await page.getByRole('button', { name: 'Remove link' }).waitFor();

    await go('API keys');
    const createKey = async (name: string, vendor: string): Promise<string> => {
      await page.getByRole('button', { name: 'Create API key' }).click();
      const form = page.getByRole('form', { name: 'New API key' });
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('Vendor').selectOption({ label: vendor });
      await form.getByLabel('IP restrictions (optional)').fill('127.0.0.1 ::1');
      await form.getByRole('button', { name: 'Create key' }).click();
      const secret = (await page.getByTestId('secret-value').innerText()).trim();
      expect(secret).toMatch(/^vk_live_/);
      await page.getByRole('button', { name: 'Copy' }).waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('cell', { name, exact: true }).waitFor();
      return secret;
    };
    inquiryKey = await createKey('Inquiry feed', 'Inquiry Co (inquiry)');
    // Shown once: the list has only its masked preview.
    expect(await page.locator('table').innerText()).not.toContain(inquiryKey);
    expect(await page.locator('table').innerText()).toContain('127.0.0.1');
    applicationKey = await createKey('Applications feed', 'Apply Portal (application)');
  }, 60_000);

  it('shows ingested leads in the table, one lead with its activity, and changes its status', async () => {
    const annId = await ingest(inquiryKey, {
      email: 'ann.inquirer@example.edu',
      first_name: 'Ann',
      last_name: 'Inquirer',
      program_interest: 'Computer Science',
      source: 'google',
      utm_campaign: 'fall-open-day',
    });
    await ingest(inquiryKey, {
      email: 'bob.browser@example.edu',
      first_name: 'Bob',
      last_name: 'Browser',
      program_interest: 'History',
      source: 'facebook',
    });
    await ingest(inquiryKey, {
      email: 'chen.li@example.edu',
      first_name: 'Chen',
      last_name: 'Li',
      program_interest: 'Biology',
      source: 'google',
    });
    await ingest(inquiryKey, {
      email: 'dana.diaz@example.edu',
      first_name: 'Dana',
      last_name: 'Diaz',
      program_interest: 'Nursing',
      source: 'college-fair',
    });

    await go('Leads');
    await page.getByRole('link', { name: 'ann.inquirer@example.edu' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Page 1 of 1' }).innerText()).toContain('4 leads');
    // Search narrows the table; sorting by email puts the leads in order.
    await page.getByLabel('Search').fill('chen');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Search').fill('');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(4);
    await page.getByRole('button', { name: 'Email' }).click(); // descending first
    await page.getByRole('button', { name: 'Email' }).click();
    await expect
      .poll(async () => (await page.locator('tbody tr a').allInnerTexts())[0])
      .toBe('ann.inquirer@example.edu');
    expect(page.url()).toContain('sortBy=email');
    await screenshot('console-leads', true);

    // Two leads at once: select them, set their status.
    await page.getByLabel('Select bob.browser@example.edu').check();
    await page.getByLabel('Select chen.li@example.edu').check();
    const selection = page.getByRole('region', { name: 'Selected leads' });
    await selection.getByLabel('New status').selectOption('qualified');
    await selection.getByRole('button', { name: 'Set status' }).click();
    await page.getByText('2 leads set to qualified.').waitFor();
    await page
      .getByRole('row', { name: /chen\.li@example\.edu/ })
      .getByText('qualified')
      .waitFor();
    await page.getByLabel('Status', { exact: true }).selectOption('qualified');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page.getByLabel('Status', { exact: true }).selectOption('');

    await page.getByRole('link', { name: 'ann.inquirer@example.edu' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ann Inquirer' }).waitFor();
    const timeline = page.getByRole('list', { name: 'Activity timeline' });
    await timeline.getByText('lead.created').waitFor();
    await page.getByRole('form', { name: 'Change status' }).getByLabel('Status').selectOption('contacted');
    await page.getByRole('button', { name: 'Save status' }).click();
    await page.getByText('Status saved.').waitFor();
    await page.locator('.page-header .badge', { hasText: 'contacted' }).waitFor();
    const stored = await call('GET', `/api/leads/${annId}`, undefined, token);
    expect((stored.body['data'] as Record<string, unknown>)['status']).toBe('contacted');
    await screenshot('console-lead-detail');
  }, 90_000);

  it('exports the leads with progress and a download', async () => {
    await go('Leads');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click({ timeout: 30_000 });
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^leads-.+\.csv$/);
    const path = await file.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path, 'utf8')).toContain('ann.inquirer@example.edu');
  }, 60_000);

  it('creates an enrichment rule in the UI, tests it, and sees it applied to the next lead', async () => {
    await go('Enrichment rules');
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Rule name').fill('Nursing partner leads');
    await form.getByLabel('Condition 1 field').fill('email');
    await form.getByLabel('Condition 1 operator').selectOption('ends_with');
    await form.getByLabel('Condition 1 value').fill('@nursing.example.edu');
    await form.getByLabel('Action 1 type').selectOption('set_field');
    await form.getByLabel('Action 1 field').fill('program');
    await form.getByLabel('Action 1 value').fill('BSN Nursing');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('cell', { name: 'Nursing partner leads', exact: true }).waitFor();

    await page.getByLabel('Lead (JSON)').fill(JSON.stringify({ email: 'eve@nursing.example.edu' }));
    await page.getByRole('button', { name: 'Run the rules' }).click();
    await page.getByText('Nursing partner leads: matched').waitFor();

    const leadId = await ingest(inquiryKey, {
      email: 'fay.nurse@nursing.example.edu',
      first_name: 'Fay',
      last_name: 'Nurse',
    });
    await page.goto(`${base}/app/leads/${leadId}`);
    await page.getByRole('heading', { level: 1, name: 'Fay Nurse' }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'BSN Nursing' }).waitFor();

    // The rule opens in the builder again and is saved with its change.
    await go('Enrichment rules');
    await page.getByRole('button', { name: 'Edit Nursing partner leads' }).click();
    const edit = page.getByRole('form', { name: 'Edit rule Nursing partner leads' });
    expect(await edit.getByLabel('Condition 1 value').inputValue()).toBe('@nursing.example.edu');
    await edit.getByLabel('Action 1 value').fill('BSN Nursing (partner)');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('set_field field="program" value="BSN Nursing (partner)"').waitFor();
  }, 60_000);

  it('shows the funnel tiles change when the application vendor sends a person who inquired', async () => {
    await go('Funnel');
    const tile = (name: string) => page.getByTestId(`tile-${name}`).locator('.tile-value');
    // The projector follows the pipeline: refresh until it has caught up.
    const refreshed = async (name: string): Promise<string> => {
      await page.locator('[data-testid="funnel"][aria-busy="false"]').waitFor();
      const answered = page.waitForResponse((response) => response.url().includes('/api/analytics/funnel/overview'));
      await page.getByRole('button', { name: 'Refresh' }).click();
      await answered;
      await page.locator('[data-testid="funnel"][aria-busy="false"]').waitFor();
      return tile(name).innerText();
    };
    await expect.poll(() => refreshed('inquiries'), { timeout: 30_000 }).toBe('5');
    expect(await tile('matched').innerText()).toBe('0');

    // Ann applies: a duplicate of her inquiry under the default deduplication, and a conversion.
    await ingest(
      applicationKey,
      { email: 'ann.inquirer@example.edu', first_name: 'Ann', last_name: 'Inquirer' },
      [201, 202, 409],
    );
    await expect.poll(() => refreshed('matched'), { timeout: 30_000 }).toBe('1');
    expect(await tile('applications').innerText()).toBe('1');
    expect(await tile('rate').innerText()).toBe('20.0 %');
    expect(await page.getByTestId('vendor-pairs').innerText()).toContain('Apply Portal');
    await page.locator('.recharts-surface').first().waitFor();
    await screenshot('console-funnel', true);
  }, 90_000);

  it('shows the reports: the period against the previous one, the conversion funnel, performance by source and vendor, and vendor cost', async () => {
    await go('Reports');
    await page.locator('[data-testid="reports"][aria-busy="false"]').waitFor();
    const period = `startDate=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}&endDate=${new Date().toISOString().slice(0, 10)}`;
    const api = async (path: string): Promise<Record<string, unknown>> =>
      (await call('GET', `${path}${path.includes('?') ? '&' : '?'}${period}`, undefined, token)).body['data'] as Record<
        string,
        unknown
      >;
    // The tiles show what the API answers for the same period.
    const summary = (await api('/api/analytics/executive-summary'))['current'] as {
      submitted: number;
      accepted: number;
      conversions: number;
    };
    const tile = (name: string) => page.getByTestId(`tile-${name}`).locator('.tile-value').innerText();
    expect(await tile('submitted')).toBe(String(summary.submitted));
    expect(await tile('accepted')).toBe(String(summary.accepted));
    expect(await tile('conversions')).toBe(String(summary.conversions));
    // The five inquiries of this spec at least, and Ann's application converted her inquiry.
    expect(summary.submitted).toBeGreaterThanOrEqual(5);
    expect(summary.conversions).toBe(1);
    const converted = page.getByTestId('conversion-funnel').getByRole('row').filter({ hasText: 'Converted' });
    expect((await converted.innerText()).split('\t')[1]).toBe('1');

    // By source: Ann and Chen came from google.
    const google = page
      .getByTestId('source-performance')
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'google', exact: true }) });
    expect((await google.innerText()).split('\t').slice(0, 2)).toEqual(['google', '2']);
    await page.getByRole('form', { name: 'Group by' }).getByLabel('Group by').selectOption('vendor');
    await page.getByTestId('source-performance').getByRole('cell', { name: 'Apply Portal', exact: true }).waitFor();
    expect(await page.getByRole('heading', { level: 2, name: 'Performance by vendor' }).count()).toBe(1);

    // Vendor cost: Inquiry Co's cost per lead (set on the Vendors page) times its accepted leads.
    const roi = (
      (await api('/api/analytics/vendor-roi'))['vendors'] as Array<{ vendorName: string; accepted: number }>
    ).find((vendor) => vendor.vendorName === 'Inquiry Co');
    const inquiryCo = (
      await page.getByTestId('vendor-roi').getByRole('row').filter({ hasText: 'Inquiry Co' }).innerText()
    ).split('\t');
    expect(inquiryCo.slice(0, 3)).toEqual(['Inquiry Co', 'inquiry', '$12.50']);
    expect(inquiryCo[6]).toBe(`$${(12.5 * roi!.accepted).toFixed(2)}`);
    await page.locator('[data-testid="reports"] .recharts-surface').first().waitFor();
    await screenshot('console-reports');
  }, 60_000);

  it('adds a lead by hand, opens every screen of the navigation, and configures a lookup table, a validation rule and a calculated field', async () => {
    // A walk-in entered by hand goes through the pipeline and opens; the same person again is a
    // duplicate. (After the funnel test: hand entries come from the organization's own manual-entry
    // vendor, an inquiry vendor, so they count as inquiries.)
    await go('Leads');
    await page.getByRole('button', { name: 'New lead' }).click();
    const form = page.getByRole('form', { name: 'New lead' });
    await form.getByLabel('Email').fill('gil.walker@example.edu');
    await form.getByLabel('First name').fill('Gil');
    await form.getByLabel('Last name').fill('Walker');
    await form.getByLabel('Source').fill('college-fair');
    await form.getByRole('button', { name: 'Add lead' }).click();
    await page.getByRole('heading', { level: 1, name: 'Gil Walker' }).waitFor();
    await go('Leads');
    await page.getByRole('button', { name: 'New lead' }).click();
    await page.getByRole('form', { name: 'New lead' }).getByLabel('Email').fill('gil.walker@example.edu');
    await page.getByRole('button', { name: 'Add lead' }).click();
    await page.getByRole('link', { name: 'Open the existing lead' }).click();
    await page.getByRole('heading', { level: 1, name: 'Gil Walker' }).waitFor();

    const screens = [
      'Leads',
      'Review',
      'Funnel',
      'Reports',
      'Vendors',
      'API keys',
      'Enrichment rules',
      'Custom fields',
      'Validation rules',
      'Lookup tables',
      'Calculated fields',
      'Deduplication',
      'Suppression lists',
      'Routing',
      'Volume caps',
      'CRM connections',
      'Webhooks',
      'Users',
      'Organization',
    ];
    const nav = await page.getByRole('navigation', { name: 'Console' }).getByRole('link').allInnerTexts();
    expect(nav).toEqual(screens);
    for (const screen of screens) {
      await go(screen);
      await expect
        .poll(() => page.getByText(/^Loading /).count(), { timeout: 15_000, message: `${screen} is still loading` })
        .toBe(0);
      expect(await page.getByRole('alert').count(), `${screen}: ${await page.locator('main').innerText()}`).toBe(0);
    }

    await go('Lookup tables');
    await page.getByRole('button', { name: 'New lookup table' }).click();
    const table = page.getByRole('form', { name: 'New lookup table' });
    await table.getByLabel('Name', { exact: true }).fill('zip_states');
    await table.getByLabel('Mappings').fill('10001 = NY\n90210 = CA');
    await table.getByRole('button', { name: 'Save table' }).click();
    await page
      .getByRole('row', { name: /zip_states/ })
      .getByRole('cell', { name: '2', exact: true })
      .waitFor();

    await go('Validation rules');
    await page.getByRole('button', { name: 'New validation rule' }).click();
    const rule = page.getByRole('form', { name: 'New validation rule' });
    await rule.getByLabel('Rule name').fill('No test leads');
    await rule.getByLabel('Field', { exact: true }).fill('last_name');
    await rule.getByLabel('Rule type').selectOption('blacklist');
    await rule.getByLabel('Condition').selectOption('contains_any');
    await rule.getByLabel('Value').fill('["test"]');
    await rule.getByLabel('Message').fill('test leads are refused');
    await rule.getByRole('button', { name: 'Create rule' }).click();
    await page.getByRole('cell', { name: 'No test leads', exact: true }).waitFor();
    await page
      .getByLabel('Lead fields (JSON)')
      .fill(JSON.stringify({ email: 'tess@example.edu', first_name: 'Tess', last_name: 'Test' }));
    await page.getByRole('button', { name: 'Check', exact: true }).click();
    await page.getByText('Invalid', { exact: true }).waitFor();
    await page.getByText('Error — last_name: test leads are refused').waitFor();

    await go('Calculated fields');
    await page.getByRole('button', { name: 'New calculated field' }).click();
    const field = page.getByRole('form', { name: 'New calculated field' });
    await field.getByLabel('Name', { exact: true }).fill('display_name');
    await field.getByLabel('Label').fill('Display name');
    await field.getByLabel('Formula', { exact: true }).fill('{{first_name}} {{last_name | upcase}}');
    await field.getByRole('button', { name: 'Create field' }).click();
    await page.getByRole('cell', { name: 'display_name', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Recalculate display_name' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Recalculation completed/ })
      .waitFor({ timeout: 30_000 });
    const leads = await call('GET', '/api/leads?search=bob', undefined, token);
    const bob = (leads.body['data'] as Array<Record<string, unknown>>)[0];
    const detail = await call('GET', `/api/leads/${String(bob?.['id'])}`, undefined, token);
    expect((detail.body['data'] as Record<string, unknown>)['calculated_fields']).toMatchObject({
      display_name: 'Bob BROWSER',
    });

    await go('Organization');
    await page.getByLabel('Required fields besides email').fill('phone');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved. The next lead is checked with these settings.').waitFor();
    const organization = await call('GET', '/api/organization', undefined, token);
    expect(
      (organization.body['data'] as { settings: { validation: Record<string, unknown> } }).settings.validation[
        'required_fields'
      ],
    ).toEqual(['phone']);
  }, 90_000);

  it('hides every write button from a viewer', async () => {
    expect(
      (
        await call(
          'POST',
          '/api/users',
          {
            email: 'viewer@console.edu',
            password: 'Viewer-Passw0rd',
            first_name: 'Vic',
            last_name: 'Viewer',
            role: 'viewer',
          },
          token,
        )
      ).status,
    ).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const viewer = await context.newPage();
    await signIn(viewer, base, 'viewer@console.edu', 'Viewer-Passw0rd');
    const nav = await viewer.getByRole('navigation', { name: 'Console' }).innerText();
    expect(nav).toContain('Funnel');
    expect(nav).toContain('Reports');
    for (const hidden of ['Vendors', 'API keys', 'Enrichment rules', 'Routing', 'CRM connections', 'Webhooks', 'Users'])
      expect(nav).not.toContain(hidden);
    // Ann's application is a second row (status duplicate); her inquiry is the older one, last.
    await viewer.getByRole('link', { name: 'ann.inquirer@example.edu' }).last().click();
    await viewer.getByRole('heading', { level: 1, name: 'Ann Inquirer' }).waitFor();
    await viewer.getByText('lead.created').waitFor();
    expect(await viewer.getByRole('button', { name: 'Save status' }).count()).toBe(0);
    await viewer.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Organization' }).click();
    await viewer.getByLabel('Country of national phone numbers').waitFor();
    expect(await viewer.getByLabel('Country of national phone numbers').isDisabled()).toBe(true);
    expect(await viewer.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    await context.close();
  }, 60_000);

  it('works in a narrow window, by keyboard, and sends an invalid session back to sign-in', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(`${base}/app/leads`);
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await page.getByRole('navigation', { name: 'Console' }).isVisible()).toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Funnel' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Funnel' }).waitFor();
    await page.getByTestId('tile-inquiries').waitFor();
    await screenshot('console-narrow');

    // A token the service does not know (as after a secret change): the next call answers 401 TOKEN_INVALID.
    await page.evaluate(`(() => {
      const session = JSON.parse(sessionStorage.getItem('leadstream.session') ?? '{}');
      sessionStorage.setItem('leadstream.session', JSON.stringify({ ...session, token: 'not-a-token' }));
    })()`);
    await page.goto(`${base}/app/leads`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.getByText('Please sign in again').waitFor();

    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
