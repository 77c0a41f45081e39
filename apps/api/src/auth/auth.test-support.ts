/**
 * A real HTTP server for the auth middleware tests: Koa with the production error handler, the
 * embedded store in a temp dir, listening on 127.0.0.1 and, when the host has it, on ::1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Router from '@koa/router';
import { createDal, ensureIndexes, type Dal } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import { errorHandler, nodeHandler, requestId } from '@leadstream/http';
import type { DocumentStore } from '@leadstream/ports';
import Koa from 'koa';
import { pino } from 'pino';

export interface AuthTestServer {
  store: DocumentStore;
  dal: Dal;
  /** http://127.0.0.1:port */
  v4: string;
  /** http://[::1]:port, or undefined when the host has no IPv6 loopback. */
  v6: string | undefined;
  close(): Promise<void>;
}

async function listen(server: Server, host: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      resolve(host.includes(':') ? `http://[${host}]:${port}` : `http://${host}:${port}`);
    });
  });
}

export async function startAuthTestServer(routes: (dal: Dal) => Router): Promise<AuthTestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'leadstream-auth-'));
  const store = await openEmbeddedStore({ dataDir: dir });
  await ensureIndexes(store);
  const dal = createDal(store);
  const app = new Koa();
  app.silent = true;
  app.use(requestId());
  app.use(errorHandler(pino({ level: 'silent' })));
  const router = routes(dal);
  app.use(router.routes());
  const servers = [createServer(nodeHandler(app)), createServer(nodeHandler(app))];
  const v4 = await listen(servers[0]!, '127.0.0.1');
  const v6 = await listen(servers[1]!, '::1');
  if (!v4) throw new Error('cannot listen on 127.0.0.1');
  return {
    store,
    dal,
    v4,
    v6,
    async close() {
      for (const server of servers) if (server.listening) await new Promise((resolve) => server.close(resolve));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
