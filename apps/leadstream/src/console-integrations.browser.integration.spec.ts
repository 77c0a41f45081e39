/**
 * The console's integration screens end to end (docs/console.md): the real `leadstream start`
 * process (WEBHOOK_ALLOW_INSECURE_TARGETS=true, so http and loopback targets are allowed) and
 * Chromium driven by playwright-core, with a node:http receiver on 127.0.0.1 standing in for a
 * school's webhook endpoint and its CRM.
 *
 * Webhooks: create one in the UI, see its secret once (and check the receiver's signatures with
 * it), send a test and see it succeed, ingest a lead and see its delivery in the log as delivered,
 * re-send it and see the receiver get the same event again; a failing one shows the test's error,
 * the failed delivery and its automatic disable with the reason, and is deleted. CRM: a webhook_json connection to the
 * receiver, its credential never shown back, "Test connection" reaching the receiver. Routing: a
 * rule made in the builder, moved in front of another and that one deleted, tried in the test panel, and a lead's route and CRM sync on its detail
 * page, with a manual "Sync to CRM". Roles: a manager reads webhooks without write buttons and sees
 * no CRM screen. Screenshots go to artifacts/. Needs /usr/bin/chromium, as the console spec.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import {
  CHROMIUM,
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

if (!chromiumAvailable)
  console.warn(
    `console-integrations.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`,
  );

const OWNER = {
  email: 'integrations@console.edu',
  password: 'Console-Passw0rd',
  first_name: 'Ivy',
  last_name: 'Integrator',
  organization_name: 'Integration College',
};
const CRM_CREDENTIAL = 'Bearer crm-credential-never-shown';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: Record<string, unknown>;
}

/** A loopback receiver: records every request and answers 200 (with a record id for the CRM), 500 at /fail. */
class Receiver {
  readonly requests: Received[] = [];
  private readonly server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // Recorded as received; the test looks at raw.
      }
      this.requests.push({ path: request.url ?? '', headers: request.headers, raw, body });
      response.writeHead(request.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(request.url === '/crm' ? { id: `crm-record-${this.requests.length}` } : { ok: true }),
      );
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  at(path: string): Received[] {
    return this.requests.filter((request) => request.path === path);
  }
}

