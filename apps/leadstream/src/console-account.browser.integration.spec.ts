/**
 * The console's "Your account" page (apps/console/src/pages/account.page.tsx) in Chromium against
 * `leadstream start`: a manager signs in, opens the page from the link with their name in the
 * console's header, sees their email and role, tries a wrong current password and then the password
 * they already have as the new one (each a sentence naming the field by its label, nothing changed), changes the password (a confirmation, the tab stays signed in, other
 * sessions end), signs out, and signs in with the new password while the old one is refused, in
 * the page and through the API.
 *
 * Needs /usr/bin/chromium (see console.browser.integration.spec.ts); skipped without it, except
 * under REQUIRE_INFRA=1 where console.browser.integration.spec.ts fails the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
  launchChromium,
  screenshotTo,
  signIn,
  watchPage,
} from './test-support/console-browser';
import { jsonClient } from './test-support/json-client';

if (!chromiumAvailable)
  console.warn(`console-account.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

const OWNER = {
  email: 'owner@account.edu',
  password: 'Account-0wner-Pass',
  first_name: 'Olga',
  last_name: 'Owner',
  organization_name: 'Account College',
};
const USER = { email: 'morgan.manager@account.edu', first_name: 'Morgan', last_name: 'Manager', role: 'manager' };
const OLD_PASSWORD = 'Manager-Passw0rd';
const NEW_PASSWORD = 'Brand-New-Passw0rd';

describe.skipIf(!chromiumAvailable)('"Your account" in Chromium against leadstream start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-console-account-'));
  let server: CliProcess | undefined;
  let base = '';
  let browser: Browser | undefined;
  let page: Page;
  /** A session of the user opened through the API before the change: the change must end it. */
  let otherSession = '';
  const consoleErrors: string[] = [];
  const outside: string[] = [];
  const call = jsonClient(() => base);

  const login = (password: string) => call('POST', '/api/auth/login', { email: USER.email, password });
  const form = () => page.getByRole('form', { name: 'Change your password' });

  beforeAll(async () => {
    buildConsole();
    ({ server, url: base } = await CliProcess.startService(serviceEnv({ DATA_DIR: dataDir, RATE_LIMIT_SCALE: '10' })));
    const registered = await call('POST', '/api/auth/register', OWNER);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const created = await call(
      'POST',
      '/api/users',
      { ...USER, password: OLD_PASSWORD },
      String(registered.body['token']),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const loggedIn = await login(OLD_PASSWORD);
    expect(loggedIn.status, JSON.stringify(loggedIn.body)).toBe(200);
    otherSession = String(loggedIn.body['token']);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    watchPage(page, base, { consoleErrors, outside });
  }, 240_000);

  afterAll(async () => {
    await closeBrowserAndService(browser, server);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("opens the account page from the console's header and shows who is signed in", async () => {
    await signIn(page, base, USER.email, OLD_PASSWORD);
    const account = page.getByRole('banner').getByRole('link', { name: 'Morgan Manager · manager' });
    expect(await account.getAttribute('title')).toBe('Your account: change your password');
    await account.click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/account');
    expect(await page.title()).toBe('Your account · leadstream');
    expect(await page.locator('main p.muted').first().innerText()).toBe(
      `Signed in as Morgan Manager (${USER.email}), manager.`,
    );
    expect(await form().getByLabel('Current password').inputValue()).toBe('');
    expect(await form().getByLabel('New password').inputValue()).toBe('');
    await screenshotTo(page, 'console-account');
  }, 90_000);

  it('says in words that the current password is wrong, and changes nothing', async () => {
    await form().getByLabel('Current password').fill('Not-My-Passw0rd');
    await form().getByLabel('New password').fill(NEW_PASSWORD);
    await form().getByRole('button', { name: 'Change password' }).click();
    const error = form().getByRole('alert');
    await error.waitFor();
    // The form's words, not the API's keys ("current_password: current_password is not ...").
    expect(await error.innerText()).toBe('Current password is not your current password.');
    expect(await form().getByRole('status').count()).toBe(0);
    // The same for the new password, here the one the user already has.
    await form().getByLabel('Current password').fill(OLD_PASSWORD);
    await form().getByLabel('New password').fill(OLD_PASSWORD);
    await form().getByRole('button', { name: 'Change password' }).click();
    await form().getByText('New password must differ from the current password.', { exact: true }).waitFor();
    expect(await error.innerText()).toBe('New password must differ from the current password.');
    // Still signed in, on the same page, and the password is the old one.
    expect(new URL(page.url()).pathname).toBe('/app/account');
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect((await login(NEW_PASSWORD)).body).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
    expect((await call('GET', '/api/leads', undefined, otherSession)).status).toBe(200);
    await form().getByLabel('Current password').fill('');
    await form().getByLabel('New password').fill('');
  }, 60_000);

  it('changes the password with the right one, confirms it, and keeps this tab signed in', async () => {
    await form().getByLabel('Current password').fill(OLD_PASSWORD);
    await form().getByLabel('New password').fill(NEW_PASSWORD);
    await form().getByRole('button', { name: 'Change password' }).click();
    const done = form().getByRole('status');
    await done.waitFor();
    expect(await done.innerText()).toBe('Password changed. Other sessions have been signed out.');
    expect(await form().getByRole('alert').count()).toBe(0);
    // The form is emptied, so the passwords do not stay in the page.
    expect(await form().getByLabel('Current password').inputValue()).toBe('');
    expect(await form().getByLabel('New password').inputValue()).toBe('');

    // The effect, through the API: the new password signs in, the old one does not, and the
    // session opened before the change has ended.
    const withNew = await login(NEW_PASSWORD);
    expect(withNew.status, JSON.stringify(withNew.body)).toBe(200);
    expect(withNew.body['user']).toMatchObject({ email: USER.email, role: 'manager' });
    const withOld = await login(OLD_PASSWORD);
    expect(withOld.status).toBe(401);
    expect(withOld.body).toMatchObject({
      error: { code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' },
    });
    const ended = await call('GET', '/api/leads', undefined, otherSession);
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ error: { code: 'TOKEN_INVALID' } });

    // This tab goes on with the session the answer carried: another screen still loads.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Leads', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
    await page.getByText('No lead matches.').waitFor();
    const token = await page.evaluate(`JSON.parse(sessionStorage.getItem('leadstream.session') ?? '{}').token`);
    expect(typeof token).toBe('string');
    expect((await call('GET', '/api/leads', undefined, String(token))).status).toBe(200);
  }, 60_000);

  it('signs out, refuses the old password at sign-in and accepts the new one', async () => {
    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(OLD_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refused = page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.innerText()).toBe('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    expect(await page.evaluate(`sessionStorage.getItem('leadstream.session')`)).toBeNull();

    await signIn(page, base, USER.email, NEW_PASSWORD);
    expect(await page.getByTestId('signed-in-as').innerText()).toBe('Morgan Manager · manager');
    await page.getByTestId('signed-in-as').click();
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
    expect(await page.locator('main p.muted').first().innerText()).toBe(
      `Signed in as Morgan Manager (${USER.email}), manager.`,
    );

    expect(outside).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
