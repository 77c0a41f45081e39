import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A port free on loopback right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `check` every `everyMs` until it returns true; resolves with the milliseconds it took, or undefined at the bound. */
export async function waitUntil(
  check: () => Promise<boolean>,
  boundMs: number,
  everyMs = 500,
): Promise<number | undefined> {
  const started = Date.now();
  for (;;) {
    if (await check().catch(() => false)) return Date.now() - started;
    if (Date.now() - started > boundMs) return undefined;
    await sleep(everyMs);
  }
}

/** What every leadstream process of a run shares: loopback, no MX lookups, short retry delays and timeouts, limits raised for load. */
export function commonEnv(): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? 'info',
    MX_CHECK: 'off',
    // Webhook and CRM targets on loopback, over http (tests and development only, README).
    WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
    // An attempt that takes longer than this fails and is retried: the paused receiver is paused past it.
    WEBHOOK_TIMEOUT_MS: '2000',
    WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s',
    WEBHOOK_AUTO_DISABLE_AFTER: '10000',
    CRM_RETRY_SCHEDULE: '1s,2s,5s,10s',
    CRM_TIMEOUT_MS: '5000',
    RATE_LIMIT_SCALE: '1000',
    DECISION_TIMEOUT_MS: '3000',
    SHUTDOWN_TIMEOUT_MS: '8000',
    // Every process of a run must sign and encrypt alike (README: set the same value on every process).
    JWT_SECRET: randomBytes(32).toString('hex'),
    CRM_CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    // Every answer checked against the OpenAPI document, as in the end-to-end tests.
    CHECK_RESPONSES: 'on',
  };
}
