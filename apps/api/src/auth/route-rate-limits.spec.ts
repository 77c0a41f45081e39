/**
 * Every user-API route counts against the general per-user API limit (100 a minute) and,
 * when it has one, against its own scope too (get lead 200, list webhooks 100, funnel 500, ...).
 * Before, a route with its own scope counted only against that scope, so after the general limit
 * was used up on one route the others still answered with budgets of their own.
 */
import type { Analytics } from '@leadstream/ports';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;
/** One instant for the whole file: every request falls in the same one-minute window. */
const NOW = new Date();

/** The funnel overview of an organization without leads: one row of zeros. */
const emptyAnalytics: Analytics = {
  engine: 'chdb',
  migrate: async () => [],
  insert: async () => undefined,
  query: async <T>() =>
    [
      { totalInquiries: 0, totalApplications: 0, matchedApplications: 0, convertedInquiries: 0, averageSeconds: null },
    ] as T[],
  command: async () => undefined,
  ping: async () => undefined,
  close: async () => undefined,
};

beforeAll(async () => {
  // A general limit of 3 per minute makes the difference visible in a few requests.
  server = await startAccountsServer({
    rateLimits: { authentication: 1_000, generalApi: 3 },
    clock: () => NOW,
    analytics: emptyAnalytics,
  });
  owner = await UserApi.owner(server.url, 'limits.owner@example.edu', 'Limits College');
});

afterAll(async () => {
  await server.close();
});

/** The 429 of the general limit: its headers and body, whatever the route's own limit is. */
function expectGeneralLimitRefusal(
  answer: { status: number; body: Record<string, unknown>; headers: Headers },
  route: string,
): void {
  expect(answer.status, route).toBe(429);
  expect(answer.headers.get('x-ratelimit-limit'), route).toBe('3');
  expect(answer.headers.get('x-ratelimit-remaining'), route).toBe('0');
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter, route).toBeGreaterThan(0);
  // The user convention, or the funnel's own (docs/api-conventions.md).
  const body = route.includes('funnel')
    ? { success: false, error: 'Rate limit exceeded', retry_after: retryAfter, limit: 3, window: 60 }
    : { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: retryAfter } };
  expect(answer.body, route).toEqual(body);
}

describe('route rate limits with the general API limit', () => {
  it('shows the limit closer to refusing: the general one while it has less left than the route', async () => {
    const member = await owner.member('limits.first@example.edu', 'admin');
    const answer = await member.call('GET', '/api/leads/lead_unknown');
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-ratelimit-limit')).toBe('3');
    expect(answer.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('stops every route, with a scope of its own or not, once the general limit is used up on another', async () => {
    const member = await owner.member('limits.second@example.edu', 'admin');
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await member.call('GET', '/api/vendors')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // Routes with their own scope (get lead 200, list webhooks 100, funnel 500) and one without.
    const routes = [
      '/api/leads/lead_unknown',
      '/api/webhooks',
      '/api/analytics/funnel/overview',
      '/api/vendor-funnel-links',
      '/api/users',
    ];
    const answers: Array<Awaited<ReturnType<UserApi['call']>>> = [];
    for (const route of routes) answers.push(await member.call('GET', route));
    expect(answers.map((answer) => answer.status)).toEqual([429, 429, 429, 429, 429]);
    routes.forEach((route, index) => expectGeneralLimitRefusal(answers[index]!, route));
  });

  it('still stops a route by its own limit when the general limit has room', async () => {
    // POST /api/webhooks allows 10 a minute; the general limit of this server is 3, so a server
    // with a larger general limit shows the route's own.
    const roomy = await startAccountsServer({
      rateLimits: { authentication: 1_000, generalApi: 1_000 },
      clock: () => NOW,
    });
    try {
      const admin = await UserApi.owner(roomy.url, 'limits.roomy@example.edu', 'Roomy College');
      const statuses = [];
      let last: Awaited<ReturnType<UserApi['call']>> | undefined;
      for (let i = 0; i < 11; i++) {
        last = await admin.call('POST', '/api/webhooks', { url: 'not a url', events: ['lead.created'] });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([...Array<number>(10).fill(400), 429]);
      expect(last?.headers.get('x-ratelimit-limit')).toBe('10');
      expect(last?.body).toEqual({
        error: {
          code: 'RATE_LIMIT_EXCEEDED',
          message: 'Rate limit exceeded',
          retry_after: Number(last?.headers.get('retry-after')),
        },
      });
    } finally {
      await roomy.close();
    }
  });
});
