import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './error-handler';
import { requestId } from './request-id';
import { methodRouting, pathMethods } from './route-methods';

let server: Server;
let base: string;
const app = new Koa();

beforeAll(async () => {
  app.use(requestId());
  app.use(errorHandler(pino({ level: 'silent' })));
  app.use(methodRouting());
  const fields = new Router();
  fields.get('/api/fields/:id', (ctx) => (ctx.body = { data: ctx.params['id'] }));
  fields.patch('/api/fields/:id', (ctx) => (ctx.body = { data: 'patched' }));
  const jobs = new Router();
  jobs.get('/api/fields/jobs', (ctx) => (ctx.body = { data: [] }));
  app.use(fields.routes());
  app.use(jobs.routes());
  const handler = app.callback();
  server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('methods of a path across routers', () => {
  it('gives a path that a literal route matches to that route alone', () => {
    expect(pathMethods(app, '/api/fields/jobs').sort()).toEqual(['GET', 'HEAD']);
    expect(pathMethods(app, '/api/fields/f1').sort()).toEqual(['GET', 'HEAD', 'PATCH']);
    expect(pathMethods(app, '/api/other')).toEqual([]);
  });

  it('answers OPTIONS with the Allow of the path, and another method with 405 and the same Allow', async () => {
    const options = await fetch(`${base}/api/fields/jobs`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('HEAD, GET');
    const patch = await fetch(`${base}/api/fields/jobs`, {
      method: 'PATCH',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('HEAD, GET');
    expect(await patch.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Method not allowed' } });
    expect((await fetch(`${base}/api/fields/f1`, { method: 'PATCH' })).status).toBe(200);
    expect((await fetch(`${base}/api/other`, { method: 'OPTIONS' })).status).toBe(404);
  });
});
