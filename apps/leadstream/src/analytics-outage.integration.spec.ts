/**
 * An analytics outage never takes ingestion down: `leadstream start` (embedded log and store) with
 * CLICKHOUSE_URL pointing at a TCP relay in front of the ClickHouse server of `npm run infra:up`.
 * With the relay closed, /readyz stays 200 with the analytics check `degraded`, and leads are
 * still accepted; once it is open again the projector catches up and /readyz is `ready`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupInfra } from '@leadstream/ports/contract/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { jsonClient } from './test-support/json-client';

const clickhouse = lookupInfra('CLICKHOUSE_URL');
const dataDir = mkdtempSync(join(tmpdir(), 'leadstream-analytics-outage-'));
let server: CliProcess | undefined;
let url = '';
const call = jsonClient(() => url);

/** A TCP relay to the ClickHouse server that can refuse connections and cut the open ones. */
class Relay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(Number(this.target.port), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

const relay = clickhouse.value ? new Relay(new URL(clickhouse.value)) : undefined;

beforeAll(async () => {
  if (!relay) return;
  await relay.open();
  ({ server, url } = await CliProcess.startService(
    serviceEnv({ DATA_DIR: dataDir, CLICKHOUSE_URL: `http://127.0.0.1:${relay.port}` }),
  ));
}, 180_000);

afterAll(async () => {
  if (server) {
    server.kill('SIGTERM');
    await server.exited;
  }
  await relay?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.skipIf(!clickhouse.value)('an analytics outage on leadstream start', () => {
  it('degrades /readyz and keeps accepting leads, then recovers and projects them', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'outage.owner@example.edu',
      password: 'Outage-Passw0rd',
      first_name: 'Out',
      last_name: 'Age',
      organization_name: 'Outage College',
    });
    const token = String(registered.body['token']);
    const vendor = String(
      data((await call('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry' }, token)).body)['id'],
    );
    const key = String(
      data((await call('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }, token)).body)['key'],
    );
    expect(await call('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });

    await relay!.close();
    const degraded = await eventually(
      '/readyz while analytics is down',
      () => call('GET', '/readyz'),
      (answer) => answer.body['status'] === 'degraded',
    );
    expect(degraded.status).toBe(200);
    const check = Object.entries(degraded.body['checks'] as Record<string, Record<string, unknown>>).find(([name]) =>
      name.startsWith('analytics:'),
    );
    expect(check?.[1]).toMatchObject({ ok: true, status: 'degraded', error: expect.any(String) });

    const ids: string[] = [];
    for (const name of ['ann', 'bob', 'cat']) {
      const answer = await call(
        'POST',
        '/api/v1/leads/ingest',
        { email: `${name}.outage@example.edu`, first_name: name, last_name: 'Outage' },
        key,
      );
      expect(answer).toMatchObject({ status: 201, body: { success: true, message: 'Lead accepted' } });
      ids.push(String(answer.body['lead_id']));
    }

    await relay!.open();
    await eventually(
      '/readyz after analytics is back',
      () => call('GET', '/readyz'),
      (answer) => answer.body['status'] === 'ready',
    );
    // The projector kept the events and inserts them once ClickHouse answers again.
    const overview = await eventually(
      'the three leads in the analytics overview',
      async () => data((await call('GET', '/api/analytics', undefined, token)).body),
      (body) => (body['totals'] as Record<string, number> | undefined)?.['submitted'] === 3,
    );
    expect(overview['totals']).toMatchObject({ submitted: 3, accepted: 3 });
  }, 180_000);
});
