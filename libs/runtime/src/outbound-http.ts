/**
 * The one way leadstream calls a URL an organization gave it (rule webhooks now; webhooks and
 * CRM connectors with their issue). docs/decisions.md:
 * - HTTPS only, and every address the host resolves to must be public (no private, loopback,
 *   link-local, multicast or reserved ranges; an IPv6 address that embeds an IPv4 address is
 *   judged by the IPv4 address). Checked after DNS on every call, and the request
 *   connects to the very address that was checked, so a name that resolves differently a moment
 *   later (DNS rebinding) cannot slip through.
 * - Redirects are not followed: a 3xx is the answer.
 * - A bounded timeout for the whole exchange, and at most `maxResponseBytes` of the body are read.
 * `allowInsecureTargets` (WEBHOOK_ALLOW_INSECURE_TARGETS=true, development and tests only) allows
 * http and non-public addresses.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface OutboundRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  /** Sent as JSON when present. */
  body?: unknown;
  /** Sent byte for byte when present (instead of `body`), e.g. a signed webhook body; content-type defaults to JSON. */
  rawBody?: string;
}

export interface OutboundOptions {
  timeoutMs: number;
  maxResponseBytes?: number;
  allowInsecureTargets?: boolean;
  /** Name resolution (tests pass their own DNS); all addresses of the host. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Milliseconds since some origin, for response_time_ms. */
  clock?: () => number;
}

export type OutboundResult =
  | { ok: true; status: number; timeMs: number; body: string; headers: OutboundResponseHeaders }
  | {
      ok: false;
      status: number | null;
      timeMs: number;
      error: string;
      code: OutboundErrorCode;
      body?: string;
      headers?: OutboundResponseHeaders;
    };

/** Response headers, lower-case names (as node:http gives them). */
export type OutboundResponseHeaders = Record<string, string | string[] | undefined>;

export type OutboundErrorCode = 'TARGET_REFUSED' | 'TIMEOUT' | 'CONNECTION_FAILED' | 'HTTP_ERROR';

const DEFAULT_MAX_RESPONSE = 64 * 1024;

async function systemResolve(hostname: string): Promise<string[]> {
  return (await dnsLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
}

/**
 * The IPv4 address inside an IPv6 address of a form that carries one, or null. Such an address
 * reaches the IPv4 host (through the kernel, a NAT64 gateway or a 6to4 relay), so it is judged
 * by that host: `::127.0.0.1` is loopback, `64:ff9b::a9fe:a9fe` is 169.254.169.254.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = address.parts as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const ipv4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeroes = (...parts: number[]) => parts.every((part) => part === 0);
  // IPv4-mapped ::ffff:a.b.c.d
  if (zeroes(p0, p1, p2, p3, p4) && p5 === 0xffff) return ipv4(p6, p7);
  // IPv4-translated ::ffff:0:a.b.c.d
  if (zeroes(p0, p1, p2, p3) && p4 === 0xffff && p5 === 0) return ipv4(p6, p7);
  // IPv4-compatible ::a.b.c.d (deprecated); :: and ::1 are the IPv6 unspecified and loopback addresses.
  if (zeroes(p0, p1, p2, p3, p4, p5) && !(p6 === 0 && p7 <= 1)) return ipv4(p6, p7);
  // NAT64 well-known prefix 64:ff9b::a.b.c.d
  if (p0 === 0x64 && p1 === 0xff9b && zeroes(p2, p3, p4, p5)) return ipv4(p6, p7);
  // 6to4 2002:aabb:ccdd::/48 carries a.b.c.d in its second and third groups.
  if (p0 === 0x2002) return ipv4(p1, p2);
  return null;
}

/** Why an address may not be called, or null when it is public unicast. */
export function nonPublicAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const embedded = parsed.kind() === 'ipv6' ? embeddedIPv4(parsed as ipaddr.IPv6) : null;
  if (embedded) {
    const range = embedded.range();
    return range === 'unicast' ? null : `${address} is a ${range} address (it embeds ${embedded.toString()})`;
  }
  // Other IPv6 forms that carry an IPv4 address (Teredo, local-use NAT64 prefixes) are not unicast here.
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/** The target's problem before any connection (scheme, addresses), or the address to connect to. */
export async function checkTarget(
  url: string,
  options: Pick<OutboundOptions, 'allowInsecureTargets' | 'resolve'>,
): Promise<{ ok: true; target: URL; address: string } | { ok: false; error: string }> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, error: `${url} is not a URL` };
  }
  const insecure = options.allowInsecureTargets === true;
  if (target.protocol !== 'https:' && !(insecure && target.protocol === 'http:'))
    return { ok: false, error: 'the target must use https' };
  if (target.username || target.password)
    return { ok: false, error: 'the target may not carry credentials in its URL' };
  const hostname = target.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(hostname) ? [hostname] : await (options.resolve ?? systemResolve)(hostname);
  } catch (error) {
    return {
      ok: false,
      error: `could not resolve ${hostname}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (addresses.length === 0) return { ok: false, error: `${hostname} has no address` };
  if (!insecure) {
    for (const address of addresses) {
      const reason = nonPublicAddressReason(address);
      if (reason) return { ok: false, error: `${hostname} resolves to a non-public address (${reason})` };
    }
  }
  return { ok: true, target, address: addresses[0]! };
}

/** One call; never throws (every failure is a result with its code). */
export async function sendOutbound(request: OutboundRequest, options: OutboundOptions): Promise<OutboundResult> {
  const clock = options.clock ?? (() => performance.now());
  const started = clock();
  const elapsed = () => Math.round(clock() - started);
  const checked = await checkTarget(request.url, options);
  if (!checked.ok) return { ok: false, status: null, timeMs: elapsed(), error: checked.error, code: 'TARGET_REFUSED' };
  const { target, address } = checked;
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4;
  // Connect to the checked address whatever the name resolves to now; TLS still verifies the name.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all)
      (callback as unknown as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ]);
    else callback(null, address, family);
  };
  const payload =
    request.rawBody !== undefined
      ? Buffer.from(request.rawBody)
      : request.body === undefined
        ? undefined
        : Buffer.from(JSON.stringify(request.body));
  const headers: Record<string, string> = {
    'user-agent': 'leadstream',
    ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
    ...request.headers,
  };
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE;
  return new Promise<OutboundResult>((resolve) => {
    let settled = false;
    const finish = (result: OutboundResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const client = target.protocol === 'https:' ? https : http;
    const outgoing = client.request(
      target,
      { method: request.method, headers, lookup: pinned, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size >= limit) return;
          chunks.push(chunk.subarray(0, limit - size));
          size += Math.min(chunk.length, limit - size);
          if (size >= limit) response.destroy();
        });
        const done = () => {
          const status = response.statusCode ?? 0;
          const body = Buffer.concat(chunks).toString('utf8');
          const headers = response.headers;
          if (status >= 200 && status < 300) finish({ ok: true, status, timeMs: elapsed(), body, headers });
          else
            finish({
              ok: false,
              status,
              timeMs: elapsed(),
              error: `HTTP ${status}`,
              code: 'HTTP_ERROR',
              body,
              headers,
            });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({
        ok: false,
        status: null,
        timeMs: elapsed(),
        error: `no answer within ${options.timeoutMs} ms`,
        code: 'TIMEOUT',
      });
      outgoing.destroy();
    }, options.timeoutMs);
    outgoing.on('error', (error) =>
      finish({ ok: false, status: null, timeMs: elapsed(), error: error.message, code: 'CONNECTION_FAILED' }),
    );
    outgoing.end(payload);
  });
}
