/**
 * What the console's Chromium specs share: where Chromium is, building the console, launching the
 * browser, watching a page for script errors and requests to other origins, screenshots in
 * artifacts/, the navigation and the sign-in form, and stopping the browser and the service.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import type { CliProcess } from './cli-process';

/** Debian's `chromium` (.ci/run installs it); without it the specs are skipped. */
export const CHROMIUM = '/usr/bin/chromium';
export const chromiumAvailable = existsSync(CHROMIUM);
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const ARTIFACTS = join(ROOT, 'artifacts');

/** The console as it is now (npm install builds it too; a stale build would test old code). */
export function buildConsole(): void {
  execFileSync('npm', ['run', '--silent', 'console:build'], { cwd: ROOT, stdio: 'inherit' });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** Records the page's script errors in `consoleErrors` and its requests to origins other than `base` in `outside`. */
export function watchPage(page: Page, base: string, found: { consoleErrors: string[]; outside: string[] }): void {
  page.on('console', (message) => {
    // The browser logs the API's deliberate error answers (a 409 while a lead is processed); scripts must not fail.
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text()))
      found.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => found.consoleErrors.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith(base) && !/^(data|blob):/.test(request.url())) found.outside.push(request.url());
  });
}

/** A screenshot of the viewport in artifacts/ (listed by .ci/run); returns its file. */
export async function screenshotTo(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  expect(statSync(file).size).toBeGreaterThan(10_000);
  return file;
}

/** Follows a link of the navigation and waits for its screen's heading. */
export async function goTo(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: link }).waitFor();
}

/** Signs in through the form and waits for the leads screen. */
export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/app/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Leads' }).waitFor();
}

/** Closes the browser and stops the service (either may not have started). */
export async function closeBrowserAndService(
  browser: Browser | undefined,
  server: CliProcess | undefined,
): Promise<void> {
  await browser?.close();
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
}
