/**
 * `leadstream demo` as a user runs it: a fresh DATA_DIR, every outcome shown, exit code 0; beside
 * a running server on the same DATA_DIR, one line and exit code 1 with nothing written; with
 * --keep-running, the printed console address serves the console and the printed owner signs in.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COLLECTIONS } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { afterAll, describe, expect, it } from 'vitest';
import { CliProcess, commandLine } from '../test-support/cli-process';

const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-demo-'));
const busyDataDir = mkdtempSync(join(tmpdir(), 'leadstream-demo-busy-'));
const keptDataDir = mkdtempSync(join(tmpdir(), 'leadstream-demo-kept-'));
afterAll(() => {
  for (const dir of [dataDir, busyDataDir, keptDataDir]) rmSync(dir, { recursive: true, force: true });
});

describe('leadstream demo', () => {
  it('seeds, streams 60 leads to itself, prints every outcome and exits 0', async () => {
    const child = spawn(process.execPath, commandLine(['demo']), {
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', DATA_DIR: dataDir, HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/organization\s+org_/);
    expect(stdout).toMatch(/owner sign-in\s+owner-\S+@demo-state\.example\.edu\s+password \S{20}\s/);
    expect(stdout).toMatch(/vk_live_\w+/);
    expect(stdout).toMatch(/vk_test_\w+/);
    expect(stdout).toMatch(
      /funnel: +curl -H 'Authorization: Bearer vk_live_\w+' http:\/\/\S+\/api\/analytics\/funnel\/overview/,
    );
    const rows = stdout.split('\n').filter((line) => /^\s*\d+\s{2}/.test(line));
    expect(rows).toHaveLength(60);
    const statusOf = (scenario: string): string[] =>
      rows.filter((row) => row.includes(scenario)).map((row) => /\s(\d{3})\s/.exec(row)?.[1] ?? '');
    expect(statusOf('invalid email')).toEqual(['400']);
    expect(statusOf('missing email')).toEqual(['400']);
    expect(statusOf('disposable email')).toEqual(['422']);
    expect(statusOf('bot honeypot')).toEqual(['422']);
    expect(statusOf('typo (gmial.com)')).toEqual(['201']);
    expect(statusOf('too-fast form')).toHaveLength(1);
    expect(statusOf('duplicate (same email)')).toEqual(['409']);
    expect(statusOf('near-duplicate')).toEqual(['409']);
    expect(statusOf('sandbox test lead')).toEqual(['201']);
    expect(statusOf('sandbox disposable')).toEqual(['422']);
    expect(statusOf('applies after inquiring')).toEqual(['201']);
    expect(rows.filter((row) => row.includes('application (live)') && / 201 /.test(row)).length).toBeGreaterThan(10);
    expect(stdout).toMatch(/summary by outcome[\s\S]*accepted\s+\d+[\s\S]*duplicate\s+2[\s\S]*total\s+60/);
  }, 180_000);

  it('beside a running server on the same DATA_DIR, says so in one line, exits 1 and writes no organization', async () => {
    const server = CliProcess.start(['start'], {
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: busyDataDir,
    });
    try {
      await server.waitFor((line) => line.msg === 'ready', 120_000);
      const demo = CliProcess.start(['demo'], { HOST: '127.0.0.1', DATA_DIR: busyDataDir });
      expect(await demo.exited).toEqual({ code: 1, signal: null });
      expect(demo.errorOutput).toMatch(
        /^leadstream demo: DATA_DIR \S+ is in use by another process \(pid \d+\).*nothing was written.*\n$/,
      );
      expect(demo.errorOutput.trimEnd().split('\n')).toHaveLength(1);
      expect(demo.output).toBe('');
    } finally {
      server.kill('SIGTERM');
      expect(await server.exited, server.errorOutput).toEqual({ code: 0, signal: null });
    }
    const store = await openEmbeddedStore({ dataDir: join(busyDataDir, 'store') });
    try {
      expect(await store.collection(COLLECTIONS.organizations).countDocuments({})).toBe(0);
    } finally {
      await store.close();
    }
  }, 180_000);

  it('with --keep-running, prints a console address that serves the console and an owner sign-in that works', async () => {
    const demo = CliProcess.start(['demo', '--keep-running', '--leads', '12'], {
      HOST: '127.0.0.1',
      DATA_DIR: keptDataDir,
    });
    try {
      await expect.poll(() => demo.output, { timeout: 120_000, interval: 200 }).toContain('the service keeps running');
      const consoleUrl = /^web console +(http:\/\/\S+)/m.exec(demo.output)?.[1] ?? '';
      const service = /service at (http:\/\/\S+)/.exec(demo.output)?.[1] ?? '';
      expect(consoleUrl).toBe(`${service}/app/`);
      const page = await fetch(consoleUrl);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<div id="root">');
      const [, email = '', password = ''] = /owner sign-in +(\S+) +password (\S+)/.exec(demo.output) ?? [];
      const login = await fetch(`${service}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      expect(login.status).toBe(200);
      const session = (await login.json()) as { user: { role: string } };
      expect(session.user.role).toBe('owner');
    } finally {
      demo.kill('SIGTERM');
      await demo.exited;
    }
  }, 180_000);
});
