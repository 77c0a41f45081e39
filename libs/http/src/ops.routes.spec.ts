import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Metrics } from '@leadstream/runtime';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHandler } from './node-handler';
import { opsRoutes } from './ops.routes';

let server: Server;
let base = '';
let analyticsUp = true;
let storeUp = true;

beforeAll(async () => {
  const app = new Koa();
  const ops = opsRoutes(
    [
      {
        name: 'store',
        check: async () => {
          if (!storeUp) throw new Error('store is down');
        },
      },
      {
        name: 'analytics',
        check: async () => {
          if (!analyticsUp) throw new Error('analytics is down');
        },
        degradeOnly: true,
      },
    ],
    new Metrics(),
  );
  app.use(ops.routes());
  server = createServer(nodeHandler(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const readyz = async (): Promise<{ status: number; body: unknown }> => {
  const response = await fetch(`${base}/readyz`);
  return { status: response.status, body: await response.json() };
};

describe('/readyz with a dependency the process works without', () => {
  it('stays ready, degraded, naming the failing check, while only that dependency is down', async () => {
    expect(await readyz()).toEqual({
      status: 200,
      body: { status: 'ready', checks: { store: { ok: true }, analytics: { ok: true } } },
    });
    analyticsUp = false;
    expect(await readyz()).toEqual({
      status: 200,
      body: {
        status: 'degraded',
        checks: { store: { ok: true }, analytics: { ok: true, status: 'degraded', error: 'analytics is down' } },
      },
    });
    storeUp = false;
    expect(await readyz()).toEqual({
      status: 503,
      body: {
        status: 'unready',
        checks: {
          store: { ok: false, error: 'store is down' },
          analytics: { ok: true, status: 'degraded', error: 'analytics is down' },
        },
      },
    });
    storeUp = true;
    analyticsUp = true;
    expect(await readyz()).toEqual({
      status: 200,
      body: { status: 'ready', checks: { store: { ok: true }, analytics: { ok: true } } },
    });
  });
});
