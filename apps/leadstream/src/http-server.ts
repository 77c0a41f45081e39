import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { nodeHandler } from '@leadstream/http';
import type Koa from 'koa';

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting connections, lets requests in flight finish, then drops idle keep-alives. */
  close(graceMs: number): Promise<void>;
}

export async function listen(app: Koa, host: string, port: number): Promise<RunningServer> {
  const server = createServer(nodeHandler(app));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: (graceMs) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
