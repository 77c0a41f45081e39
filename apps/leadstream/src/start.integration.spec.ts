/**
 * `leadstream start` as a user runs it: one process, health and readiness green, metrics
 * exposed, a clean exit on SIGTERM, and a restart on the same DATA_DIR that finds its data.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { afterAll, describe, expect, it } from 'vitest';
import { CliProcess } from './test-support/cli-process';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-start-'));
  dirs.push(dir);
  return dir;
}

async function boot(env: Record<string, string>): Promise<{ process: CliProcess; url: string }> {
  const process = CliProcess.start(['start'], { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env });
  const listening = await process.waitFor((line) => line.msg === 'api listening', 120_000);
  await process.waitFor((line) => line.msg === 'ready');
  return { process, url: String(listening['url']) };
}

async function stop(process: CliProcess): Promise<void> {
  process.kill('SIGTERM');
  expect(await process.exited, process.errorOutput).toEqual({ code: 0, signal: null });
}

describe('leadstream start on the embedded engines', () => {
  const dataDir = freshDataDir();

  it('serves healthz, readyz and metrics, and exits cleanly on SIGTERM', async () => {
    const { process, url } = await boot({ DATA_DIR: dataDir });
    try {
      expect(process.lines.some((line) => line.msg === 'analytics migrations applied')).toBe(true);
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      expect(health.headers.get('x-request-id')).toMatch(/^req_/);

      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ready',
        checks: {
          'log:embedded': { ok: true },
          'store:embedded': { ok: true },
          'analytics:chdb': { ok: true },
          // MX lookups are on by default; DNS state is shown but never makes the process unready.
          dns: expect.objectContaining({ ok: true, mx_check: 'on' }) as unknown,
          // The partitions each thread's consumers hold: none stuck (a stuck one makes the check degraded, never unready).
          partitions: { ok: true, status: 'ok', stuck_after_ms: 120_000 },
          'partitions:pipeline-thread': { ok: true, status: 'ok', stuck_after_ms: 120_000 },
        },
      });

      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toContain('leadstream_http_request_duration_seconds_bucket');
      expect(metrics).toContain('leadstream_messages_produced_total');
    } finally {
      await stop(process);
    }
    expect(process.lines.some((line) => line.msg === 'shutdown complete')).toBe(true);
  }, 180_000);

  it('restarts on the same DATA_DIR without re-applying migrations, and refuses a second process on it', async () => {
    const { process, url } = await boot({ DATA_DIR: dataDir });
    try {
      expect(process.lines.some((line) => line.msg === 'analytics migrations applied')).toBe(false);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);

      const second = CliProcess.start(['start'], { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir });
      const exit = await second.exited;
      expect(exit.code).toBe(1);
      expect(second.errorOutput).toMatch(/lock/i);
      // One line, no stack trace.
      expect(second.errorOutput.trim().split('\n')).toHaveLength(1);
    } finally {
      await stop(process);
    }
  }, 180_000);

  it('stops at boot with a message naming a bad variable', async () => {
    const process = CliProcess.start(['start'], { DATA_DIR: freshDataDir(), PORT: 'eighty' });
    expect((await process.exited).code).toBe(2);
    expect(process.errorOutput).toContain('PORT: must be a whole number');
  }, 60_000);
});

const kafka = lookupInfra('KAFKA_BROKERS');
const mongodb = lookupInfra('MONGODB_URI');

describe.skipIf(!kafka.value || !mongodb.value)('leadstream start on Kafka and a MongoDB-protocol server', () => {
  it('reports both distributed engines ready', async () => {
    const { process, url } = await boot({
      DATA_DIR: freshDataDir(),
      KAFKA_BROKERS: kafka.value ?? '',
      MONGODB_URI: mongodb.value ?? '',
      MONGODB_DB: `start_${randomUUID().slice(0, 8)}`,
      TOPIC_PREFIX: `start-${randomUUID().slice(0, 8)}.`,
    });
    try {
      const ready = await fetch(`${url}/readyz`);
      expect(await ready.json()).toMatchObject({
        status: 'ready',
        checks: { 'log:kafka': { ok: true }, 'store:mongodb': { ok: true }, 'analytics:chdb': { ok: true } },
      });
    } finally {
      await stop(process);
    }
  }, 180_000);
});
