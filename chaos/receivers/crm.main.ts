/**
 * The CRM of a chaos run: a generic JSON CRM on loopback (a `webhook_json` connection, docs/crm.md)
 * that upserts by `external_id`, as the crm-sync stage expects of a receiver, and counts: records
 * by external id, how many calls each got, and how many records each email has. A connection test
 * (`x-leadstream-test: true`) stores nothing.
 *
 *   AUTH=<expected Authorization header> node --import tsx chaos/receivers/crm.main.ts
 *
 * Prints one JSON line on stdout once it listens: {"url": ...}; GET /_records answers the counts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface CrmRecord {
  id: string;
  externalId: string;
  email: string;
  /** Calls for this external id: the first created the record, the others updated it. */
  calls: number;
}

const AUTH = process.env['AUTH'] ?? '';
const records = new Map<string, CrmRecord>();
let calls = 0;
let refused = 0;

const server = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  request.on('end', () => {
    const answer = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const url = new URL(request.url ?? '/', 'http://crm');
    if (request.method === 'GET' && url.pathname === '/_records') {
      // ?external_id=<id>: only that record (the probes ask often).
      const only = url.searchParams.get('external_id');
      return answer(200, {
        calls,
        refused,
        records: only === null ? [...records.values()] : [records.get(only)].filter(Boolean),
      });
    }
    if (request.method !== 'POST' || request.url !== '/crm') return answer(404, { error: { message: 'not found' } });
    if (request.headers.authorization !== AUTH) {
      refused++;
      return answer(401, { error: { message: 'bad credentials' } });
    }
    if (request.headers['x-leadstream-test'] === 'true') return answer(200, { ok: true });
    let body: { external_id?: unknown; lead?: { email?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      refused++;
      return answer(400, { error: { message: 'not JSON' } });
    }
    const externalId =
      typeof body.external_id === 'string' ? body.external_id : String(request.headers['idempotency-key'] ?? '');
    if (!externalId) {
      refused++;
      return answer(422, { error: { message: 'external_id is required' } });
    }
    calls++;
    const existing = records.get(externalId);
    if (existing) {
      existing.calls++;
      return answer(200, { id: existing.id });
    }
    const email = typeof body.lead?.email === 'string' ? body.lead.email : '';
    const record: CrmRecord = { id: `crmrec_${records.size + 1}`, externalId, email, calls: 1 };
    records.set(externalId, record);
    return answer(201, { id: record.id });
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm` })}\n`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}
