/**
 * The rule-webhook stage against a receiver on loopback: a rule saved before header checks
 * existed may still carry headers that must never be sent (a line break, Host, Content-Length);
 * they are left out and the call is made with the rest.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LogRecord } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_WEBHOOKS_TOPIC, type RuleWebhookMessage } from './enrich.stage';
import { ruleWebhookStage } from './rule-webhook.stage';

let receiver: Server;
let url = '';
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

function record(headers: Record<string, string>): LogRecord {
  const message: RuleWebhookMessage = {
    schema_version: 1,
    id: 'rwh_1',
    organization_id: 'org_1',
    environment: 'live',
    lead_id: 'lead_1',
    rule_id: 'rule_1',
    url,
    method: 'POST',
    headers,
    body: { who: 'ann@example.edu' },
    created_at: '2026-01-01T00:00:00.000Z',
  };
  return { topic: RULE_WEBHOOKS_TOPIC, partition: 0, offset: '0', key: 'lead_1', value: JSON.stringify(message), headers: {}, timestamp: 0 };
}

describe('rule-webhook stage', () => {
  it('leaves out headers that may not be sent, and sends the call with the others', async () => {
    const stage = ruleWebhookStage({ allowInsecureTargets: true, timeoutMs: 5_000 });
    const result = await stage.process([record({ 'X-Good': 'yes', 'X-A': 'v\r\nX-Injected: 4', Host: 'evil.example', 'Content-Length': '5' })]);
    expect(result.handled).toBe(1);
    expect(received).toHaveLength(1);
    const headers = received[0]!.headers;
    expect(headers['x-good']).toBe('yes');
    expect(headers['x-a']).toBeUndefined();
    expect(headers['x-injected']).toBeUndefined();
    expect(headers['host']).toBe(new URL(url).host);
    expect(received[0]!.body).toBe('{"who":"ann@example.edu"}');
    const entry = JSON.stringify(result.write.documents);
    expect(entry).toContain('"success":true');
    expect(entry).toContain('"skipped_headers":["X-A","Host","Content-Length"]');
  });
});
