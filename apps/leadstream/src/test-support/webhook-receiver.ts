/**
 * A webhook receiver written against docs/webhooks.md alone, for end-to-end tests: a node:http
 * server on loopback that verifies every delivery's X-Service-Signature with Stripe's verifier (the
 * same scheme: HMAC-SHA256 of "<t>.<raw body>"), checks the envelope and each event's payload
 * against schemas/messages/event-payloads.schema.json, records what it got, and answers per path
 * (200, a 500 for failing paths, or a held answer).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventPayloadProblems } from '@leadstream/schemas';
import Stripe from 'stripe';

/** The events a webhook may subscribe to (docs/api-conventions.md "Events"), lead.accepted included. */
export const SPEC_EVENTS = [
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'lead.validated',
  'lead.rejected',
  'lead.duplicate',
  'lead.enriched',
  'lead.crm_synced',
  'lead.crm_sync_failed',
  'vendor.enabled',
  'vendor.disabled',
  'export.completed',
  'export.failed',
  'lead.accepted',
];

export interface Received {
  path: string;
  id: string;
  event: string;
  organizationId: string;
  data: Record<string, unknown>;
  signature: string;
  /** What the receiver found wrong: a signature Stripe's verifier refuses, a payload its schema refuses, extra envelope keys. */
  problems: string[];
}

/** A receiver written against docs/webhooks.md: verifies, checks, records; answers per path. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  readonly failing = new Set<string>();
  /** Paths whose next request is held until `release` (the crash test). */
  readonly holding = new Set<string>();
  private held: Array<() => void> = [];
  private server!: Server;
  private readonly stripe = new Stripe('sk_test_x');
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = request.url ?? '';
    const signature = String(request.headers['x-service-signature'] ?? '');
    const problems: string[] = [];
    try {
      const verifier = this.stripe.webhooks.signature;
      if (!verifier) throw new Error('this version of stripe has no signature verifier');
      verifier.verifyHeader(raw, signature, this.secrets.get(path) ?? 'no secret for this path', 300);
    } catch (error) {
      problems.push(`signature: ${error instanceof Error ? error.message : String(error)}`);
    }
    const envelope = JSON.parse(raw) as {
      id: string;
      event: string;
      timestamp: string;
      organization_id: string;
      data: Record<string, unknown>;
    };
    const keys = Object.keys(envelope).sort();
    if (keys.join() !== 'data,event,id,organization_id,timestamp') problems.push(`envelope keys ${keys.join()}`);
    if (!envelope.id.startsWith('evt_test_'))
      problems.push(...eventPayloadProblems({ event: envelope.event, data: envelope.data }));
    this.received.push({
      path,
      id: envelope.id,
      event: envelope.event,
      organizationId: envelope.organization_id,
      data: envelope.data,
      signature,
      problems,
    });
    if (this.holding.has(path)) {
      this.holding.delete(path);
      this.held.push(() => response.writeHead(200).end());
      return;
    }
    response
      .writeHead(this.failing.has(path) ? 500 : 200, { 'content-type': 'text/plain' })
      .end(this.failing.has(path) ? 'down' : 'ok');
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Polls until `check` returns a value (not undefined), or fails after the deadline. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
