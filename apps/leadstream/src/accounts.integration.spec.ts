/**
 * The accounts layer against the real `leadstream start` process, as a user meets it: register,
 * log in, refresh, log out; reset a password through the outbox directory (no SMTP configured);
 * create a vendor and an API key and ingest a lead with it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { jsonClient } from './test-support/json-client';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-accounts-'));
let server: CliProcess;
let base: string;

beforeAll(async () => {
  server = CliProcess.start(
    ['start'],
    serviceEnv({ DATA_DIR: dataDir, DECISION_TIMEOUT_MS: '10000', APP_URL: 'https://leads.college.edu' }),
  );
  const listening = await server.waitFor((line) => line.msg === 'api listening', 120_000);
  await server.waitFor((line) => line.msg === 'ready');
  base = String(listening['url']);
}, 180_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

const call = jsonClient(() => base);

const errorCode = (response: { body: Record<string, unknown> }): unknown =>
  (response.body['error'] as { code?: unknown } | undefined)?.code;

describe('accounts on leadstream start', () => {
  let owner: string;

  it('keeps a generated session secret in DATA_DIR/jwt-secret, readable only by its owner', () => {
    const mode = statSync(join(dataDir, 'jwt-secret')).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim().length).toBeGreaterThanOrEqual(32);
  });

  it('registers, logs in, refreshes and logs out; ended tokens are refused', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'dean@college.edu',
      password: 'Passw0rd!',
      first_name: 'Dana',
      last_name: 'Dean',
      organization_name: 'Black Box College',
    });
    expect(registered.status).toBe(201);
    expect(registered.body['user']).toMatchObject({ email: 'dean@college.edu', role: 'owner' });

    const login = await call('POST', '/api/auth/login', { email: 'dean@college.edu', password: 'Passw0rd!' });
    expect(login.status).toBe(200);
    const first = String(login.body['token']);
    const refreshed = await call('POST', '/api/auth/refresh', undefined, first);
    expect(refreshed.status).toBe(200);
    const second = String(refreshed.body['token']);
    expect(errorCode(await call('GET', '/api/organization', undefined, first))).toBe('TOKEN_INVALID');
    expect((await call('GET', '/api/organization', undefined, second)).body['data']).toMatchObject({
      name: 'Black Box College',
    });
    expect((await call('POST', '/api/auth/logout', undefined, second)).status).toBe(204);
    expect(errorCode(await call('GET', '/api/organization', undefined, second))).toBe('TOKEN_INVALID');
    owner = String(registered.body['token']);
  });

  it('resets a password through the outbox when no SMTP server is configured', async () => {
    expect((await call('POST', '/api/auth/forgot-password', { email: 'dean@college.edu' })).status).toBe(200);
    const outbox = join(dataDir, 'outbox');
    let token: string | undefined;
    for (let i = 0; i < 100 && !token; i++) {
      const files = (() => {
        try {
          return readdirSync(outbox).filter((file) => file.endsWith('.json'));
        } catch {
          return [];
        }
      })();
      for (const file of files) {
        const mail = JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { to: string; text: string };
        if (mail.to === 'dean@college.edu')
          token = /https:\/\/leads\.college\.edu\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
      }
      if (!token) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(token).toBeDefined();
    // The server logs after writing the file, and its log line reaches us through a pipe: wait for it.
    const logged = (): boolean => server.lines.some((line) => line.msg.startsWith('mail written to the outbox'));
    for (let i = 0; i < 100 && !logged(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged()).toBe(true);
    expect(JSON.stringify(server.lines)).not.toContain(token);

    expect((await call('POST', '/api/auth/reset-password', { token, new_password: 'Fresh1Pass' })).status).toBe(200);
    expect(errorCode(await call('POST', '/api/auth/reset-password', { token, new_password: 'Fresh2Pass' }))).toBe(
      'INVALID_RESET_TOKEN',
    );
    expect(errorCode(await call('POST', '/api/auth/login', { email: 'dean@college.edu', password: 'Passw0rd!' }))).toBe(
      'INVALID_CREDENTIALS',
    );
    const login = await call('POST', '/api/auth/login', { email: 'dean@college.edu', password: 'Fresh1Pass' });
    expect(login.status).toBe(200);
    owner = String(login.body['token']);
  });

  it('creates a vendor and an API key through the user API, and the key ingests a lead', async () => {
    const vendor = await call('POST', '/api/vendors', { name: 'Open House Forms', type: 'inquiry' }, owner);
    expect(vendor.status).toBe(201);
    const key = await call(
      'POST',
      '/api/api-keys',
      { name: 'forms', vendor_id: (vendor.body['data'] as { id: string }).id, permissions: ['write'] },
      owner,
    );
    expect(key.status).toBe(201);
    const response = await fetch(`${base}/api/v1/leads/ingest`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${(key.body['data'] as { key: string }).key}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        email: 'grace.hopper@example.edu',
        first_name: 'Grace',
        last_name: 'Hopper',
        form_started_at: new Date(Date.now() - 30_000).toISOString(),
      }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ success: true });
    const listed = await call('GET', '/api/api-keys', undefined, owner);
    const keyId = (key.body['data'] as { id: string }).id;
    expect((listed.body['data'] as Array<{ id: string }>).find((entry) => entry.id === keyId)).toMatchObject({
      id: keyId,
      last_used_at: expect.any(String),
    });
  });
});
