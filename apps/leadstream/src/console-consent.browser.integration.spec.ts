/**
 * Consent in the console (docs/consent.md), in Chromium against `leadstream start`: the
 * organization page edits the consent requirements (read back through the API), the lead page
 * shows a lead's consent evidence with its check, and "Erase personal data" leaves a tombstone
 * whose page says the evidence went with it.
 *
 * Needs /usr/bin/chromium (see console.browser.integration.spec.ts); skipped without it.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, ConsoleSession, chromiumAvailable, screenshotTo } from './test-support/console-browser';

if (!chromiumAvailable)
  console.warn(`console-consent.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'consent.owner@consent-console.edu',
  password: 'Consent-Passw0rd',
  first_name: 'Connie',
  last_name: 'Sent',
  organization_name: 'Consent Console College',
};

describe.skipIf(!chromiumAvailable)('consent in the console, in Chromium against leadstream start', () => {
  const session = new ConsoleSession('consent', OWNER);
  const { call, consoleErrors, outside } = session;
  let base = '';
  let page: Page;
  let token = '';
  let key = '';
  const data = (body: Record<string, unknown>) => body['data'] as Record<string, unknown>;
  const api = async (method: string, path: string, body?: unknown, as = token): Promise<Record<string, unknown>> => {
    const answer = await call(method, path, body, as);
    expect([200, 201], `${method} ${path}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
    return answer.body;
  };

  beforeAll(async () => {
    ({ base, token } = await session.start({ RATE_LIMIT_SCALE: '10' }));
    const vendor = String(data(await api('POST', '/api/vendors', { name: 'Form Co', type: 'inquiry' }))['id']);
    key = String(data(await api('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }))['key']);
    page = await session.openPage({ width: 1280, height: 900 });
  }, 240_000);

  afterAll(() => session.close());

  it('edits the consent requirements on the organization page', async () => {
    await page.goto(`${base}/app/organization`);
    const form = page.getByRole('form', { name: 'Consent requirements' });
    await form.waitFor();
    await form.getByLabel('Require consent evidence with every submission').check();
    await form
      .getByLabel('Phrases the consent text must contain')
      .fill('agree to be contacted by {{*}} by phone\nmessage rates may apply');
    await form.getByLabel('Maximum age of consent (hours)').fill('48');
    await form.getByLabel('When a requirement fails').selectOption('flag');
    await form.getByLabel("Keep a deleted lead's evidence (days)").fill('3650');
    await form.getByRole('button', { name: 'Save consent requirements' }).click();
    await page.getByText('Saved. The next lead is checked with these requirements.').waitFor();
    const settings = data(await api('GET', '/api/organization'))['settings'] as Record<string, unknown>;
    expect(settings).toMatchObject({
      consent_requirements: {
        required: true,
        required_terms: ['agree to be contacted by {{*}} by phone', 'message rates may apply'],
        forbidden_terms: [],
        max_age_hours: 48,
        action: 'flag',
      },
      consent_retention_days: 3650,
    });
    // The form shows what is stored after a reload.
    await page.reload();
    await expect
      .poll(() => page.getByLabel('Maximum age of consent (hours)').inputValue(), { timeout: 10_000 })
      .toBe('48');
    await screenshotTo(page, 'console-consent-requirements');
  });

  it("shows a lead's consent evidence with its check, and erases the person", async () => {
    const ingested = await api(
      'POST',
      '/api/v1/leads/ingest',
      {
        email: 'grace.consent@example.edu',
        first_name: 'Grace',
        last_name: 'Consent',
        consent: {
          text: 'I agree to be contacted by Consent Console College by phone. Message rates may apply.',
          given_at: new Date(Date.now() - 60_000).toISOString(),
          page_url: 'https://apply.consent-console.edu/',
          ip: '203.0.113.50',
          user_agent: 'Mozilla/5.0',
          method: 'signature',
        },
      },
      key,
    );
    const leadId = String(ingested['lead_id']);
    const stored = data(await api('GET', `/api/leads/${leadId}/consent`));

    await page.goto(`${base}/app/leads/${leadId}`);
    await page.getByRole('heading', { level: 1, name: 'Grace Consent' }).waitFor({ timeout: 30_000 });
    const panel = page.getByRole('region', { name: 'Consent evidence' });
    await panel.getByText('Unchanged since it was received: the SHA-256 matches.').waitFor();
    await panel.getByText('Signature').waitFor();
    await panel.getByText(String(stored['sha256'])).waitFor();
    await panel.getByText('https://apply.consent-console.edu/').waitFor();
    await screenshotTo(page, 'console-lead-consent');

    page.once('dialog', (dialog) => void dialog.accept());
    await panel.getByRole('button', { name: 'Erase personal data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Erased lead' }).waitFor({ timeout: 30_000 });
    await panel.getByText('Erased with the personal data of this lead.').waitFor();
    const lead = data(await api('GET', `/api/leads/${leadId}`));
    expect(lead).toMatchObject({ email: '', first_name: null, last_name: null });
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
  });
});
