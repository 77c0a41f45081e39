/**
 * The webhook receiver of a chaos run, in a process of its own so that the suite can SIGSTOP it:
 * the receiver of the end-to-end tests (apps/leadstream/src/test-support/webhook-receiver.ts:
 * Stripe's verifier on every signature, the payload schema on every event) on one port, and a
 * small control port where the suite registers a webhook's secret and reads what arrived.
 *
 * Prints one JSON line on stdout once both listen: {"url": ..., "control": ...}.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookReceiver } from '../../apps/leadstream/src/test-support/webhook-receiver';

function leadIdOf(data: Record<string, unknown>): string | null {
  const lead = data['lead'] as { id?: unknown } | undefined;
  if (typeof data['lead_id'] === 'string') return data['lead_id'];
  return typeof lead?.id === 'string' ? lead.id : null;
}

const receiver = new WebhookReceiver();
await receiver.start();

const control = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  request.on('end', () => {
    if (request.method === 'POST' && request.url === '/secret') {
      const { path, secret } = JSON.parse(text) as { path: string; secret: string };
      receiver.secrets.set(path, secret);
      response.writeHead(204).end();
      return;
    }
    const url = new URL(request.url ?? '/', 'http://control');
    if (request.method === 'GET' && url.pathname === '/received') {
      // ?lead=<id>: only that lead's deliveries (the probes ask often).
      const lead = url.searchParams.get('lead');
      const received = receiver.received
        .filter((entry) => lead === null || leadIdOf(entry.data) === lead)
        .map((entry) => ({
          path: entry.path,
          id: entry.id,
          event: entry.event,
          organizationId: entry.organizationId,
          leadId: leadIdOf(entry.data),
          problems: entry.problems,
        }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
      return;
    }
    response.writeHead(404).end();
  });
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
process.stdout.write(
  `${JSON.stringify({ url: receiver.url, control: `http://127.0.0.1:${(control.address() as AddressInfo).port}` })}\n`,
);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    control.closeAllConnections();
    control.close();
    void receiver.stop().then(() => process.exit(0));
  });
}
