/**
 * MX lookups over DNS (docs/decisions.md "Validation") with a canary against resolver outages.
 *
 * A definite "no MX" rejects a lead, so we must be sure the "no" comes from the domain and not
 * from a broken resolver (a firewalled port 53, a resolver that answers NXDOMAIN to everything).
 * Whenever a lookup says "no such domain / no MX", we also ask for the MX of a known-good domain
 * (the canary, gmail.com by default). If the canary fails too, the resolver is the problem: the
 * answer becomes `unavailable` (accept with a warning) and `health()` turns false for /readyz and
 * the metric. The canary result is cached (`canaryTtlMs`), so it costs one lookup per TTL at most.
 */
import { Resolver } from 'node:dns/promises';
import type { MxAnswer, MxResolver } from '@leadstream/ports';

export interface MxResolverOptions {
  /** Resolver addresses as `host[:port]` or `[v6]:port` (IP addresses; node:dns takes no names). Default: the system's. */
  servers?: string[];
  /** Per-query timeout; one try per server. Default 2000 ms. */
  timeoutMs?: number;
  /** A domain that always has MX records. Default `gmail.com`. */
  canaryDomain?: string;
  /** How long a canary result is trusted. Default 60 s. */
  canaryTtlMs?: number;
  /** How long found/none answers per domain are cached. Default 5 min. */
  cacheTtlMs?: number;
  /** Bound of the per-domain cache; the oldest entry goes first. Default 10 000. */
  cacheSize?: number;
  /** Called when DNS availability flips (for the metric and logs). */
  onHealthChange?: (available: boolean) => void;
  /** Clock, injectable so tests expire caches without waiting. */
  now?: () => number;
}

export type MxHealth = ReturnType<MxResolver['health']>;

export interface DnsMxResolver extends MxResolver {
  /** Runs the canary now, e.g. at boot or from a periodic readiness refresh, and returns the health. */
  checkCanary(): Promise<MxHealth>;
}

/** "This name has no MX": NXDOMAIN or a name without MX records. */
const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA']);

interface CanaryState {
  available: boolean;
  checkedAt: number | null;
  reason?: string;
}

export function createMxResolver(options: MxResolverOptions = {}): DnsMxResolver {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const canaryDomain = options.canaryDomain ?? 'gmail.com';
  const canaryTtlMs = options.canaryTtlMs ?? 60_000;
  const cacheTtlMs = options.cacheTtlMs ?? 300_000;
  const cacheSize = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;

  // One try: the lead waits for this answer, and a timeout already means "accept with a warning".
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.servers && options.servers.length > 0) resolver.setServers(options.servers);

  const cache = new Map<string, { answer: MxAnswer; expiresAt: number }>();
  const inFlight = new Map<string, Promise<MxAnswer>>();
  // Optimistic until proven otherwise: no evidence yet is not an outage.
  let canary: CanaryState = { available: true, checkedAt: null };
  let canaryInFlight: Promise<CanaryState> | undefined;

  function setCanary(next: CanaryState): void {
    const changed = next.available !== canary.available;
    canary = next;
    if (changed) options.onHealthChange?.(next.available);
  }

  async function runCanary(): Promise<CanaryState> {
    const answer = await queryMx(resolver, canaryDomain);
    const next: CanaryState =
      answer.status === 'found'
        ? { available: true, checkedAt: now() }
        : {
            available: false,
            checkedAt: now(),
            reason: `canary ${canaryDomain}: ${answer.status === 'none' ? 'no MX' : answer.reason}`,
          };
    setCanary(next);
    return next;
  }

  /** The canary result, from the cache when fresh; concurrent callers share one query. */
  function canaryResult(force = false): Promise<CanaryState> {
    if (!force && canary.checkedAt !== null && now() - canary.checkedAt < canaryTtlMs) return Promise.resolve(canary);
    canaryInFlight ??= runCanary().finally(() => {
      canaryInFlight = undefined;
    });
    return canaryInFlight;
  }

  async function resolve(domain: string): Promise<MxAnswer> {
    const answer = await queryMx(resolver, domain);
    if (answer.status === 'found') {
      // A real answer proves a resolver marked down has recovered. It does not refresh a healthy
      // canary's age: a resolver that breaks right after would otherwise be trusted for a full TTL.
      if (!canary.available) setCanary({ available: true, checkedAt: now() });
      remember(domain, answer);
      return answer;
    }
    if (answer.status === 'none') {
      const state = await canaryResult();
      if (!state.available)
        return { status: 'unavailable', reason: `DNS unavailable (${state.reason ?? 'canary failed'})` };
      remember(domain, answer);
      return answer;
    }
    // Timeout or server failure: already "unavailable". Re-check the canary now, in the
    // background, so health() notices an outage without this lead waiting for a second timeout.
    canaryResult(true).catch(() => undefined);
    return answer;
  }

  function remember(domain: string, answer: MxAnswer): void {
    cache.delete(domain);
    if (cache.size >= cacheSize) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(domain, { answer, expiresAt: now() + cacheTtlMs });
  }

  function health(): MxHealth {
    return {
      available: canary.available,
      checkedAt: canary.checkedAt === null ? null : new Date(canary.checkedAt).toISOString(),
      ...(canary.reason === undefined ? {} : { reason: canary.reason }),
    };
  }

  return {
    lookup(rawDomain: string): Promise<MxAnswer> {
      const domain = rawDomain.trim().toLowerCase().replace(/\.$/, '');
      const cached = cache.get(domain);
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.answer);
      if (cached) cache.delete(domain);

      let pending = inFlight.get(domain);
      if (!pending) {
        pending = resolve(domain).finally(() => inFlight.delete(domain));
        inFlight.set(domain, pending);
      }
      return pending;
    },

    health,

    async checkCanary(): Promise<MxHealth> {
      await canaryResult(true);
      return health();
    },
  };
}

/** One MX query, with the error codes of node:dns mapped to the three answers. */
async function queryMx(resolver: Resolver, domain: string): Promise<MxAnswer> {
  try {
    const records = await resolver.resolveMx(domain);
    // RFC 7505 null MX (`0 .`, exchange "") says the domain accepts no mail: same as no MX.
    const exchanges = records
      .filter((record) => record.exchange !== '' && record.exchange !== '.')
      .sort((a, b) => a.priority - b.priority)
      .map((record) => record.exchange);
    return exchanges.length > 0 ? { status: 'found', exchanges } : { status: 'none' };
  } catch (error) {
    const code = errorCode(error);
    if (NO_RECORD_CODES.has(code)) return { status: 'none' };
    // ETIMEOUT, ESERVFAIL, ECONNREFUSED, EREFUSED, ...: we learned nothing about the domain.
    return { status: 'unavailable', reason: code };
  }
}

function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string')
    return error.code;
  return 'EUNKNOWN';
}
