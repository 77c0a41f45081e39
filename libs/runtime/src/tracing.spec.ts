/**
 * Trace-context propagation through record headers (docs/operations.md, "Tracing"): a request's span is the
 * parent of what its records' consumers do, and those consumers' records and outbound calls carry
 * it on. Off (no OTEL_EXPORTER_OTLP_ENDPOINT), every helper does nothing.
 */
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import {
  activeTraceHeaders,
  endSpan,
  inClientSpan,
  inServerSpan,
  pickTraceHeaders,
  SpanKind,
  startSpanFrom,
  startTracing,
  traceHeadersOf,
  tracesUrl,
  tracingEnabled,
  withTraceHeaders,
} from './tracing';

/** Keeps what the batch processor exports (an in-memory exporter forgets its spans on shutdown). */
class CollectingExporter implements SpanExporter {
  readonly spans: ReadableSpan[] = [];
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.spans.push(...spans);
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

/** A record to produce (the worker's OutputRecord). */
interface Outgoing {
  topic: string;
  value: string;
  headers?: Record<string, string>;
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

describe('tracing off', () => {
  it('starts nothing without OTEL_EXPORTER_OTLP_ENDPOINT, and every helper passes through', async () => {
    const stop = await startTracing({}, 'test');
    expect(tracingEnabled()).toBe(false);
    expect(startSpanFrom('x', { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` })).toBeUndefined();
    expect(pickTraceHeaders({ traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` })).toBeUndefined();
    expect(withTraceHeaders<Outgoing>({ topic: 't', value: 'v' }, pickTraceHeaders({ traceparent: 'x' }))).toEqual({
      topic: 't',
      value: 'v',
    });
    let inside: unknown = 'not called';
    await inServerSpan(
      'POST /x',
      { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` },
      {},
      async () => void (inside = activeTraceHeaders()),
      () => 200,
    );
    expect(inside).toBeUndefined();
    expect(await inClientSpan('call', { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` }, {}, async () => 42)).toBe(
      42,
    );
    await stop();
  });

  it('sends spans to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, or to the base endpoint + /v1/traces', () => {
    expect(tracesUrl({})).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeUndefined();
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      tracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://other:4318/traces',
      }),
    ).toBe('http://other:4318/traces');
  });
});

describe('tracing on', () => {
  const exporter = new CollectingExporter();
  let stop: () => Promise<void> = async () => undefined;
  afterAll(() => stop());

  it('carries the trace context from a request through record headers to a consumer and its outbound call', async () => {
    stop = await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' }, 'test', undefined, { exporter });
    expect(tracingEnabled()).toBe(true);

    // The request continues its caller's trace; what it produces carries the request's span.
    let produced: Record<string, string> | undefined;
    await inServerSpan(
      'POST /ingest',
      { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, 'content-type': 'application/json' },
      { 'http.route': '/ingest' },
      async () => {
        produced = activeTraceHeaders();
      },
      () => 201,
    );
    expect(produced?.['traceparent']).toMatch(TRACEPARENT);
    const [, producedTrace, requestSpan] = TRACEPARENT.exec(produced!['traceparent']!)!;
    expect(producedTrace).toBe(TRACE_ID);

    // A consumer's span of that record; the record it produces, and its outbound call, name it as parent.
    const recordHeaders = { 'x-other': 'kept', ...produced };
    const consumer = startSpanFrom('stage process', recordHeaders, { kind: SpanKind.CONSUMER });
    const downstream = withTraceHeaders<Outgoing>(
      { topic: 't', value: 'v', headers: { 'x-other': 'mine' } },
      traceHeadersOf(consumer),
    );
    expect(downstream.headers?.['x-other']).toBe('mine');
    const [, downstreamTrace, consumerSpan] = TRACEPARENT.exec(downstream.headers?.['traceparent'] ?? '')!;
    expect(downstreamTrace).toBe(TRACE_ID);
    // pickTraceHeaders keeps only the trace context of a record's headers.
    expect(pickTraceHeaders(downstream.headers)).toEqual({ traceparent: downstream.headers?.['traceparent'] });
    const answer = await inClientSpan(
      'crm call',
      downstream.headers,
      { 'url.full': 'https://crm.example' },
      async () => ({ status: 503 }),
      (result) => ({ status: result.status, error: 'HTTP 503' }),
    );
    expect(answer).toEqual({ status: 503 });
    endSpan(consumer);
    // A record with no trace context (an API write, a configuration change) starts no trace.
    expect(startSpanFrom('stage process', { 'x-other': 'kept' })).toBeUndefined();
    expect(await inClientSpan('call', undefined, {}, async () => 'plain')).toBe('plain');

    await stop();
    stop = async () => undefined;
    expect(tracingEnabled()).toBe(false);
    const spans = new Map(exporter.spans.map((span) => [span.name, span]));
    expect([...spans.keys()].sort()).toEqual(['POST /ingest', 'crm call', 'stage process']);
    const request = spans.get('POST /ingest')!;
    const stage = spans.get('stage process')!;
    const call = spans.get('crm call')!;
    expect(exporter.spans.map((span) => span.spanContext().traceId)).toEqual([TRACE_ID, TRACE_ID, TRACE_ID]);
    expect([request.kind, stage.kind, call.kind]).toEqual([SpanKind.SERVER, SpanKind.CONSUMER, SpanKind.CLIENT]);
    expect(request.parentSpanContext?.spanId).toBe(CALLER_SPAN);
    expect(request.spanContext().spanId).toBe(requestSpan);
    expect(request.attributes).toMatchObject({ 'http.route': '/ingest', 'http.response.status_code': 201 });
    expect(stage.parentSpanContext?.spanId).toBe(requestSpan);
    expect(stage.spanContext().spanId).toBe(consumerSpan);
    expect(call.parentSpanContext?.spanId).toBe(consumerSpan);
    expect(call.attributes).toMatchObject({ 'url.full': 'https://crm.example', 'http.response.status_code': 503 });
    expect(call.status).toMatchObject({ code: 2, message: 'HTTP 503' });
    expect(request.resource.attributes).toMatchObject({ 'service.name': 'leadstream', 'leadstream.role': 'test' });
  });
});
