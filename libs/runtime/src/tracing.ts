/**
 * OpenTelemetry tracing (docs/operations.md, "Tracing"): one trace per lead, from the ingest request through
 * every stage and topic hop to the CRM call and the webhook delivery. The W3C trace context
 * (`traceparent`, `tracestate`) travels in the headers of the log's records.
 *
 * Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then every helper here returns at its first line
 * and the SDK is never loaded. Each thread that ends spans starts its own provider (the pipeline
 * thread of `leadstream start` has its own module instances) and flushes it on its shutdown path.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { Headers } from '@leadstream/ports';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from './logger';

export { SpanKind, type Span } from '@opentelemetry/api';

/** The record headers that carry the trace context (W3C Trace Context). */
export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

let tracer: Tracer | undefined;

/** True once startTracing has started a provider in this thread. */
export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** Where spans go: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as is, else OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces; undefined: tracing is off. */
export function tracesUrl(env: Record<string, string | undefined>): string | undefined {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim();
  if (traces) return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

/**
 * Starts the tracer provider of this thread when the environment asks for it (service.name
 * `leadstream`, the role as `leadstream.role`), batching spans to the OTLP/HTTP (JSON) endpoint.
 * Returns the stop hook that flushes and shuts it down (a no-op when tracing is off).
 */
export async function startTracing(
  env: Record<string, string | undefined>,
  role: string,
  logger?: Logger,
  options: { exporter?: SpanExporter } = {},
): Promise<() => Promise<void>> {
  const url = tracesUrl(env);
  if (!url || tracer) return async () => undefined;
  const [
    { NodeTracerProvider },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { ATTR_SERVICE_NAME },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'leadstream', 'leadstream.role': role }),
    spanProcessors: [new BatchSpanProcessor(options.exporter ?? new OTLPTraceExporter({ url }))],
  });
  // The global context manager (AsyncLocalStorage) and the W3C propagator.
  provider.register();
  tracer = provider.getTracer('leadstream');
  logger?.info({ url, role }, 'tracing: exporting spans over OTLP/HTTP');
  return async () => {
    tracer = undefined;
    await provider.shutdown();
  };
}

const headerGetter = {
  keys: (carrier: Headers): string[] => Object.keys(carrier),
  get: (carrier: Headers, key: string): string | undefined => carrier[key],
};

function contextOf(headers: Headers | undefined): Context {
  return headers?.['traceparent'] ? propagation.extract(ROOT_CONTEXT, headers, headerGetter) : ROOT_CONTEXT;
}

/** True when `headers` carry a trace context to continue. */
function traced(headers: Headers | undefined): headers is Headers {
  return tracer !== undefined && typeof headers?.['traceparent'] === 'string';
}

/** The trace headers of a context (a span's), to put on a record produced on its behalf. */
function headersOfContext(ctx: Context): Headers | undefined {
  const carrier: Headers = {};
  propagation.inject(ctx, carrier);
  return carrier['traceparent'] ? carrier : undefined;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
}

/**
 * Starts a span whose parent is the trace context in `headers` (a record's). Undefined when
 * tracing is off or the headers carry no trace context: traces start at the edge (the ingest
 * request), so a record produced by anything else (configuration, an API write) makes no span.
 */
export function startSpanFrom(name: string, headers: Headers | undefined, options: SpanOptions = {}): Span | undefined {
  if (!tracer || !traced(headers)) return undefined;
  return tracer.startSpan(name, options, contextOf(headers));
}

/** The trace headers naming `span` as the parent (undefined without a span). */
export function traceHeadersOf(span: Span | undefined): Headers | undefined {
  if (!span) return undefined;
  return headersOfContext(trace.setSpan(ROOT_CONTEXT, span));
}

/** The trace headers of the active context (the request's span in a route), or undefined. */
export function activeTraceHeaders(): Headers | undefined {
  if (!tracer) return undefined;
  return headersOfContext(context.active());
}

/** Only the trace headers of a record's headers (what a record produced on its behalf carries on). */
export function pickTraceHeaders(headers: Headers | undefined): Headers | undefined {
  if (!traced(headers)) return undefined;
  const picked: Headers = {};
  for (const name of TRACE_HEADERS) if (headers[name] !== undefined) picked[name] = headers[name];
  return picked;
}

/** The record with `headers` added (the record itself when there are none). */
export function withTraceHeaders<T extends { headers?: Headers }>(record: T, headers: Headers | undefined): T {
  return headers ? { ...record, headers: { ...record.headers, ...headers } } : record;
}

/** Ends a span, marking it failed with the error when there is one. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    span.recordException(error instanceof Error ? error : message);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }
  span.end();
}

/**
 * Runs `work` in a server span continuing the caller's trace (its `traceparent`, if any), with the
 * span active so that records produced inside take it as their parent (activeTraceHeaders).
 * `status` is read once the work is done (the HTTP status answered).
 */
export async function inServerSpan(
  name: string,
  incoming: Record<string, string | string[] | undefined>,
  attributes: Attributes,
  work: () => Promise<void>,
  status: () => number,
): Promise<void> {
  if (!tracer) return work();
  const carrier: Headers = {};
  for (const header of TRACE_HEADERS) {
    const value = incoming[header];
    if (typeof value === 'string') carrier[header] = value;
  }
  const parent = contextOf(carrier);
  const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  try {
    await context.with(trace.setSpan(parent, span), work);
    span.setAttribute('http.response.status_code', status());
    if (status() >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/**
 * Runs an outbound call in a client span, child of the trace context in `parent` (the consumed
 * record's headers; without one, the call alone). `outcome` reads the call's result into the span
 * (status, error).
 */
export async function inClientSpan<T>(
  name: string,
  parent: Headers | undefined,
  attributes: Attributes,
  call: () => Promise<T>,
  outcome?: (result: T) => { status?: number | null; error?: string | null },
): Promise<T> {
  if (!tracer || !traced(parent)) return call();
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, contextOf(parent));
  try {
    const result = await call();
    const { status, error } = outcome?.(result) ?? {};
    if (typeof status === 'number') span.setAttribute('http.response.status_code', status);
    if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    span.end();
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}
