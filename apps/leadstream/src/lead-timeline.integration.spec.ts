/**
 * A lead's timeline end to end on `leadstream start`, on each engine set (docs/timeline.md): a lead
 * ingested by a vendor, routed to a CRM on loopback and announced to a webhook on loopback, has
 * `GET /api/leads/:id/timeline` answer its stages in order (received → validated → deduplicated →
 * enriched → routed → crm_synced, and the webhook delivery), each with its outcome and
 * non-negative duration; /metrics shows the per-stage and end-to-end latency histograms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';
import { LoopbackCrm } from './test-support/loopback-crm';
import { WebhookReceiver } from './test-support/webhook-receiver';

const setups = engineSetups('timeline');

interface Entry {
  stage: string;
  outcome: string;
  started_at: string;
  finished_at: string;
  duration_ms: number;
  detail: Record<string, unknown>;
}

describe.each(setups)('lead timeline on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  const crm = new LoopbackCrm();
  const receiver = new WebhookReceiver();
  let server: CliProcess;
  let base = '';
  const call = jsonClient(() => base);

  beforeAll(async () => {
    await crm.start();
    await receiver.start();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({ DECISION_TIMEOUT_MS: '10000', WEBHOOK_ALLOW_INSECURE_TARGETS: 'true', ...setup.env }),
    ));
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await crm.stop();
    await receiver.stop();
    await setup.cleanup();
  });

  it('answers the stages a lead passed in order with their outcomes and durations, and /metrics shows the latencies', async () => {
    const registered = await call('POST', '/api/auth/register', {
      email: 'timeline@example.edu',
      password: 'Timeline-Passw0rd',
      first_name: 'Tim',
      last_name: 'Eline',
      organization_name: 'Timeline College',
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    const token = String(registered.body['token']);
    const user = async (method: string, path: string, body?: unknown, expected = 200) => {
      const response = await call(method, path, body, token);
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(expected);
      return response.body['data'] as Record<string, unknown>;
    };
    const vendor = String((await user('POST', '/api/vendors', { name: 'Fair Leads', type: 'inquiry' }, 201))['id']);
    const key = String((await user('POST', '/api/api-keys', { name: 'k', vendor_id: vendor }, 201))['key']);
    const connection = String(
      (await user('POST', '/api/crm/connections', crm.connection('Admissions CRM', '/admissions'), 201))['id'],
    );
    const hook = await user('POST', '/api/webhooks', { url: `${receiver.url}/hook`, events: ['lead.created'] }, 201);
    receiver.secrets.set('/hook', String(hook['secret']));

    const ingested = await call(
      'POST',
      '/api/v1/leads/ingest',
      { email: 'ada.timeline@example.edu', first_name: 'Ada', last_name: 'Lovelace' },
      key,
    );
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(201);
    const leadId = String(ingested.body['lead_id']);

    // The CRM sync and the webhook delivery come after the decision: wait for both on the timeline.
    // Polled every half second: the read's rate limit (200 a minute) allows it.
    let timeline: Entry[] = [];
    for (const deadline = Date.now() + 60_000; ;) {
      const response = await call('GET', `/api/leads/${leadId}/timeline`, undefined, token);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      timeline = response.body['data'] as Entry[];
      const stages = timeline.map((entry) => entry.stage);
      if (stages.includes('crm_synced') && stages.includes('webhook_delivered')) break;
      if (Date.now() > deadline) throw new Error(`no CRM sync and webhook delivery on the timeline: ${stages.join()}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    // The stages of the lead itself, in order; the delivery of lead.created (produced with the
    // validate stage's write) starts once that write is committed, so it may come before the later
    // stages when the chain is split (PIPELINE_SPLIT), or after them.
    expect(timeline.filter((entry) => entry.stage !== 'webhook_delivered').map((entry) => entry.stage)).toEqual([
      'received',
      'validated',
      'deduplicated',
      'enriched',
      'routed',
      'crm_synced',
    ]);
    expect(timeline.filter((entry) => entry.stage === 'webhook_delivered')).toHaveLength(1);
    expect(Object.fromEntries(timeline.map((entry) => [entry.stage, entry.outcome]))).toEqual({
      received: 'received',
      validated: 'passed',
      deduplicated: 'unique',
      enriched: 'completed',
      routed: 'routed',
      crm_synced: 'synced',
      webhook_delivered: 'delivered',
    });
    let previousStart = 0;
    for (const entry of timeline) {
      const started = Date.parse(entry.started_at);
      const finished = Date.parse(entry.finished_at);
      expect(entry.duration_ms, entry.stage).toBeGreaterThanOrEqual(0);
      expect(finished - started, entry.stage).toBe(entry.duration_ms);
      expect(started, `${entry.stage} starts no earlier than the stage before it`).toBeGreaterThanOrEqual(
        previousStart,
      );
      previousStart = started;
    }
    const byStage = new Map(timeline.map((entry) => [entry.stage, entry]));
    expect(byStage.get('routed')!.detail).toMatchObject({ reason: 'all_connections', targets: [connection] });
    expect(byStage.get('crm_synced')!.detail['syncs']).toEqual([
      { connection_id: connection, crm_type: 'webhook_json', status: 'synced', attempts: 1, crm_id: `rec_${leadId}` },
    ]);
    expect(byStage.get('webhook_delivered')!.detail).toMatchObject({ event_type: 'lead.created', attempts: 1 });
    expect(Date.parse(byStage.get('webhook_delivered')!.started_at)).toBeGreaterThanOrEqual(
      Date.parse(byStage.get('validated')!.finished_at),
    );
    expect(crm.received.filter((got) => got.body['external_id'] === leadId)).toHaveLength(1);

    // Another organization's lead, or one that never was, is not found, in the API's error format.
    const missing = await call('GET', '/api/leads/lead_missing/timeline', undefined, token);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: { code: 'LEAD_NOT_FOUND' } });

    const metrics = await (await fetch(`${base}/metrics`)).text();
    for (const stage of ['received', 'validated', 'deduplicated', 'enriched', 'routed', 'crm_synced'])
      expect(metrics).toMatch(
        new RegExp(`^leadstream_lead_stage_duration_seconds_count\\{stage="${stage}"\\} [1-9]`, 'm'),
      );
    for (const stage of ['validated', 'deduplicated', 'enriched', 'routed', 'crm_synced'])
      expect(metrics).toMatch(new RegExp(`^leadstream_lead_stage_wait_seconds_count\\{stage="${stage}"\\} [1-9]`, 'm'));
    expect(metrics).toMatch(/^leadstream_lead_submission_to_decision_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^leadstream_lead_submission_to_crm_seconds_count [1-9]/m);
    expect(metrics).toMatch(/^leadstream_lead_submission_to_crm_seconds_bucket\{le="\+Inf"\} [1-9]/m);
    // Labelled by stage only: no tenant or lead label.
    expect(metrics).not.toMatch(/^leadstream_lead_stage_\w+\{[^}]*organization/m);
  }, 240_000);
});
