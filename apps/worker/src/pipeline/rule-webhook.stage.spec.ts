/**
 * The rule-webhook stage against a receiver on loopback: a rule saved before header checks
 * existed may still carry headers that must never be sent (a line break, Host, Content-Length);
 * they are left out and the call is made with the rest. A batch run again (a failed commit, or
 * its records one at a time around one that fails every time) calls nobody twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LeadActivityRepository } from '@leadstream/dal';
import type { LogRecord } from '@leadstream/ports';
import { isTransientError } from '@leadstream/runtime';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchWriter } from '../batch/batch-write';
import { openEmbeddedEngines } from '../test-support/embedded-engines';
import { driveStage } from '../test-support/stage-driver';
import { RULE_WEBHOOKS_TOPIC, type RuleWebhookMessage } from './enrich.stage';
import { ruleWebhookStage } from './rule-webhook.stage';

let receiver: Server;
let base = '';
let url = '';
const received: Array<{ headers: IncomingHttpHeaders; body: string; path: string }> = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({ headers: request.headers, body, path: request.url ?? '' });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  url = `${base}/hook`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

function record(headers: Record<string, string>, id = 'rwh_1', offset = 0): LogRecord {
  const message: RuleWebhookMessage = {
    schema_version: 1,
    id,
    organization_id: 'org_1',
    environment: 'live',
    lead_id: 'lead_1',
    rule_id: 'rule_1',
    url: id === 'rwh_1' ? url : `${base}/calls/${id}`,
    method: 'POST',
    headers,
    body: { who: 'ann@example.edu' },
    created_at: '2026-01-01T00:00:00.000Z',
  };
  return {
    topic: RULE_WEBHOOKS_TOPIC,
    partition: 0,
    offset: String(offset),
    key: 'lead_1',
    value: JSON.stringify(message),
    headers: {},
    timestamp: 0,
  };
}

describe('rule-webhook stage', () => {
  it('leaves out headers that may not be sent, and sends the call with the others', async () => {
    const stage = ruleWebhookStage({ allowInsecureTargets: true, timeoutMs: 5_000 });
    const result = await stage.process([
      record({ 'X-Good': 'yes', 'X-A': 'v\r\nX-Injected: 4', Host: 'evil.example', 'Content-Length': '5' }),
    ]);
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

describe('rule-webhook stage, a batch run again', () => {
  it.each([
    'the first commit fails (transient)',
    'the commit of one record fails every time (the others pass one at a time)',
  ])('calls each target once: %s', async (failure) => {
    received.length = 0;
    const dir = mkdtempSync(join(tmpdir(), 'rule-webhook-'));
    const engines = await openEmbeddedEngines(dir);
    try {
      await engines.log.ensureTopics(
        [RULE_WEBHOOKS_TOPIC, `${RULE_WEBHOOKS_TOPIC}.dlq`].map((topic) => ({ topic, partitions: 1 })),
      );
      const ids = ['rwh_a', 'rwh_b', 'rwh_c'];
      let commits = 0;
      const writer: BatchWriter = {
        atomic: engines.writer.atomic,
        async commit(write, position) {
          if (failure.startsWith('the first') && commits++ === 0)
            throw new Database.SqliteError('database is locked', 'SQLITE_BUSY');
          if (failure.startsWith('the commit of one') && JSON.stringify(write.documents).includes('"rwh_b"'))
            throw new Error('this entry cannot be stored');
          return engines.writer.commit(write, position);
        },
      };
      const stage = ruleWebhookStage({ allowInsecureTargets: true, timeoutMs: 5_000 });
      await driveStage(stage, writer, { isTransient: isTransientError }).handle(
        ids.map((id, index) => record({}, id, index)),
      );
      const calls = received
        .filter((request) => request.path.startsWith('/calls/'))
        .map((request) => request.path.slice('/calls/'.length));
      expect(calls.sort()).toEqual(ids);
      const stored = await engines.store.collection(LeadActivityRepository.COLLECTION).find({ event: 'rule.webhook' });
      expect(stored.map((entry) => entry._id).sort()).toEqual(
        failure.startsWith('the first') ? ids : ['rwh_a', 'rwh_c'],
      );
    } finally {
      await engines.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
