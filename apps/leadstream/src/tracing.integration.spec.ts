/**
 * Tracing end to end on `leadstream start` (docs/operations.md, "Tracing"), on both engine sets: with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP/HTTP receiver on loopback, one lead ingested
 * with a vendor's `traceparent` makes ONE connected trace: the ingest request's server span
 * (child of the vendor's span), a span per stage of the intake chain (validate, dedup, enrich,
 * route), the CRM call and the webhook delivery, every span's parent among them but the root's.
 * Spans come from both threads (the API's and the pipeline's) and reach the receiver by the
 * shutdown's flush at the latest.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { jsonClient } from './test-support/json-client';
import { OtlpReceiver, type ReceivedSpan } from './test-support/otlp-receiver';
import { eventually, WebhookReceiver } from './test-support/webhook-receiver';

const setups = engineSetups('tracing');
const VENDOR_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const VENDOR_SPAN_ID = '00f067aa0ba902b7';
const CLIENT = 3;
const SERVER = 2;

/** A JSON CRM on loopback that upserts every lead (201 with an id). */
async function startCrm(): Promise<{ url: string; posts: string[]; close: () => Promise<void> }> {
  const posts: string[] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(text || '{}') as { external_id?: string };
      if (body.external_id) posts.push(body.external_id);
      response
        .writeHead(201, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: `rec_${posts.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(setups)('tracing on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  let server: CliProcess | undefined;
  const traces = new OtlpReceiver();
  const webhooks = new WebhookReceiver();
  let crm: Awaited<ReturnType<typeof startCrm>>;
  let base = '';
  const call = jsonClient(() => base);
  const data = (body: Record<string, unknown>): Record<string, unknown> => body['data'] as Record<string, unknown>;

  beforeAll(async () => {
    await traces.start();
    await webhooks.start();
    crm = await startCrm();
    ({ server, url: base } = await CliProcess.startService(
      serviceEnv({
        TOPIC_PARTITIONS: '2',
        DECISION_TIMEOUT_MS: '10000',
        WEBHOOK_ALLOW_INSECURE_TARGETS: 'true',
        OTEL_EXPORTER_OTLP_ENDPOINT: traces.endpoint,
        // Export every 200 ms rather than every 5 s (the BatchSpanProcessor's setting).
        OTEL_BSP_SCHEDULE_DELAY: '200',
        ...setup.env,
      }),
    ));
  }, 180_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    await traces.stop();
    await webhooks.stop();
    await crm?.close();
    await setup.cleanup();
  });

  it('makes one connected trace from the ingest request to the CRM call and the webhook delivery', async () => {
    const token = String(
      (
        await call('POST', '/api/auth/register', {
          email: 'trace.owner@example.edu',
          password: 'Trace-Passw0rd',
          first_name: 'Tra',
          last_name: 'Cer',
          organization_name: 'Trace College',
        })
      ).body['token'],
    );
    const hook = await call('POST', '/api/webhooks', { url: `${webhooks.url}/hook`, events: ['lead.created'] }, token);
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    webhooks.secrets.set('/hook', String(data(hook.body)['secret']));
    const connection = await call(
      'POST',
      '/api/crm/connections',
      { name: 'Campus CRM', type: 'webhook_json', settings: { url: crm.url }, credentials: {} },
      token,
    );
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    const vendor = String(
      data((await call('POST', '/api/vendors', { name: 'Traced Leads', type: 'inquiry' }, token)).body)['id'],
    );
    const key = String(
      data((await call('POST', '/api/api-keys', { name: 'live', vendor_id: vendor }, token)).body)['key'],
    );

    // The vendor's own trace context: the request continues it.
    const response = await fetch(`${base}/api/v1/leads/ingest`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        traceparent: `00-${VENDOR_TRACE_ID}-${VENDOR_SPAN_ID}-01`,
      },
      body: JSON.stringify({ email: 'ada.trace@example.edu', first_name: 'Ada', last_name: 'Tracer' }),
    });
    const ingested = (await response.json()) as Record<string, unknown>;
    expect(response.status, JSON.stringify(ingested)).toBe(201);
    const leadId = String(ingested['lead_id']);

    // The outbound calls were made: the CRM has the lead, the webhook the lead.created event.
    await eventually('the CRM call', () => (crm.posts.includes(leadId) ? true : undefined));
    const delivered = await eventually('the webhook delivery', () =>
      webhooks.at('/hook').find((received) => received.event === 'lead.created'),
    );
    expect(delivered.problems).toEqual([]);
    await eventually('the lead synced', async () =>
      data((await call('GET', `/api/leads/${leadId}`, undefined, token)).body)['crm_sync_status'] === 'synced'
        ? true
        : undefined,
    );
    // Their spans were exported (every 200 ms), then the shutdown flushes what is still batched.
    await eventually('the outbound spans', () =>
      traces.spans.some((span) => span.name.startsWith('webhook ')) &&
      traces.spans.some((span) => span.name.startsWith('crm-sync '))
        ? true
        : undefined,
    );
    server!.kill('SIGTERM');
    expect(await server!.exited).toEqual({ code: 0, signal: null });
    server = undefined;

    const spans = traces.spans;
    expect(traces.refused).toEqual([]);
    // One trace, the vendor's.
    expect([...new Set(spans.map((span) => span.traceId))]).toEqual([VENDOR_TRACE_ID]);
    // Connected: every parent is a received span, but the root's, which is the vendor's span.
    const ids = new Set(spans.map((span) => span.spanId));
    expect(ids.size).toBe(spans.length);
    const roots = spans.filter((span) => !ids.has(span.parentSpanId));
    expect(roots.map((span) => [span.name, span.kind, span.parentSpanId])).toEqual([
      ['POST /api/v1/leads/ingest', SERVER, VENDOR_SPAN_ID],
    ]);
    const root = roots[0]!;
    expect(root.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 201 });

    const named = (name: string): ReceivedSpan[] => spans.filter((span) => span.name === name);
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const ancestry = (span: ReceivedSpan): string[] => {
      const names: string[] = [];
      for (let parent = byId.get(span.parentSpanId); parent; parent = byId.get(parent.parentSpanId))
        names.push(parent.name);
      return names;
    };
    // A span per stage of the chain, each a child of the span of the record it decided (one record,
    // 'validate process', unless PIPELINE_SPLIT splits the chain), all under the request's span.
    const chain = process.env['PIPELINE_SPLIT'] ? [] : ['validate process'];
    for (const stage of ['validate', 'dedup', 'enrich', 'route']) {
      const [span, ...more] = named(stage);
      expect(more, stage).toEqual([]);
      expect(span?.attributes['leadstream.lead_id'], stage).toBe(leadId);
      expect(byId.get(span!.parentSpanId)?.name, stage).toMatch(/ process$/);
      expect(ancestry(span!).at(-1), stage).toBe(root.name);
      if (chain.length > 0) expect(ancestry(span!), stage).toEqual([...chain, root.name]);
    }
    // The CRM call: a client span under crm-sync's span of the routed record, which the route stage produced.
    const crmSpans = spans.filter((span) => span.name === 'crm-sync webhook_json');
    expect(crmSpans).toHaveLength(1);
    expect(crmSpans[0]).toMatchObject({ kind: CLIENT, attributes: { 'leadstream.lead_id': leadId } });
    expect(ancestry(crmSpans[0]!).slice(0, 2)).toEqual(['crm-sync process', 'route']);
    expect(ancestry(crmSpans[0]!).at(-1)).toBe(root.name);
    // The webhook delivery: a client span under deliver's span, under notify's span of lead.created, which validate produced.
    const webhookSpans = spans.filter((span) => span.name === 'webhook lead.created');
    expect(webhookSpans).toHaveLength(1);
    expect(webhookSpans[0]).toMatchObject({
      kind: CLIENT,
      attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200 },
    });
    expect(ancestry(webhookSpans[0]!).slice(0, 4)).toEqual([
      'deliver process',
      'notify process',
      'validate',
      'validate process',
    ]);
    expect(ancestry(webhookSpans[0]!).at(-1)).toBe(root.name);
    // Both threads exported: the request from the main thread, the stages from the pipeline thread.
    expect(root.resource).toMatchObject({ 'service.name': 'leadstream', 'leadstream.role': 'start' });
    expect(crmSpans[0]!.resource).toMatchObject({ 'service.name': 'leadstream', 'leadstream.role': 'pipeline' });
  }, 120_000);
});
