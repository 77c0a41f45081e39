/**
 * A CRM on loopback for end-to-end tests of routing and CRM sync: a node:http server that takes
 * any JSON POST, answers a record id (`rec_<external_id>`) and remembers what it got, by path.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A CRM that takes any JSON POST and answers a record id; remembers what it got, by path. */
export class LoopbackCrm {
  readonly received: Array<{ path: string; body: Record<string, unknown> }> = [];
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
        // Connection tests (X-Leadstream-Test) are answered without being recorded.
        if (request.headers['x-leadstream-test'] !== 'true') this.received.push({ path: request.url ?? '', body });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ id: `rec_${typeof body['external_id'] === 'string' ? body['external_id'] : 'test'}` }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** The body of POST /api/crm/connections for a JSON webhook connection to `path` of this CRM. */
  connection(name: string, path: string): Record<string, unknown> {
    return { name, type: 'webhook_json', settings: { url: `${this.url}${path}` }, credentials: {} };
  }

  /** How many times the lead reached `path`. */
  to(path: string, leadId: string): number {
    return this.received.filter((got) => got.path === path && got.body['external_id'] === leadId).length;
  }
}
