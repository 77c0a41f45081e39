/**
 * Every event `leadstream start` emits matches its payload schema (schemas/messages/
 * event-payloads.schema.json; docs/api-conventions.md "Events"): a run that makes the pipeline, the
 * user API, the vendor routes and an export emit each kind of event, then every record of
 * leads.events is checked against the envelope and its event's payload schema. On both engine sets.
 */
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { eventPayloadProblems, parseLeadEvents } from '@leadstream/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';

const setups = engineSetups('event-payloads');

describe.each(setups)('event payloads on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base = '';
  const call = jsonClient(() => base);
  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

  beforeAll(async () => {
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({ TOPIC_PARTITIONS: '3', DECISION_TIMEOUT_MS: '10000', ...setup.env }),
    ));
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('emits each kind of event with the payload its schema describes', async () => {
    const token = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'events@example.edu',
          password: 'Events-Passw0rd',
          first_name: 'Ev',
          last_name: 'Ents',
          organization_name: 'Event College',
        })
      ).body['token'],
    );
    const vendor = String(
      data((await call('POST', '/api/vendors', { name: 'Event Leads', type: 'inquiry' }, token)).body)['id'],
    );
    const key = String(
      data((await call('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }, token)).body)['key'],
    );
    const rule = (name: string, priority: number, field: string, value: string, action: Record<string, unknown>) =>
      call(
        'POST',
        '/api/enrichment/rules',
        {
          name,
          priority,
          conditions: { operator: 'AND', rules: [{ field, operator: 'equals', value }] },
          actions: [action],
        },
        token,
      );
    expect(
      (
        await rule('Tier web leads', 1, 'source', 'web', {
          type: 'set_field',
          field: 'enrichment_data.tier',
          value: 'A',
        })
      ).status,
    ).toBe(201);
    expect((await rule('Reject spam', 2, 'first_name', 'Spam', { type: 'reject', reason: 'spam' })).status).toBe(201);

    const ingest = (body: Record<string, unknown>) =>
      call('POST', '/api/v1/leads/ingest', { first_name: 'Ada', last_name: 'Byron', ...body }, key);
    const accepted = await ingest({ email: 'ada.byron@example.edu', source: 'web' });
    expect(accepted.status).toBe(201);
    expect((await ingest({ email: 'ada.byron@example.edu' })).status).toBe(409);
    expect((await ingest({ email: 'free@mailinator.com' })).status).toBe(422);
    expect((await ingest({ email: 'spam.sender@example.edu', first_name: 'Spam' })).status).toBe(422);
    const other = await ingest({ email: 'grace.hopper@example.edu', first_name: 'Grace', last_name: 'Hopper' });
    expect(other.status).toBe(201);

    expect(
      (await call('PATCH', `/api/leads/${String(accepted.body['lead_id'])}`, { status: 'contacted' }, token)).status,
    ).toBe(200);
    expect((await call('DELETE', `/api/leads/${String(other.body['lead_id'])}`, undefined, token)).status).toBe(204);
    expect((await call('POST', `/api/vendors/${vendor}/disable`, undefined, token)).status).toBe(200);
    expect((await call('POST', `/api/vendors/${vendor}/enable`, undefined, token)).status).toBe(200);
    const exported = await call('POST', '/api/leads/export', { format: 'csv' }, token);
    const exportId = String(exported.body['export_id']);
    let status = exported;
    for (let i = 0; i < 300 && status.body['status'] === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await call('GET', `/api/exports/${exportId}`, undefined, token);
    }
    expect(status.body['status']).toBe('completed');

    if (!setup.readWhileRunning) {
      server.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
    }
    const log = await setup.openLog();
    try {
      const messages = (await readTopic(log, 'leads.events')).flatMap((record) => parseLeadEvents(record.value));
      const problems = messages.flatMap((message) =>
        eventPayloadProblems(message).map((problem) => `${message.id}: ${problem}`),
      );
      expect(problems).toEqual([]);
      const seen = new Set(messages.map((message) => message.event));
      for (const event of [
        'lead.created',
        'lead.validated',
        'lead.enriched',
        'lead.accepted',
        'lead.duplicate',
        'lead.rejected',
        'lead.updated',
        'lead.deleted',
        'vendor.disabled',
        'vendor.enabled',
        'export.completed',
      ]) {
        expect(seen, event).toContain(event);
      }
    } finally {
      await log.close();
    }
  });
});
