/**
 * The ingestion benchmark's baseline: a bare Koa app with the same koa-body options as the api,
 * answering 201 with a body shaped like the ingest answer. Started as a child process with PORT.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Koa from 'koa';
import { koaBody } from 'koa-body';

const app = new Koa();
app.use(
  koaBody({
    json: true,
    urlencoded: true,
    text: false,
    multipart: false,
    jsonLimit: '1mb',
    formLimit: '64kb',
    jsonStrict: true,
  }),
);
app.use((ctx): void => {
  if (ctx.method === 'GET') {
    ctx.body = { status: 'ready' };
    return;
  }
  const body = ctx.request.body as { email?: unknown };
  ctx.status = 201;
  ctx.body = {
    success: true,
    lead_id: `lead_${randomUUID().replace(/-/g, '')}`,
    email: body.email,
    message: 'Lead accepted',
    timestamp: new Date().toISOString(),
  };
});
const handle = app.callback();
const server = createServer((req, res) => {
  void handle(req, res);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env['PORT'] ?? 0), process.env['HOST'] ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
