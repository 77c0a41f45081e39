/**
 * MX checks end to end (docs/decisions.md "Validation") against a real DNS server on loopback
 * (dns2): a domain with MX passes, a domain without one is rejected as invalid_email, a lookup that
 * times out is accepted with a warning, and when the resolver cannot resolve even the canary the
 * service says so in /readyz and the metric, and accepts leads with a warning instead of rejecting
 * them all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDal } from '@leadstream/dal';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import dns2 from 'dns2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess } from './test-support/cli-process';

const TYPE_MX = 15;
const NXDOMAIN = 3;
/** Names the server answers with MX records; `slow.example` is never answered; the rest is NXDOMAIN. */
const withMx = new Set(['gmail.com', 'example.edu']);
let answering = true;

const dns = dns2.createServer({
  udp: true,
  handle: (request, send) => {
    const question = request.questions[0];
    if (!question || !answering) return;
    const name = question.name.toLowerCase();
    if (name === 'slow.example') return;
    const response = dns2.Packet.createResponseFromRequest(request);
    if (withMx.has(name)) {
      response.answers.push(
        dns2.Packet.createResourceFromQuestion(question, {
          type: TYPE_MX,
          class: 1,
          ttl: 60,
          exchange: `mx.${name}`,
          priority: 10,
        }),
      );
    } else {
      response.header.rcode = NXDOMAIN;
    }
    send(response).catch(() => undefined);
  },
});

const dataDir = mkdtempSync(join(tmpdir(), 'mx-check-'));
let server: CliProcess;
let base: string;
let key: string;

beforeAll(async () => {
  await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = dns.addresses().udp?.port;
  const store = await openEmbeddedStore({ dataDir: join(dataDir, 'store') });
  await ensureAllIndexes(store);
  const dal = createDal(store);
  const organization = await dal.organizations.create({ name: 'MX University' });
  const tenant = { organizationId: organization.id, environment: 'live' as const };
  const vendor = await dal.vendors.create(tenant, { name: 'Vendor', type: 'inquiry' });
  key = (await dal.apiKeys.create(tenant, { vendorId: vendor.id, name: 'k', permissions: ['read', 'write'] })).key;
  await store.close();
  server = CliProcess.start(['start'], {
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DNS_SERVERS: `127.0.0.1:${port}`,
    MX_TIMEOUT_MS: '300',
    DECISION_TIMEOUT_MS: '10000',
  });
  base = String((await server.waitFor((line) => line.msg === 'api listening', 120_000))['url']);
  await server.waitFor((line) => line.msg === 'ready');
}, 180_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
  await dns.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ingest = (email: string): Promise<Response> =>
  fetch(`${base}/api/v1/leads/ingest`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });

describe('MX checks against a DNS server on loopback', () => {
  it('accepts a domain with MX records without a warning', async () => {
    const response = await ingest('student@example.edu');
    expect(response.status).toBe(201);
    expect(await response.json()).not.toHaveProperty('warnings');
  });

  it('rejects a domain without MX as invalid_email', async () => {
    const response = await ingest('student@nomx.example');
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      success: false,
      error: 'Lead rejected',
      reason: 'invalid_email',
      rule_id: 'validation.mx',
    });
  });

  it('accepts with a warning when the lookup times out', async () => {
    const response = await ingest('student@slow.example');
    expect(response.status).toBe(201);
    const body = (await response.json()) as { warnings: Array<{ field: string }> };
    expect(body.warnings.map((warning) => warning.field)).toContain('email');
  });

  it('does not reject every lead when DNS itself is down, and says so in /readyz and the metric', async () => {
    answering = false;
    const response = await ingest('student@another.example');
    expect(response.status).toBe(201);
    expect(((await response.json()) as { warnings: unknown[] }).warnings).toHaveLength(1);
    // The failed lookup makes the resolver re-check its canary in the background.
    let ready = { status: '', checks: {} as Record<string, Record<string, unknown>> };
    for (let attempt = 0; attempt < 100; attempt++) {
      ready = (await (await fetch(`${base}/readyz`)).json()) as typeof ready;
      if (ready.checks['dns']?.['available'] === false) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(ready.status).toBe('ready');
    expect(ready.checks['dns']).toMatchObject({ ok: true, available: false });
    expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/^leadstream_dns_available 0$/m);
    answering = true;
  });
});
