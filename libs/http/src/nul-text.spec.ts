import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './error-handler';
import { refuseNulText } from './nul-text';
import { requestId } from './request-id';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = new Koa();
  app.use(requestId());
  app.use(errorHandler(pino({ level: 'silent' })));
  app.use(koaBody({ json: true, jsonStrict: true }));
  app.use(refuseNulText());
  const router = new Router();
  router.post('/api/things', (ctx) => (ctx.body = { data: ctx.request.body }));
  router.get('/api/things', (ctx) => (ctx.body = { data: ctx.query }));
  app.use(router.routes());
  const handler = app.callback();
  server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const post = async (body: unknown): Promise<{ status: number; body: unknown }> => {
  const response = await fetch(`${base}/api/things`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

describe('text with the NUL character', () => {
  it('is refused wherever it is in a body, value or key, naming where', async () => {
    expect(await post({ label: 'a\u0000b' })).toEqual({
      status: 400,
      body: {
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Validation failed',
          details: [{ field: 'label', message: 'label must not contain the NUL character (U+0000)' }],
        },
      },
    });
    expect((await post({ custom_fields: { deep: [{ x: '\u0000' }] } })).body).toMatchObject({
      error: { details: [{ field: 'custom_fields.deep.0.x' }] },
    });
    expect((await post({ custom_fields: { 'a\u0000': 1 } })).body).toMatchObject({
      error: { details: [{ field: 'custom_fields.a\\u0000' }] },
    });
  });

  it('is refused in a query parameter, and everything else passes', async () => {
    const refused = await fetch(`${base}/api/things?search=a%00b`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { message: 'Invalid query parameters', details: [{ field: 'search' }] },
    });
    expect(await post({ label: 'tab\tand \u0001 are fine' })).toEqual({
      status: 200,
      body: { data: { label: 'tab\tand \u0001 are fine' } },
    });
  });
});
