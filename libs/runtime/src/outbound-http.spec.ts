import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTarget, nonPublicAddressReason, sendOutbound } from './outbound-http';

describe('outbound HTTP', () => {
  let server: http.Server;
  let port = 0;
  const seen: Array<{ method: string | undefined; url: string | undefined; body: string; host: string | undefined }> =
    [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, body, host: request.headers.host });
        if (request.url === '/redirect') response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
        else if (request.url === '/hang')
          return; // never answers
        else if (request.url === '/big') response.writeHead(200).end('x'.repeat(100_000));
        else if (request.url === '/fail') response.writeHead(500).end('broken');
        else if (request.url === '/limited')
          response.writeHead(429, { 'retry-after': '7' }).end('{"error":"slow down"}');
        else response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends JSON and reports the status when insecure targets are allowed', async () => {
    const result = await sendOutbound(
      { url: `http://127.0.0.1:${port}/hook`, method: 'POST', body: { a: 1 } },
      { timeoutMs: 5_000, allowInsecureTargets: true },
    );
    expect(result).toMatchObject({ ok: true, status: 200, body: '{"ok":true}' });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/hook', body: '{"a":1}' });
  });

  it('sends a raw body byte for byte and reports an error answer with its body and headers', async () => {
    const raw = '{"b": 2,  "a":1}';
    expect(
      await sendOutbound(
        { url: `http://127.0.0.1:${port}/raw`, method: 'POST', rawBody: raw },
        { timeoutMs: 5_000, allowInsecureTargets: true },
      ),
    ).toMatchObject({ ok: true, status: 200 });
    expect(seen.at(-1)).toMatchObject({ url: '/raw', body: raw });
    const limited = await sendOutbound(
      { url: `http://127.0.0.1:${port}/limited`, method: 'POST', body: {} },
      { timeoutMs: 5_000, allowInsecureTargets: true },
    );
    expect(limited).toMatchObject({
      ok: false,
      status: 429,
      code: 'HTTP_ERROR',
      body: '{"error":"slow down"}',
      headers: { 'retry-after': '7' },
    });
  });

  it('refuses http and non-public addresses by default, before connecting', async () => {
    const before = seen.length;
    expect(
      await sendOutbound({ url: `http://127.0.0.1:${port}/hook`, method: 'POST' }, { timeoutMs: 5_000 }),
    ).toMatchObject({ ok: false, code: 'TARGET_REFUSED', error: 'the target must use https' });
    const resolved = await sendOutbound(
      { url: `https://hooks.example.test:${port}/`, method: 'POST' },
      { timeoutMs: 5_000, resolve: async () => ['8.8.4.4', '10.0.0.7'] },
    );
    expect(resolved).toMatchObject({
      ok: false,
      code: 'TARGET_REFUSED',
      error: expect.stringContaining('10.0.0.7 is a private address'),
    });
    expect(seen.length).toBe(before);
  });

  it('connects to the address it checked, not to a second resolution', async () => {
    let calls = 0;
    const result = await sendOutbound(
      { url: `http://hooks.example.test:${port}/pinned`, method: 'GET' },
      {
        timeoutMs: 5_000,
        allowInsecureTargets: true,
        resolve: async () => (calls++ === 0 ? ['127.0.0.1'] : ['192.0.2.1']),
      },
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(calls).toBe(1);
    expect(seen.at(-1)).toMatchObject({ url: '/pinned', host: `hooks.example.test:${port}` });
  });

  it('does not follow redirects, stops at the timeout and reads a bounded body', async () => {
    const options = { timeoutMs: 5_000, allowInsecureTargets: true, maxResponseBytes: 1_000 };
    expect(await sendOutbound({ url: `http://127.0.0.1:${port}/redirect`, method: 'GET' }, options)).toMatchObject({
      ok: false,
      status: 302,
      code: 'HTTP_ERROR',
    });
    expect(await sendOutbound({ url: `http://127.0.0.1:${port}/fail`, method: 'GET' }, options)).toMatchObject({
      ok: false,
      status: 500,
      code: 'HTTP_ERROR',
    });
    const big = await sendOutbound({ url: `http://127.0.0.1:${port}/big`, method: 'GET' }, options);
    expect(big.ok && big.body.length).toBe(1_000);
    expect(
      await sendOutbound({ url: `http://127.0.0.1:${port}/hang`, method: 'GET' }, { ...options, timeoutMs: 200 }),
    ).toMatchObject({ ok: false, status: null, code: 'TIMEOUT' });
  });

  it('classifies addresses', async () => {
    expect(nonPublicAddressReason('8.8.8.8')).toBeNull();
    expect(nonPublicAddressReason('169.254.169.254')).toContain('linkLocal');
    expect(nonPublicAddressReason('::ffff:127.0.0.1')).toContain('loopback');
    expect(nonPublicAddressReason('fd00::1')).toContain('uniqueLocal');
    expect(await checkTarget('https://user:pw@example.com/', {})).toEqual({
      ok: false,
      error: 'the target may not carry credentials in its URL',
    });
    expect(await checkTarget('ftp://example.com/', {})).toEqual({ ok: false, error: 'the target must use https' });
  });

  it('judges an IPv6 address that embeds an IPv4 address by the IPv4 address', async () => {
    const refused = async (url: string) => {
      const checked = await checkTarget(url, {});
      return checked.ok ? null : checked.error;
    };
    // IPv4-compatible (::a.b.c.d; the URL parser writes it ::7f00:1), IPv4-mapped, NAT64, 6to4.
    expect(await refused('https://[::127.0.0.1]/h')).toContain('loopback');
    expect(await refused('https://[::ffff:10.0.0.1]/h')).toContain('private');
    expect(await refused('https://[64:ff9b::a9fe:a9fe]/h')).toContain('linkLocal');
    expect(await refused('https://[2002:a9fe:a9fe::1]/h')).toContain('linkLocal');
    expect(await refused('https://[::ffff:0:7f00:1]/h')).toContain('loopback');
    // Decimal IPv4 is 127.0.0.1 once parsed.
    expect(await refused('https://2130706433/h')).toContain('loopback');
    // Public addresses stay allowed, in IPv6 and embedded in IPv6.
    expect(await refused('https://[2606:4700:4700::1111]/h')).toBeNull();
    expect(await refused('https://[::ffff:8.8.8.8]/h')).toBeNull();
    expect(await refused('https://[64:ff9b::808:808]/h')).toBeNull();
    // Forms that are not public whatever they embed: loopback, unspecified, Teredo, local-use NAT64.
    expect(nonPublicAddressReason('::1')).toContain('loopback');
    expect(nonPublicAddressReason('::')).toContain('unspecified');
    expect(nonPublicAddressReason('2001::808:808')).toContain('teredo');
    expect(nonPublicAddressReason('64:ff9b:1::808:808')).toContain('rfc6052');
  });
});