/** docs/webhooks.md: X-Service-Signature `t=<s>,v1=<hex HMAC-SHA256(secret, "t.body")>`. */
function signedWith(secret: string, received: Received): boolean {
  const header = String(received.headers['x-service-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((item) => item.split('=', 2)));
  const expected = createHmac('sha256', secret)
    .update(`${parts['t'] ?? ''}.${received.raw}`)
    .digest();
  const given = Buffer.from(parts['v1'] ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe.skipIf(!chromiumAvailable)('the console’s webhooks, CRM connections and routing in Chromium', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-console-integrations-'));
  const receiver = new Receiver();
  let server: CliProcess;
  let base = '';
  let browser: Browser;
  let page: Page;
  let token = '';
  let liveKey = '';
  let secret = '';
  let nursingLeadId = '';
  const consoleErrors: string[] = [];
  const outside: string[] = [];
  const call = jsonClient(() => base);
  const webhookUrl = () => `${receiver.url}/hooks`;

  const screenshot = (name: string) => screenshotTo(page, name);
  const go = (link: string) => goTo(page, link);

  async function ingest(lead: Record<string, unknown>): Promise<string> {
    const response = await call('POST', '/api/leads/inbound', lead, liveKey);
    expect([201, 202], JSON.stringify(response.body)).toContain(response.status);
    return String(response.body['lead_id']);
  }

  beforeAll(async () => {
    buildConsole();
    await receiver.start();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        DATA_DIR: dataDir,
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        WEBHOOK_TIMEOUT_MS: '5000',
        // One retry a second later, and a webhook is disabled after one delivery ends failed.
        WEBHOOK_RETRY_SCHEDULE: '1s',
        WEBHOOK_AUTO_DISABLE_AFTER: '1',
        CRM_TIMEOUT_MS: '5000',
      }),
    ));
    const registered = await call('POST', '/api/auth/register', {
      email: OWNER.email,
      password: OWNER.password,
      first_name: OWNER.first_name,
      last_name: OWNER.last_name,
      organization_name: OWNER.organization_name,
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    token = String(registered.body['token']);
    const vendor = await call('POST', '/api/vendors', { name: 'Fair Leads', type: 'inquiry' }, token);
    const vendorId = String((vendor.body['data'] as Record<string, unknown>)['id']);
    liveKey = String(
      (
        (await call('POST', '/api/api-keys', { name: 'live', vendor_id: vendorId }, token)).body['data'] as Record<
          string,
          unknown
        >
      )['key'],
    );
    expect(liveKey).toMatch(/^vk_live_/);

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watchPage(page, base, { consoleErrors, outside });
    page.on('dialog', (dialog) => void dialog.accept());
    await signIn(page, base, OWNER.email, OWNER.password);
  }, 240_000);

  afterAll(async () => {
    await closeBrowserAndService(browser, server);
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a webhook showing its secret once, sends a test, logs a lead’s delivery as delivered and re-sends it', async () => {
    await go('Webhooks');
    await page.getByText('No webhook yet.').waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('URL').fill(webhookUrl());
    await form.getByLabel('Description (optional)').fill('Admissions inbox');
    expect(await form.getByLabel(/^lead\.created /).isChecked()).toBe(true);
    await form.getByLabel(/^lead\.enriched /).check();
    await form.getByRole('button', { name: 'Create webhook' }).click();
    secret = (await page.getByTestId('secret-value').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await screenshot('console-webhook-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: /Admissions inbox/ }).waitFor();
    // Shown once: neither the table nor the page shows it again.
    expect(await page.locator('main').innerText()).not.toContain(secret);
    expect(await page.locator('tbody').innerText()).toContain('lead.created, lead.enriched');

    await page.getByRole('button', { name: `Send test to ${webhookUrl()}` }).click();
    const outcome = page.getByTestId('webhook-test-outcome');
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(
      new RegExp(`^Test event delivered to ${webhookUrl().replaceAll('.', '\\.')}: HTTP 200 in \\d+ ms \\(evt_test_`),
    );
    const test = receiver.at('/hooks').find((request) => String(request.body['id']).startsWith('evt_test_'));
    expect(test?.body['event']).toBe('webhook.test');
    expect(test && signedWith(secret, test)).toBe(true);

    const leadId = await ingest({
      email: 'hugo.hook@example.edu',
      first_name: 'Hugo',
      last_name: 'Hook',
      program_interest: 'History',
      source: 'web',
    });
    await expect
      .poll(() => receiver.at('/hooks').filter((request) => request.body['event'] === 'lead.created').length, {
        timeout: 30_000,
      })
      .toBe(1);
    const delivered = receiver.at('/hooks').find((request) => request.body['event'] === 'lead.created');
    expect((delivered?.body['data'] as { lead?: { id?: string } } | undefined)?.lead?.id).toBe(leadId);
    expect(delivered && signedWith(secret, delivered)).toBe(true);

    await page.getByRole('button', { name: `Deliveries of ${webhookUrl()}` }).click();
    const log = page.getByRole('table', { name: 'Delivery log' });
    const createdRow = log.getByRole('row').filter({ hasText: 'lead.created' });
    // The log is read when opened; the delivery record may trail the receiver by a moment.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await createdRow.count()) === 1 ? createdRow.innerText() : '';
        },
        { timeout: 20_000 },
      )
      .toMatch(/lead\.created[\s\S]*delivered[\s\S]*\b1\b[\s\S]*200/);
    expect(await createdRow.innerText()).toContain(String(delivered?.body['id']));
    await screenshot('console-webhook-deliveries');

    await createdRow.getByRole('button', { name: /^Re-send lead\.created/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Re-send of lead\.created queued/ })
      .waitFor();
    // The receiver gets the same event (same id) again, freshly signed.
    await expect
      .poll(() => receiver.at('/hooks').filter((request) => request.body['id'] === delivered?.body['id']).length, {
        timeout: 30_000,
      })
      .toBe(2);
    const again = receiver.at('/hooks').filter((request) => request.body['id'] === delivered?.body['id'])[1];
    expect(again && signedWith(secret, again)).toBe(true);

    // Disable and enable again from the list.
    await page.getByRole('button', { name: `Disable ${webhookUrl()}` }).click();
    await page.getByRole('button', { name: `Enable ${webhookUrl()}` }).click();
    await page.getByRole('button', { name: `Disable ${webhookUrl()}` }).waitFor();
  }, 120_000);

  it('shows a failed test’s error, the failed delivery with its attempts, and the automatic disable with its reason', async () => {
    const failUrl = `${receiver.url}/fail`;
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('URL').fill(failUrl);
    await form.getByLabel('Description (optional)').fill('Broken endpoint');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByTestId('secret-value').waitFor();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: `Send test to ${failUrl}` }).click();
    const outcome = page.getByTestId('webhook-test-outcome');
    await outcome.getByText(/^Test event not delivered/).waitFor();
    expect(await outcome.innerText()).toMatch(
      new RegExp(`^Test event not delivered to ${failUrl.replaceAll('.', '\\.')} after \\d+ ms: \\S.*`),
    );

    await ingest({
      email: 'fay.fail@example.edu',
      first_name: 'Fay',
      last_name: 'Fail',
      program_interest: 'Law',
      source: 'web',
    });
    // Two attempts (the first and one retry a second later), then failed, then the webhook is disabled.
    await expect
      .poll(() => receiver.at('/fail').filter((request) => request.body['event'] === 'lead.created').length, {
        timeout: 30_000,
      })
      .toBe(2);
    const row = page.getByRole('row').filter({ hasText: 'Broken endpoint' });
    await expect
      .poll(
        async () => {
          await go('Leads');
          await go('Webhooks');
          await row.waitFor();
          return row.innerText();
        },
        { timeout: 20_000 },
      )
      .toMatch(/Disabled\s+Disabled automatically on .+\n.*fail/);
    await row.getByRole('button', { name: `Enable ${failUrl}` }).waitFor();
    await page.getByRole('button', { name: `Deliveries of ${failUrl}` }).click();
    const failed = page
      .getByRole('table', { name: 'Delivery log' })
      .getByRole('row')
      .filter({ hasText: 'lead.created' });
    await failed.waitFor();
    expect(await failed.innerText()).toMatch(/lead\.created[\s\S]*failed\s+2\s+500/);
    // The Error column says why.
    expect((await failed.getByRole('cell').nth(6).innerText()).trim()).not.toBe('');
    await screenshot('console-webhook-disabled');
    // Deleted after a confirmation (accepted by the dialog handler).
    await page.getByRole('button', { name: `Delete ${failUrl}` }).click();
    await expect.poll(() => row.count()).toBe(0);
  }, 90_000);

  it('creates a webhook_json CRM connection to the loopback receiver, never shows its credential and tests it', async () => {
    await go('CRM connections');
    await page.getByRole('button', { name: 'Add connection' }).click();
    const form = page.getByRole('form', { name: 'New CRM connection' });
    await form.getByLabel('Name', { exact: true }).fill('Loopback CRM');
    expect(await form.getByLabel('Type', { exact: true }).inputValue()).toBe('webhook_json');
    await form.getByLabel('Endpoint URL').fill(`${receiver.url}/crm`);
    await form.getByLabel('Auth header value (optional)').fill(CRM_CREDENTIAL);
    expect(await form.getByLabel('Auth header value (optional)').getAttribute('type')).toBe('password');
    // Another type shows its own settings and credentials.
    await form.getByLabel('Type', { exact: true }).selectOption('salesforce');
    await form.getByLabel('Instance URL').waitFor();
    expect(await form.getByLabel('Client secret').getAttribute('type')).toBe('password');
    await form.getByLabel('Type', { exact: true }).selectOption('webhook_json');
    await form.getByLabel('Endpoint URL').fill(`${receiver.url}/crm`);
    await form.getByLabel('Auth header value (optional)').fill(CRM_CREDENTIAL);
    await form.getByRole('button', { name: 'Create connection' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Loopback CRM' });
    await row.waitFor();
    expect(await row.innerText()).toContain('set (auth_value)');
    expect(await page.locator('main').innerText()).not.toContain('crm-credential-never-shown');

    await page.getByRole('button', { name: 'Test connection Loopback CRM' }).click();
    const outcome = page.getByTestId('crm-test-outcome');
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/^“Loopback CRM” answered HTTP 200 in \d+ ms: the connection works\.$/);
    const test = receiver.at('/crm').at(-1);
    expect(test?.headers['x-leadstream-test']).toBe('true');
    expect(test?.headers['authorization']).toBe(CRM_CREDENTIAL);
    expect(test?.body).toEqual({ test: true });
    await screenshot('console-crm');
  }, 60_000);

  it('edits the CRM connection in place: new settings, the stored credential kept, the same id', async () => {
    const row = page.getByRole('row').filter({ hasText: 'Loopback CRM' });
    const idBefore = await row.locator('code').first().innerText();
    await page.getByRole('button', { name: 'Edit Loopback CRM' }).click();
    const form = page.getByRole('form', { name: 'Edit CRM connection “Loopback CRM”' });
    expect(await form.getByLabel('Endpoint URL').inputValue()).toBe(`${receiver.url}/crm`);
    expect(await form.getByLabel('Type', { exact: true }).isDisabled()).toBe(true);
    expect(await form.getByLabel('Auth header value (optional)').inputValue()).toBe('');
    await form.getByLabel('Record URL template (optional)').fill('https://crm.example.edu/leads/{crm_id}');
    await form.getByRole('button', { name: 'Save connection' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => row.innerText()).toContain('record_url_template: https://crm.example.edu/leads/{crm_id}');
    expect(await row.locator('code').first().innerText()).toBe(idBefore);

    const before = receiver.at('/crm').length;
    await page.getByRole('button', { name: 'Test connection Loopback CRM' }).click();
    await page.getByTestId('crm-test-outcome').filter({ hasText: 'the connection works' }).waitFor();
    await expect.poll(() => receiver.at('/crm').length).toBe(before + 1);
    expect(receiver.at('/crm').at(-1)?.headers['authorization']).toBe(CRM_CREDENTIAL);
  }, 60_000);

  it('creates a routing rule in the builder, tries it, and shows a lead’s route and CRM sync on its detail page', async () => {
    await go('Routing');
    await page.getByText('No routing rule yet: every lead takes the default route.').waitFor();
    await page.getByRole('button', { name: 'New routing rule' }).click();
    const form = page.getByRole('form', { name: 'New routing rule' });
    await form.getByLabel('Rule name').fill('Nursing to admissions');
    await form.getByRole('button', { name: 'Add condition' }).click();
    await form.getByLabel('Condition 1 field').fill('program_interest');
    await form.getByLabel('Condition 1 operator').selectOption('equals');
    await form.getByLabel('Condition 1 value').fill('Nursing');
    await form.getByLabel('Target 1 connection').selectOption({ label: 'Loopback CRM (webhook_json)' });
    expect(await form.getByLabel('Target 1 connection').inputValue()).toMatch(/^crm_/);
    await form.getByLabel('Target 1 queue (optional)').fill('nursing-admissions');
    await form.getByRole('button', { name: 'Create routing rule' }).click();
    const row = page
      .getByRole('table', { name: 'Routing rules' })
      .getByRole('row')
      .filter({ hasText: 'Nursing to admissions' });
    await row.waitFor();
    expect(await row.innerText()).toContain('program_interest equals "Nursing"');
    expect(await row.innerText()).toContain('Loopback CRM · queue nursing-admissions');

    // A second rule (made through the API) tried first; Up puts ours back in front, Delete removes it.
    const connections = (await call('GET', '/api/crm/connections', undefined, token)).body['data'] as Array<{
      id: string;
      name: string;
    }>;
    expect(connections.map((connection) => connection.name)).toEqual(['Loopback CRM']);
    const connectionId = connections[0]?.id;
    const fair = await call(
      'POST',
      '/api/routing/rules',
      {
        name: 'College fair leads',
        priority: 5,
        conditions: { operator: 'AND', rules: [{ field: 'source', operator: 'equals', value: 'fair' }] },
        targets: [{ connection_id: connectionId }],
      },
      token,
    );
    expect(fair.status, JSON.stringify(fair.body)).toBe(201);
    await go('Leads');
    await go('Routing');
    const firstRule = page.getByRole('table', { name: 'Routing rules' }).locator('tbody tr').first();
    await expect.poll(() => firstRule.innerText()).toContain('College fair leads');
    await page.getByRole('button', { name: 'Move Nursing to admissions up' }).click();
    await expect.poll(() => firstRule.innerText()).toContain('Nursing to admissions');
    const order = (
      (await call('GET', '/api/routing/rules', undefined, token)).body['data'] as Array<{
        name: string;
        priority: number;
      }>
    )
      .sort((a, b) => a.priority - b.priority)
      .map((rule) => rule.name);
    expect(order).toEqual(['Nursing to admissions', 'College fair leads']);
    await page.getByRole('button', { name: 'Delete College fair leads' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Routing rules' }).locator('tbody tr').count()).toBe(1);

    // The test panel: the sample lead (Nursing) takes the rule; a History lead takes the default.
    await page.getByRole('button', { name: 'Route this lead' }).click();
    const result = page.getByTestId('routing-test-result');
    await result.getByText('Route: Nursing to admissions (rule)').waitFor();
    expect(await result.innerText()).toContain('Loopback CRM · queue nursing-admissions');
    await page.getByLabel('Lead (JSON)').fill(JSON.stringify({ email: 'h@example.edu', program_interest: 'History' }));
    await page.getByRole('button', { name: 'Route this lead' }).click();
    await result.getByText(/\(all_connections\)/).waitFor();
    await screenshot('console-routing');

    nursingLeadId = await ingest({
      email: 'nora.nurse@example.edu',
      first_name: 'Nora',
      last_name: 'Nurse',
      program_interest: 'Nursing',
      source: 'web',
    });
    // The crm-sync stage sends the routed lead to the receiver (an upsert by external_id).
    await expect
      .poll(() => receiver.at('/crm').filter((request) => request.body['external_id'] === nursingLeadId).length, {
        timeout: 30_000,
      })
      .toBe(1);
    expect(receiver.at('/crm').find((request) => request.body['external_id'] === nursingLeadId)?.body['queue']).toBe(
      'nursing-admissions',
    );

    // The sync is stored a moment after the receiver got it: wait for it through the API, then
    // open the page once (reloading the page in a loop spends the user's API rate limit).
    await expect
      .poll(
        async () => {
          const answer = await call('GET', `/api/leads/${nursingLeadId}`, undefined, token);
          return (answer.body['data'] as Record<string, unknown> | undefined)?.['crm_sync_status'];
        },
        { timeout: 20_000 },
      )
      .toBe('synced');
    await page.goto(`${base}/app/leads/${nursingLeadId}`);
    await page.getByRole('heading', { level: 1, name: 'Nora Nurse' }).waitFor();
    const crm = page.getByTestId('lead-crm');
    await crm.waitFor();
    expect(await crm.innerText()).toMatch(/CRM sync\s+synced\s/);
    expect(await crm.innerText()).toMatch(/CRM record id\s+crm-record-\d+/);
    // The rule's name is read after the lead.
    await expect
      .poll(() => page.getByTestId('lead-route').innerText())
      .toMatch(/^Routed by rule “Nursing to admissions”, .+\n→ Loopback CRM · queue nursing-admissions$/);

    await page.getByRole('button', { name: 'Sync to Loopback CRM' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Sync to “Loopback CRM” queued \(pending/ })
      .waitFor();
    await expect
      .poll(() => receiver.at('/crm').filter((request) => request.body['external_id'] === nursingLeadId).length, {
        timeout: 30_000,
      })
      .toBe(2);
    await screenshot('console-lead-route');
  }, 120_000);

  it('shows a manager webhooks without write buttons and no CRM screen', async () => {
    expect(
      (
        await call(
          'POST',
          '/api/users',
          {
            email: 'manager@console.edu',
            password: 'Manager-Passw0rd',
            first_name: 'Max',
            last_name: 'Manager',
            role: 'manager',
          },
          token,
        )
      ).status,
    ).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const manager = await context.newPage();
    await signIn(manager, base, 'manager@console.edu', 'Manager-Passw0rd');
    const nav = await manager.getByRole('navigation', { name: 'Console' }).getByRole('link').allInnerTexts();
    expect(nav).toContain('Webhooks');
    expect(nav).toContain('Routing');
    expect(nav).not.toContain('CRM connections');
    await manager.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await manager.getByRole('cell', { name: /Admissions inbox/ }).waitFor();
    await manager.getByRole('button', { name: `Deliveries of ${webhookUrl()}` }).waitFor();
    for (const name of [
      'Add webhook',
      `Send test to ${webhookUrl()}`,
      `Edit ${webhookUrl()}`,
      `Disable ${webhookUrl()}`,
      `Delete ${webhookUrl()}`,
    ])
      expect(await manager.getByRole('button', { name }).count(), name).toBe(0);
    await manager.getByRole('button', { name: `Deliveries of ${webhookUrl()}` }).click();
    await manager
      .getByRole('table', { name: 'Delivery log' })
      .getByRole('row')
      .filter({ hasText: 'lead.created' })
      .first()
      .waitFor();
    expect(await manager.getByRole('button', { name: /^Re-send/ }).count()).toBe(0);
    // A lead's detail: the route is shown (connection ids without crm:read), no Sync button.
    await manager.goto(`${base}/app/leads/${nursingLeadId}`);
    await manager
      .getByTestId('lead-route')
      .getByText(/Nursing to admissions/)
      .waitFor();
    expect(await manager.getByRole('button', { name: /^Sync to/ }).count()).toBe(0);
    await context.close();

    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
