/**
 * The API reference page (/docs) in a real browser: `leadstream start`, Chromium driven by
 * playwright-core. The page renders every operation of /api/openapi.json with nothing loaded from
 * outside the process, and a screenshot is kept in artifacts/docs-page.png.
 *
 * Needs /usr/bin/chromium (Debian's `chromium`; .ci/run installs it). Without it the suite is
 * skipped with a printed reason, except under REQUIRE_INFRA=1 where that fails the run.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '../../../artifacts');
const chromiumAvailable = existsSync(CHROMIUM);
const requireInfra = process.env['REQUIRE_INFRA'] === '1';
if (!chromiumAvailable)
  console.warn(`docs.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

describe('chromium for the docs page test', () => {
  it.runIf(requireInfra)('is installed (REQUIRE_INFRA=1)', () => {
    expect(chromiumAvailable, `${CHROMIUM} is absent; .ci/run installs it with apt-get install chromium`).toBe(true);
  });
});

describe.skipIf(!chromiumAvailable)('the docs page in Chromium', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-docs-'));
  let server: CliProcess;
  let base = '';
  let browser: Browser;

  beforeAll(async () => {
    server = CliProcess.start(['start'], serviceEnv({ DATA_DIR: dataDir }));
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    base = String(listening['url']);
    browser = await chromium.launch({
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
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (server) {
      server.kill('SIGTERM');
      await server.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('renders every operation of the served document, loading nothing from outside the process', async () => {
    const document = (await (await fetch(`${base}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operationCount = Object.values(document.paths).reduce(
      (count, item) => count + Object.keys(item).filter((key) => key !== 'servers').length,
      0,
    );
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requested: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 30_000 }).toBe(operationCount);
    expect(await page.locator('.info .title').innerText()).toContain('leadstream API');
    expect(requested.filter((address) => !address.startsWith(base) && !address.startsWith('data:'))).toEqual([]);
    expect(consoleErrors).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = join(ARTIFACTS, 'docs-page.png');
    await page.screenshot({ path: screenshot, fullPage: false });
    expect(statSync(screenshot).size).toBeGreaterThan(10_000);

    // Open one operation: its parameters and answers are shown from the document.
    await page.locator('#operations-Leads-listLeads .opblock-summary').click();
    await page.waitForSelector('#operations-Leads-listLeads .parameters', { timeout: 10_000 });
    expect(await page.locator('#operations-Leads-listLeads').innerText()).toContain('sortOrder');

    await page.close();
  }, 90_000);
});
