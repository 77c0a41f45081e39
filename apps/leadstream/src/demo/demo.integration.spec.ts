/** `leadstream demo` as a user runs it: a fresh DATA_DIR, every outcome shown, exit code 0. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'main.ts');
const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('leadstream demo', () => {
  it('seeds, streams 60 leads to itself, prints every outcome and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'demo'], {
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
    expect(stdout).toMatch(/vk_live_\w+/);
    expect(stdout).toMatch(/vk_test_\w+/);
    const rows = stdout.split('\n').filter((line) => /^\s*\d+\s{2}/.test(line));
    expect(rows).toHaveLength(60);
    const statusOf = (scenario: string): string[] => rows.filter((row) => row.includes(scenario)).map((row) => /\s(\d{3})\s/.exec(row)?.[1] ?? '');
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
    expect(rows.filter((row) => row.includes('application (live)') && / 201 /.test(row)).length).toBeGreaterThan(10);
    expect(stdout).toMatch(/summary by outcome[\s\S]*accepted\s+\d+[\s\S]*duplicate\s+2[\s\S]*total\s+60/);
  }, 180_000);
});
