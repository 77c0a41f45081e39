/**
 * OAuth 2.0 authorization code (docs/decisions.md "OAuth 2.0") end to end, as a user meets it: the
 * real `leadstream start` process, a third-party application (a tiny HTTP server on 127.0.0.1
 * receiving the redirect) and Chromium driven by playwright-core. Sign in on the authorize page,
 * approve, land on the redirect with `code` and the same `state`, exchange the code with PKCE, call
 * the user API with the access token; and the Deny path.
 *
 * Needs /usr/bin/chromium (Debian's `chromium`; .ci/run installs it). Without it the suite is
 * skipped with a printed reason, except under REQUIRE_INFRA=1 where that fails the run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { jsonClient } from './test-support/json-client';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOT = '/tmp/oauth-consent.png';
const chromiumAvailable = existsSync(CHROMIUM);
const requireInfra = process.env['REQUIRE_INFRA'] === '1';
if (!chromiumAvailable)
  console.warn(`oauth.browser.integration.spec: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

describe('chromium for the OAuth browser test', () => {
  it.runIf(requireInfra)('is installed (REQUIRE_INFRA=1)', () => {
    expect(chromiumAvailable, `${CHROMIUM} is absent; .ci/run installs it with apt-get install chromium`).toBe(true);
  });
});

describe.skipIf(!chromiumAvailable)('OAuth 2.0 in a browser against leadstream start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-oauth-'));
  let server: CliProcess;
  let base: string;
  let app: Server;
  let appBase: string;
  let browser: Browser;
  const received: string[] = [];
  let owner: string;
  let client: { id: string; secret: string };

  const call = jsonClient(() => base);

  async function token(fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  function authorizeUrl(state: string, challenge: string): string {
    const query = new URLSearchParams({
      client_id: client.id,
      redirect_uri: `${appBase}/callback`,
      response_type: 'code',
      scope: 'vendors:read leads:read',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${base}/oauth/authorize?${query.toString()}`;
  }

  async function signIn(page: Page, url: string): Promise<void> {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain(
      'Sign in to continue to Campus CRM',
    );
    await page.getByLabel('Email').fill('registrar@oauth.edu');
    await page.getByLabel('Password').fill('Passw0rd!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Campus CRM wants to access your LeadStream account' }).waitFor();
  }

  beforeAll(async () => {
    server = CliProcess.start(['start'], serviceEnv({ DATA_DIR: dataDir, APP_URL: 'https://leads.college.edu' }));
    app = createServer((request, response) => {
      received.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Campus CRM</title><h1>Back in Campus CRM</h1>');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    appBase = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
    await server.waitFor((line) => line.msg === 'ready');
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

    const registered = await call('POST', '/api/auth/register', {
      email: 'registrar@oauth.edu',
      password: 'Passw0rd!',
      first_name: 'Rita',
      last_name: 'Registrar',
      organization_name: 'Browser State University',
    });
    expect(registered.status).toBe(201);
    owner = String(registered.body['token']);
    expect((await call('POST', '/api/vendors', { name: 'Open House Forms', type: 'inquiry' }, owner)).status).toBe(201);
    const created = await call(
      'POST',
      '/api/oauth/clients',
      { name: 'Campus CRM', redirect_uris: [`${appBase}/callback`] },
      owner,
    );
    expect(created.status).toBe(201);
    const clientRecord = created.body['data'] as { id: string; client_secret: string };
    client = { id: clientRecord.id, secret: clientRecord.client_secret };
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => app?.close(resolve));
    server?.kill('SIGTERM');
    await server?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in, approves, lands on the redirect with a code, and the token works within its scopes only', async () => {
    const verifier = randomBytes(48).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(12).toString('hex');
    const context = await browser.newContext({ viewport: { width: 900, height: 820 } });
    try {
      const page = await context.newPage();
      await signIn(page, authorizeUrl(state, challenge));
      const consent = await page.locator('main').innerText();
      expect(consent).toContain('Browser State University');
      expect(consent).toContain('registrar@oauth.edu');
      expect(consent).toContain('View your lead vendors');
      expect(consent).toContain('View your leads and their activity');
      const cookies = await context.cookies(`${base}/oauth/authorize`);
      expect(cookies).toEqual([
        expect.objectContaining({
          name: 'leadstream_oauth',
          httpOnly: true,
          sameSite: 'Lax',
          path: '/oauth/authorize',
        }),
      ]);
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(`${appBase}/callback?**`);
      await expect(page.getByRole('heading').textContent()).resolves.toBe('Back in Campus CRM');
      const landed = new URL(page.url());
      expect(landed.searchParams.get('state')).toBe(state);
      const code = landed.searchParams.get('code') ?? '';
      expect(code).toMatch(/^occ_/);
      expect(received).toContain(`${landed.pathname}${landed.search}`);

      const exchange = {
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${appBase}/callback`,
        client_id: client.id,
        client_secret: client.secret,
        code_verifier: verifier,
      };
      const tokens = await token(exchange);
      expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 3600 } });
      const access = String(tokens.body['access_token']);

      const vendors = await call('GET', '/api/vendors', undefined, access);
      expect(vendors.status).toBe(200);
      expect(JSON.stringify(vendors.body)).toContain('Open House Forms');
      const outside = await call('POST', '/api/vendors', { name: 'Not Allowed', type: 'inquiry' }, access);
      expect(outside).toMatchObject({ status: 403, body: { error: { code: 'INSUFFICIENT_PERMISSIONS' } } });
      expect((await call('GET', '/api/users', undefined, access)).status).toBe(403);

      expect(await token(exchange)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
      // The replay revoked what the code had produced.
      expect(await call('GET', '/api/vendors', undefined, access)).toMatchObject({
        status: 401,
        body: { error: { code: 'TOKEN_INVALID' } },
      });
    } finally {
      await context.close();
    }
  });

  it('Deny sends the user back with error=access_denied and the same state', async () => {
    const state = 'deny-' + randomBytes(6).toString('hex');
    const challenge = createHash('sha256').update(randomBytes(48).toString('base64url')).digest('base64url');
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, authorizeUrl(state, challenge));
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL(`${appBase}/callback?**`);
      const landed = new URL(page.url());
      expect(landed.searchParams.get('error')).toBe('access_denied');
      expect(landed.searchParams.get('state')).toBe(state);
      expect(landed.searchParams.get('code')).toBeNull();
    } finally {
      await context.close();
    }
  });
});
