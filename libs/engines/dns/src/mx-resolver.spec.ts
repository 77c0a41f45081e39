/**
 * Against a real DNS server on loopback (dns2, UDP), so the error codes of node:dns are the real
 * ones. Each zone entry says how the server answers a name; `silent` never answers (a timeout).
 */
import dns2 from 'dns2';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMxResolver, type MxResolverOptions } from './mx-resolver';

type Behaviour = 'mx' | 'null-mx' | 'nxdomain' | 'servfail' | 'silent';

const TYPE_MX = 15;
const CLASS_IN = 1;
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3 } as const;
const TIMEOUT_MS = 300;

let zone = new Map<string, Behaviour>();
let fallback: Behaviour = 'nxdomain';
const queries: string[] = [];

const server = dns2.createServer({
  udp: true,
  handle: (request, send) => {
    const question = request.questions[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push(name);
    const behaviour = zone.get(name) ?? fallback;
    if (behaviour === 'silent') return;
    const response = dns2.Packet.createResponseFromRequest(request);
    if (behaviour === 'nxdomain') response.header.rcode = RCODE.NXDOMAIN;
    if (behaviour === 'servfail') response.header.rcode = RCODE.SERVFAIL;
    if (behaviour === 'mx' || behaviour === 'null-mx') {
      const exchanges: [string, number][] =
        behaviour === 'mx'
          ? [
              [`mx2.${name}`, 20],
              [`mx1.${name}`, 10],
            ]
          : [['', 0]];
      for (const [exchange, priority] of exchanges) {
        response.answers.push(
          dns2.Packet.createResourceFromQuestion(question, {
            type: TYPE_MX,
            class: CLASS_IN,
            ttl: 300,
            exchange,
            priority,
          }),
        );
      }
    }
    // A failed send shows up as a timeout in the test that caused it.
    send(response).catch(() => undefined);
  },
});

let address = '';
beforeAll(async () => {
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const udp = server.addresses().udp;
  if (!udp) throw new Error('the test DNS server did not bind UDP');
  address = `127.0.0.1:${udp.port}`;
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  zone = new Map([
    ['gmail.com', 'mx'],
    ['example.edu', 'mx'],
    ['nomail.example', 'null-mx'],
  ]);
  fallback = 'nxdomain';
  queries.length = 0;
});

/** A resolver on the test server with a hand-moved clock. */
function resolverFor(options: Partial<MxResolverOptions> = {}) {
  const clock = { now: 1_000_000 };
  const changes: boolean[] = [];
  const resolver = createMxResolver({
    servers: [address],
    timeoutMs: TIMEOUT_MS,
    canaryTtlMs: 60_000,
    cacheTtlMs: 10_000,
    now: () => clock.now,
    onHealthChange: (available) => changes.push(available),
    ...options,
  });
  return { resolver, clock, changes };
}

describe('createMxResolver against a DNS server on loopback', () => {
  it('finds MX records, ordered by priority', async () => {
    const { resolver } = resolverFor();
    expect(await resolver.lookup('Example.EDU.')).toEqual({
      status: 'found',
      exchanges: ['mx1.example.edu', 'mx2.example.edu'],
    });
    expect(resolver.health().available).toBe(true);
  });

  it('says none for NXDOMAIN while the canary resolves', async () => {
    const { resolver } = resolverFor();
    expect(await resolver.lookup('no-such-school.example')).toEqual({ status: 'none' });
    expect(queries).toEqual(['no-such-school.example', 'gmail.com']);
  });

  it('treats a null MX (RFC 7505) as none', async () => {
    const { resolver } = resolverFor();
    expect(await resolver.lookup('nomail.example')).toEqual({ status: 'none' });
  });

  it('says unavailable when the server never answers', async () => {
    fallback = 'silent';
    zone.delete('example.edu');
    const { resolver } = resolverFor();
    expect(await resolver.lookup('example.edu')).toEqual({ status: 'unavailable', reason: 'ETIMEOUT' });
  });

  it('notices an outage behind a timeout through the canary, without making the lookup wait for it', async () => {
    fallback = 'silent';
    zone.clear();
    const { resolver, changes } = resolverFor();
    expect(await resolver.lookup('example.edu')).toEqual({ status: 'unavailable', reason: 'ETIMEOUT' });
    expect(resolver.health().available).toBe(true); // the canary is still on its way
    await vi.waitFor(() =>
      expect(resolver.health()).toMatchObject({ available: false, reason: 'canary gmail.com: ETIMEOUT' }),
    );
    expect(changes).toEqual([false]);
  });

  it('says unavailable on SERVFAIL', async () => {
    zone.set('broken.example', 'servfail');
    const { resolver } = resolverFor();
    expect(await resolver.lookup('broken.example')).toEqual({ status: 'unavailable', reason: 'ESERVFAIL' });
  });

  it('says unavailable, not none, when the canary fails too, and reports health false', async () => {
    zone.delete('gmail.com'); // the resolver now says NXDOMAIN to everything
    const { resolver, changes } = resolverFor();
    const answer = await resolver.lookup('no-such-school.example');
    expect(answer).toMatchObject({ status: 'unavailable' });
    expect(resolver.health()).toMatchObject({ available: false, reason: 'canary gmail.com: no MX' });
    expect(changes).toEqual([false]);
  });

  it('recovers health once the canary resolves again after its TTL', async () => {
    zone.set('gmail.com', 'silent');
    const { resolver, clock, changes } = resolverFor();
    expect(await resolver.lookup('no-such-school.example')).toMatchObject({ status: 'unavailable' });
    expect(resolver.health()).toMatchObject({ available: false, reason: 'canary gmail.com: ETIMEOUT' });

    zone.set('gmail.com', 'mx');
    // Within the canary TTL the cached failure still stands, and nothing is asked again.
    queries.length = 0;
    expect(await resolver.lookup('other-missing.example')).toMatchObject({ status: 'unavailable' });
    expect(queries).toEqual(['other-missing.example']);

    clock.now += 60_000;
    expect(await resolver.lookup('third-missing.example')).toEqual({ status: 'none' });
    expect(resolver.health()).toEqual({ available: true, checkedAt: new Date(clock.now).toISOString() });
    expect(changes).toEqual([false, true]);
  });

  it('recovers health at once when a real MX answer arrives', async () => {
    zone.delete('gmail.com');
    const { resolver } = resolverFor();
    await resolver.lookup('missing.example');
    expect(resolver.health().available).toBe(false);
    expect(await resolver.lookup('example.edu')).toMatchObject({ status: 'found' });
    expect(resolver.health().available).toBe(true);
  });

  it('asks the canary at most once per TTL', async () => {
    const { resolver } = resolverFor();
    await resolver.lookup('a-missing.example');
    await resolver.lookup('b-missing.example');
    expect(queries.filter((name) => name === 'gmail.com')).toHaveLength(1);
  });

  it('does not ask the canary for found answers', async () => {
    const { resolver } = resolverFor();
    await resolver.lookup('example.edu');
    expect(queries).toEqual(['example.edu']);
  });

  it('caches found and none answers per domain until the TTL ends', async () => {
    const { resolver, clock } = resolverFor();
    await resolver.lookup('example.edu');
    await resolver.lookup('missing.example');
    queries.length = 0;
    await resolver.lookup('example.edu');
    await resolver.lookup('missing.example');
    expect(queries).toEqual([]);

    clock.now += 10_000;
    await resolver.lookup('example.edu');
    expect(queries).toEqual(['example.edu']);
  });

  it('does not cache unavailable answers', async () => {
    zone.set('flaky.example', 'servfail');
    const { resolver } = resolverFor();
    await resolver.lookup('flaky.example');
    zone.set('flaky.example', 'mx');
    expect(await resolver.lookup('flaky.example')).toMatchObject({ status: 'found' });
  });

  it('keeps the cache within its bound, dropping the oldest entry', async () => {
    const { resolver } = resolverFor({ cacheSize: 2 });
    zone.set('a.example', 'mx');
    zone.set('b.example', 'mx');
    zone.set('c.example', 'mx');
    await resolver.lookup('a.example');
    await resolver.lookup('b.example');
    await resolver.lookup('c.example');
    queries.length = 0;
    await resolver.lookup('c.example');
    await resolver.lookup('b.example');
    await resolver.lookup('a.example');
    expect(queries.filter((name) => name !== 'gmail.com')).toEqual(['a.example']);
  });

  it('shares one query among concurrent lookups of a domain', async () => {
    const { resolver } = resolverFor();
    await Promise.all([resolver.lookup('example.edu'), resolver.lookup('example.edu'), resolver.lookup('EXAMPLE.edu')]);
    expect(queries).toEqual(['example.edu']);
  });

  it('checkCanary runs the canary on demand', async () => {
    const { resolver } = resolverFor();
    expect(resolver.health()).toEqual({ available: true, checkedAt: null });
    zone.delete('gmail.com');
    expect(await resolver.checkCanary()).toMatchObject({ available: false });
    zone.set('gmail.com', 'mx');
    expect(await resolver.checkCanary()).toMatchObject({ available: true });
  });

  it('uses a configured canary domain', async () => {
    zone.delete('gmail.com');
    zone.set('canary.example', 'mx');
    const { resolver } = resolverFor({ canaryDomain: 'canary.example' });
    expect(await resolver.lookup('missing.example')).toEqual({ status: 'none' });
  });

  it('does not trust a canary inferred from an earlier good answer when the resolver then answers NXDOMAIN for everything', async () => {
    const { resolver } = resolverFor();
    expect((await resolver.lookup('example.edu')).status).toBe('found');
    zone = new Map();
    fallback = 'nxdomain';
    expect((await resolver.lookup('student.example')).status).toBe('unavailable');
    expect(resolver.health().available).toBe(false);
  });
});
