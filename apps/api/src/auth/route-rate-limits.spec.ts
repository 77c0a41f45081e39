/**
 * A user-API route counts against one rate-limit scope of spec 8: its own when it names one (get
 * lead 200/min), else the general API limit. Before, the general limit (100) applied on top and
 * capped every route at 100.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';

let server: AccountsTestServer;
let owner: Awaited<ReturnType<typeof UserApi.owner>>;

beforeAll(async () => {
  // A general limit of 3 per minute makes the difference visible in a few requests.
  server = await startAccountsServer({ rateLimits: { authentication: 1_000, generalApi: 3 } });
  owner = await UserApi.owner(server.url, 'limits.owner@example.edu', 'Limits College');
});

afterAll(async () => {
  await server.close();
});

describe('route rate-limit scopes', () => {
  it('counts a route with its own scope only against that scope', async () => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await owner.call('GET', '/api/leads/lead_unknown'));
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404]);
    expect(answers[4]?.headers.get('x-ratelimit-limit')).toBe('200');
    expect(answers[4]?.headers.get('x-ratelimit-remaining')).toBe('195');
  });

  it('still limits routes without a scope of their own by the general API limit', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await owner.call('GET', '/api/vendors')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
