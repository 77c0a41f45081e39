/**
 * A trace receiver for end-to-end tests: a node:http server on loopback that accepts OTLP/HTTP
 * JSON at /v1/traces (what @opentelemetry/exporter-trace-otlp-http sends) and keeps every span
 * with the resource attributes of its sender.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP span kind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
  /** The sender's resource attributes (service.name, leadstream.role). */
  resource: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

interface OtlpRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: Array<{
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: OtlpAttribute[];
      }>;
    }>;
  }>;
}

/** OTLP/JSON ids are hex; a sender that writes base64 (the protobuf JSON mapping) is read too. */
function hexId(id: string | undefined): string {
  if (!id) return '';
  return /^[0-9a-f]+$/i.test(id) && (id.length === 32 || id.length === 16)
    ? id.toLowerCase()
    : Buffer.from(id, 'base64').toString('hex');
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) out[key] = Object.values(value)[0];
  return out;
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not OTLP JSON traces (content type, path or body), for the test to assert none. */
  readonly refused: string[] = [];
  private server!: Server;
  /** The OTEL_EXPORTER_OTLP_ENDPOINT of this receiver (the exporter appends /v1/traces). */
  endpoint = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const type = String(request.headers['content-type'] ?? '');
    if (request.method !== 'POST' || request.url !== '/v1/traces' || !type.startsWith('application/json')) {
      this.refused.push(`${request.method} ${request.url} ${type}`);
      response.writeHead(415, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    let parsed: OtlpRequest;
    try {
      parsed = JSON.parse(body.toString('utf8')) as OtlpRequest;
    } catch (error) {
      this.refused.push(`unreadable body: ${String(error)}`);
      response.writeHead(400, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    for (const resourceSpans of parsed.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          this.spans.push({
            traceId: hexId(span.traceId),
            spanId: hexId(span.spanId),
            parentSpanId: hexId(span.parentSpanId),
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            resource,
          });
        }
      }
    }
    // An ExportTraceServiceResponse with nothing rejected.
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
