/**
 * What the console's Chromium specs share: where Chromium is, building the console, launching the
 * browser, watching a page for script errors and requests to other origins, screenshots in
 * artifacts/, the navigation and the sign-in form, stopping the browser and the service, and
 * `ConsoleSession`, which does all of the set-up a spec needs in two calls.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CliProcess, serviceEnv } from './cli-process';
import { jsonClient, type JsonCall } from './json-client';

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

/** What POST /api/auth/register takes to make a fresh organization and its owner. */
export interface ConsoleOwner {
  email: string;
  password: string;
  first_name: string;
  last_name: string;
  organization_name: string;
}

/**
 * A console spec's service and browser. `start` builds the console, starts `leadstream start` on a
 * data directory of its own and registers the owner of a fresh organization; the spec may then
 * prepare data through the API; `openPage` launches Chromium and signs the owner in on a page
 * whose script errors and requests to other origins go to `consoleErrors` and `outside`; `close`
 * (in afterAll) stops whatever started and removes the data directory.
 */
export class ConsoleSession {
  readonly consoleErrors: string[] = [];
  readonly outside: string[] = [];
  /** JSON calls against the service, once `start` has run. */
  readonly call: JsonCall = jsonClient(() => this.base);
  base = '';
  /** The owner's bearer token. */
  token = '';
  private dataDir: string | undefined;
  private server: CliProcess | undefined;
  private browser: Browser | undefined;

  /** `name` tells the data directory (leadstream-console-<name>-…) apart. */
  constructor(
    private readonly name: string,
    private readonly owner: ConsoleOwner,
  ) {}

  /** Builds the console, starts the service with `env` added to its own, registers the owner. */
  async start(env: Record<string, string> = {}): Promise<{ base: string; token: string }> {
    buildConsole();
    this.dataDir = mkdtempSync(join(tmpdir(), `leadstream-console-${this.name}-`));
    ({ server: this.server, url: this.base } = await CliProcess.startService(
      serviceEnv({ DATA_DIR: this.dataDir, ...env }),
    ));
    const registered = await this.call('POST', '/api/auth/register', this.owner);
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    this.token = String(registered.body['token']);
    return { base: this.base, token: this.token };
  }

  /** Launches Chromium, opens a watched page of this size and signs the owner in (the leads screen shows). */
  async openPage(viewport: { width: number; height: number } = { width: 1280, height: 860 }): Promise<Page> {
    this.browser = await launchChromium();
    const page = await this.browser.newPage({ viewport });
    watchPage(page, this.base, this);
    await signIn(page, this.base, this.owner.email, this.owner.password);
    return page;
  }

  async close(): Promise<void> {
    await closeBrowserAndService(this.browser, this.server);
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }
}
