/**
 * What the service says, black box, on the real `leadstream start` process (embedded engines and
 * Kafka + FerretDB): a duplicate lead's stages that will never run say so (not "pending"); names
 * lose their bidirectional-text controls at the edge (a U+202E in a name reverses the rows that
 * show it); sandbox leads can be read through the user API (`environment=sandbox`, the console's
 * environment switch); without APP_URL the password-reset mail links to the address the service
 * listens on; and `leadstream start` ends its start-up output with the console's address as a
 * plain line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';

const setups = engineSetups('readable');

describe.each(setups)('what the service says on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess;
  let base = '';
  let token = '';
  let liveKey = '';
  let sandboxKey = '';
  const call = jsonClient(() => base);

  const ingest = async (
    key: string,
    lead: Record<string, unknown>,
    sandbox = false,
  ): Promise<{ status: number; body: Record<string, unknown> }> =>
    call(
      'POST',
      `${sandbox ? '/sandbox' : ''}/api/v1/leads/ingest`,
      { form_started_at: new Date(Date.now() - 30_000).toISOString(), ...lead },
      key,
    );

  /** A lead through the user API once the pipeline has stored it (a 409 LEAD_PROCESSING is retried). */
  const leadOf = async (id: string, query = ''): Promise<Record<string, unknown>> => {
    for (let attempt = 0; ; attempt++) {
      const answer = await call('GET', `/api/leads/${id}${query}`, undefined, token);
      if (answer.status === 200) return answer.body['data'] as Record<string, unknown>;
      if (attempt > 300) throw new Error(`lead ${id}: ${JSON.stringify(answer.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    // No APP_URL: mail links must point at where this process listens.
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({ TOPIC_PARTITIONS: '3', DECISION_TIMEOUT_MS: '10000', ...setup.env }),
    ));
    const registered = await call('POST', '/api/auth/register', {
      email: 'clerk@readable.edu',
      password: 'Passw0rd!',
      first_name: 'Cleo',
      last_name: 'Clerk',
      organization_name: 'Readable College',
    });
    expect(registered.status).toBe(201);
    token = String(registered.body['token']);
    const vendor = await call('POST', '/api/vendors', { name: 'Inquiry Co', type: 'inquiry' }, token);
    const vendorId = String((vendor.body['data'] as { id: string }).id);
    const key = async (environment: 'live' | 'sandbox'): Promise<string> =>
      String(
        (
          (await call('POST', '/api/api-keys', { name: environment, vendor_id: vendorId, environment }, token)).body[
            'data'
          ] as { key: string }
        ).key,
      );
    liveKey = await key('live');
    sandboxKey = await key('sandbox');
  }, 240_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await setup.cleanup();
  });

  it('ends the start-up output with the console address as a plain line, after the JSON "ready" line', () => {
    const lines = server.output.split('\n').filter((line) => line.trim() !== '');
    const ready = lines.findIndex((line) => line.startsWith('{') && line.includes('"msg":"ready"'));
    expect(ready).toBeGreaterThan(0);
    const address = `leadstream is ready: open ${base}/app/ in a browser`;
    // Written right after "ready" (a line of the pipeline thread may slip in between).
    expect(lines.indexOf(address)).toBeGreaterThan(ready);
    // The only line that is not JSON: a person reading the terminal finds it last, under the log lines.
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([address]);
  });

  it('says a duplicate is never enriched nor synced: skipped and not_applicable, not pending', async () => {
    const first = await ingest(liveKey, { email: 'dup.person@example.edu', first_name: 'Dee', last_name: 'Uplicate' });
    expect(first.status).toBe(201);
    const again = await ingest(liveKey, { email: 'dup.person@example.edu', first_name: 'Dee', last_name: 'Uplicate' });
    expect(again.status).toBe(409);
    expect(again.body['duplicate_of']).toBe(first.body['lead_id']);
    const duplicates = await call('GET', '/api/leads?status=duplicate', undefined, token);
    const duplicateId = String((duplicates.body['data'] as Array<{ id: string }>)[0]?.id);
    const status = await call('GET', `/api/leads/${duplicateId}/status`, undefined, liveKey);
    expect(status.body).toMatchObject({
      id: duplicateId,
      status: 'duplicate',
      enrichment_status: 'skipped',
      crm_sync_status: 'not_applicable',
      duplicate_of: first.body['lead_id'],
    });
    expect(await leadOf(duplicateId)).toMatchObject({
      duplicate_of: first.body['lead_id'],
      crm_sync_status: 'not_applicable',
      routing: null,
    });
  }, 60_000);

  it('strips bidirectional-text controls from lead names at ingestion and in a change, keeping the letters', async () => {
    const sent = await ingest(liveKey, {
      email: 'bidi.lead@example.edu',
      first_name: '\u202Eevil\u202C',
      last_name: 'Sm\u2066ith\u2069\u200F',
      source: '\u202Eweb',
    });
    expect(sent.status).toBe(201);
    const id = String(sent.body['lead_id']);
    // Names lose them; other text is kept as sent (the console shows it isolated).
    expect(await leadOf(id)).toMatchObject({ first_name: 'evil', last_name: 'Smith', source: '\u202Eweb' });
    const changed = await call(
      'PATCH',
      `/api/leads/${id}`,
      { first_name: '\u200EA\u202Bnn\u202A', last_name: '\u2067Lee' },
      token,
    );
    expect(changed.status).toBe(200);
    expect(changed.body['data']).toMatchObject({ first_name: 'Ann', last_name: 'Lee' });
    // A refused lead keeps its names too, without the controls.
    const refused = await ingest(liveKey, { email: 'someone@mailinator.com', first_name: '\u202Erefused' });
    expect(refused.status).toBe(422);
    const rejected = await call('GET', '/api/leads?status=rejected', undefined, token);
    expect((rejected.body['data'] as Array<Record<string, unknown>>).map((lead) => lead['first_name'])).toEqual([
      'refused',
    ]);
  }, 60_000);

  it('shows sandbox leads to the user API with environment=sandbox, and only there', async () => {
    const sent = await ingest(
      sandboxKey,
      { email: 'sandbox.sam@example.edu', first_name: 'Sam', last_name: 'Sandbox' },
      true,
    );
    expect(sent.status).toBe(201);
    const id = String(sent.body['lead_id']);
    const sandbox = await call('GET', '/api/leads?environment=sandbox', undefined, token);
    expect(sandbox.status).toBe(200);
    expect((sandbox.body['data'] as Array<Record<string, unknown>>).map((lead) => lead['email'])).toEqual([
      'sandbox.sam@example.edu',
    ]);
    expect(await leadOf(id, '?environment=sandbox')).toMatchObject({
      id,
      first_name: 'Sam',
      crm_sync_status: 'not_applicable',
    });
    const activity = await call('GET', `/api/leads/${id}/activity?environment=sandbox`, undefined, token);
    expect((activity.body['data'] as Array<{ event: string }>).map((entry) => entry.event)).toContain('lead.created');
    // The live side never shows it; a lead of the live side is not found in the sandbox.
    const live = await call('GET', '/api/leads', undefined, token);
    expect((live.body['data'] as Array<Record<string, unknown>>).map((lead) => lead['email'])).not.toContain(
      'sandbox.sam@example.edu',
    );
    expect((await call('GET', `/api/leads/${id}`, undefined, token)).status).toBe(404);
    const bad = await call('GET', '/api/leads?environment=staging', undefined, token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ field: 'environment' }] } });
  }, 60_000);

  it('links the password-reset mail to the address it listens on when APP_URL is unset', async () => {
    expect((await call('POST', '/api/auth/forgot-password', { email: 'clerk@readable.edu' })).status).toBe(200);
    const outbox = join(setup.env['DATA_DIR'] ?? '', 'outbox');
    let text = '';
    for (let i = 0; i < 100 && !text; i++) {
      const files = (() => {
        try {
          return readdirSync(outbox).filter((file) => file.endsWith('.json'));
        } catch {
          return [];
        }
      })();
      for (const file of files) text = (JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { text: string }).text;
      if (!text) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const link = /(\S+)\/reset-password\?token=[A-Za-z0-9_-]+/.exec(text)?.[1];
    expect(link).toBe(base);
    // That address answers: the link leads to the console's reset page.
    const page = await fetch(`${base}/reset-password?token=x`, { redirect: 'manual' });
    expect(page.status).toBe(302);
  }, 30_000);
});
