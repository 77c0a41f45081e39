import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_AUDIENCE, SESSION_ISSUER } from '../auth/session-tokens';
import { ACCOUNT_TOKENS_COLLECTION } from '@leadstream/dal';
import {
  CapturingMailer,
  startAccountsServer,
  TEST_JWT_SECRET,
  UserApi,
  type AccountsTestServer,
} from './accounts.test-support';

let server: AccountsTestServer;
let mailer: CapturingMailer;
let api: UserApi;

beforeAll(async () => {
  mailer = new CapturingMailer();
  server = await startAccountsServer({ mailer });
  api = new UserApi(server.url);
});

afterAll(async () => {
  await server?.close();
});

const registration = (overrides: Record<string, unknown> = {}) => ({
  email: 'ann@state.edu',
  password: 'Passw0rd!',
  first_name: 'Ann',
  last_name: 'Lee',
  organization_name: 'State University',
  ...overrides,
});

function sign(
  claims: Record<string, unknown>,
  options: { secret?: string; alg?: string; exp?: number; iat?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(SESSION_ISSUER)
    .setAudience(SESSION_AUDIENCE)
    .setJti(randomUUID())
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 3600)
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}

function unsigned(claims: Record<string, unknown>): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iss: SESSION_ISSUER, aud: SESSION_AUDIENCE, jti: randomUUID(), iat: now, exp: now + 3600, ...claims })}.`;
}

async function expectError(
  response: Promise<{ status: number; body: Record<string, unknown> }>,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  const { status: actual, body } = await response;
  expect({ status: actual, code: (body['error'] as { code?: string } | undefined)?.code }).toEqual({ status, code });
  return body['error'] as Record<string, unknown>;
}

describe('POST /api/auth/register', () => {
  it('creates the organization and its owner and answers 201 {token, user}', async () => {
    const { status, body } = await api.call('POST', '/api/auth/register', registration());
    expect(status).toBe(201);
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(body['user']).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: 'ann@state.edu',
      first_name: 'Ann',
      last_name: 'Lee',
      role: 'owner',
      organization_id: expect.stringMatching(/^org_/),
    });
    const organization = await api.call('GET', '/api/organization', undefined, String(body['token']));
    expect(organization.status).toBe(200);
    expect(organization.body['data']).toMatchObject({
      id: (body['user'] as { organization_id: string }).organization_id,
      name: 'State University',
    });
  });

  it('refuses a registered email, in any letter case, with 409 EMAIL_ALREADY_REGISTERED', async () => {
    await expectError(
      api.call('POST', '/api/auth/register', registration({ email: 'ANN@State.edu' })),
      409,
      'EMAIL_ALREADY_REGISTERED',
    );
  });

  it.each([
    ['short', 'Sh0rt'],
    ['no uppercase', 'password1'],
    ['no lowercase', 'PASSWORD1'],
    ['no digit', 'Password'],
  ])('answers a weak password (%s) with 400 WEAK_PASSWORD', async (_case, password) => {
    const error = await expectError(
      api.call('POST', '/api/auth/register', registration({ email: 'weak@state.edu', password })),
      400,
      'WEAK_PASSWORD',
    );
    expect(error['details']).toEqual([
      { field: 'password', message: expect.stringContaining('Password must contain') },
    ]);
  });

  it('answers invalid fields with 400 VALIDATION_ERROR listing each of them', async () => {
    const error = await expectError(
      api.call(
        'POST',
        '/api/auth/register',
        registration({ email: 'not-an-email', first_name: 'A', last_name: 'x'.repeat(51), organization_name: 'Z' }),
      ),
      400,
      'VALIDATION_ERROR',
    );
    expect((error['details'] as Array<{ field: string }>).map((detail) => detail.field).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
      'organization_name',
    ]);
    const missing = await expectError(api.call('POST', '/api/auth/register', {}), 400, 'VALIDATION_ERROR');
    expect((missing['details'] as Array<{ field: string }>).map((detail) => detail.field).sort()).toEqual([
      'email',
      'first_name',
      'last_name',
      'organization_name',
      'password',
    ]);
  });
});

describe('POST /api/auth/login, /refresh, /logout', () => {
  let token: string;

  beforeAll(async () => {
    await api.register('login@state.edu');
  });

  it('answers 200 {token, user, expires_at} with a 24-hour session', async () => {
    const before = Date.now();
    const { status, body } = await api.call('POST', '/api/auth/login', {
      email: 'Login@STATE.edu',
      password: 'Passw0rd!',
    });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'user']);
    expect(body['user']).toMatchObject({ email: 'login@state.edu', role: 'owner' });
    const expiresAt = Date.parse(String(body['expires_at']));
    expect(expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 24 * 3600 * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    token = String(body['token']);
  });

  it('gives the same 401 INVALID_CREDENTIALS for a wrong password and an unknown email', async () => {
    const wrong = await expectError(
      api.call('POST', '/api/auth/login', { email: 'login@state.edu', password: 'Wr0ngpass' }),
      401,
      'INVALID_CREDENTIALS',
    );
    const unknown = await expectError(
      api.call('POST', '/api/auth/login', { email: 'nobody@state.edu', password: 'Passw0rd!' }),
      401,
      'INVALID_CREDENTIALS',
    );
    expect(unknown).toEqual(wrong);
  });

  it('refresh returns a new token and ends the old one; logout ends the current one', async () => {
    const refreshed = await api.call('POST', '/api/auth/refresh', undefined, token);
    expect(refreshed.status).toBe(200);
    expect(Object.keys(refreshed.body).sort()).toEqual(['expires_at', 'token']);
    const next = String(refreshed.body['token']);
    expect(next).not.toBe(token);
    await expectError(api.call('GET', '/api/organization', undefined, token), 401, 'TOKEN_INVALID');
    expect((await api.call('GET', '/api/organization', undefined, next)).status).toBe(200);

    const logout = await api.call('POST', '/api/auth/logout', undefined, next);
    expect(logout.status).toBe(204);
    await expectError(api.call('GET', '/api/organization', undefined, next), 401, 'TOKEN_INVALID');
    await expectError(api.call('POST', '/api/auth/refresh', undefined, next), 401, 'TOKEN_INVALID');
  });

  it('lets exactly one of 30 concurrent refreshes of one token succeed; the others get 401 TOKEN_INVALID', async () => {
    const login = await api.call('POST', '/api/auth/login', { email: 'login@state.edu', password: 'Passw0rd!' });
    const token = String(login.body['token']);
    // 30 keep-alive connections first, so the refreshes reach the server together, not one connection at a time.
    const warmUp = await Promise.all(
      Array.from({ length: 30 }, () => api.call('GET', '/api/organization', undefined, token)),
    );
    expect(warmUp.map((answer) => answer.status)).toEqual(Array(30).fill(200));
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => api.call('POST', '/api/auth/refresh', undefined, token)),
    );
    const succeeded = answers.filter((answer) => answer.status === 200);
    const refused = answers
      .filter((answer) => answer.status !== 200)
      .map((answer) => ({
        status: answer.status,
        code: (answer.body['error'] as { code?: string } | undefined)?.code,
      }));
    expect(succeeded).toHaveLength(1);
    expect(refused).toEqual(Array(29).fill({ status: 401, code: 'TOKEN_INVALID' }));
    expect((await api.call('GET', '/api/organization', undefined, String(succeeded[0]?.body['token']))).status).toBe(
      200,
    );
    await expectError(api.call('GET', '/api/organization', undefined, token), 401, 'TOKEN_INVALID');
  });
});

describe('session tokens are refused with the right code', () => {
  let user: { id: string; organization_id: string };

  beforeAll(async () => {
    user = (await api.register('tokens@state.edu', 'Token College')).user as typeof user;
  });

  const claims = () => ({ sub: user.id, org: user.organization_id, role: 'owner' });
  const get = (token: string) => api.call('GET', '/api/organization', undefined, token);

  it('accepts a token signed with the secret (control)', async () => {
    expect((await get(await sign(claims()))).status).toBe(200);
  });

  it('refuses a missing header and a malformed token with TOKEN_INVALID', async () => {
    await expectError(api.call('GET', '/api/organization', undefined, undefined), 401, 'TOKEN_INVALID');
    await expectError(get('not.a.jwt'), 401, 'TOKEN_INVALID');
    await expectError(get('abc'), 401, 'TOKEN_INVALID');
  });

  it('refuses a token signed with another key with TOKEN_INVALID', async () => {
    await expectError(
      get(await sign(claims(), { secret: 'another-secret-of-at-least-32-characters' })),
      401,
      'TOKEN_INVALID',
    );
  });

  it('refuses alg:none and another algorithm with TOKEN_INVALID', async () => {
    await expectError(get(unsigned(claims())), 401, 'TOKEN_INVALID');
    await expectError(get(await sign(claims(), { alg: 'HS512' })), 401, 'TOKEN_INVALID');
  });

  it('refuses an expired token with TOKEN_EXPIRED, and an expired forgery with TOKEN_INVALID', async () => {
    const past = Math.floor(Date.now() / 1000) - 25 * 3600;
    await expectError(get(await sign(claims(), { iat: past, exp: past + 24 * 3600 })), 401, 'TOKEN_EXPIRED');
    await expectError(
      get(
        await sign(claims(), { iat: past, exp: past + 24 * 3600, secret: 'another-secret-of-at-least-32-characters' }),
      ),
      401,
      'TOKEN_INVALID',
    );
  });

  it('refuses a well-signed token of an unknown user or of another organization with TOKEN_INVALID', async () => {
    await expectError(get(await sign({ ...claims(), sub: 'usr_doesnotexist' })), 401, 'TOKEN_INVALID');
    await expectError(get(await sign({ ...claims(), org: 'org_other' })), 401, 'TOKEN_INVALID');
  });
});

describe('forgot-password and reset-password', () => {
  beforeAll(async () => {
    await api.register('reset@state.edu', 'Reset College');
  });

  it('answers forgot-password 200 {message} alike for known and unknown emails, mailing only the known', async () => {
    const sentBefore = mailer.sent.length;
    const unknown = await api.call('POST', '/api/auth/forgot-password', { email: 'ghost@state.edu' });
    const known = await api.call('POST', '/api/auth/forgot-password', { email: 'reset@state.edu' });
    expect(unknown.status).toBe(200);
    expect(known).toMatchObject({ status: 200, body: unknown.body });
    expect(Object.keys(known.body)).toEqual(['message']);
    // Shown as it is on the console's page: a sentence, with its period.
    expect(known.body['message']).toBe('If an account exists for this email, a password reset link has been sent.');
    await mailer.tokenFor('reset@state.edu', 'reset-password', sentBefore);
    expect(mailer.sent.slice(sentBefore).map((mail) => mail.to)).toEqual(['reset@state.edu']);
    expect(mailer.sent.at(-1)?.text).toContain('https://app.test/reset-password?token=');
  });

  it('resets the password once: the old password and sessions stop working, the token is single-use', async () => {
    const session = String(
      (await api.call('POST', '/api/auth/login', { email: 'reset@state.edu', password: 'Passw0rd!' })).body['token'],
    );
    const sent = mailer.sent.length;
    await api.call('POST', '/api/auth/forgot-password', { email: 'reset@state.edu' });
    const token = await mailer.tokenFor('reset@state.edu', 'reset-password', sent);

    await expectError(
      api.call('POST', '/api/auth/reset-password', { token, new_password: 'weak' }),
      400,
      'WEAK_PASSWORD',
    );
    const reset = await api.call('POST', '/api/auth/reset-password', { token, new_password: 'N3wPassword' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: 'Password has been reset. Sign in with the new password.' });
    await expectError(
      api.call('POST', '/api/auth/reset-password', { token, new_password: 'An0therPass' }),
      400,
      'INVALID_RESET_TOKEN',
    );

    await expectError(
      api.call('POST', '/api/auth/login', { email: 'reset@state.edu', password: 'Passw0rd!' }),
      401,
      'INVALID_CREDENTIALS',
    );
    expect(
      (await api.call('POST', '/api/auth/login', { email: 'reset@state.edu', password: 'N3wPassword' })).status,
    ).toBe(200);
    await expectError(api.call('GET', '/api/organization', undefined, session), 401, 'TOKEN_INVALID');
  });

  it('refuses an unknown token and an expired one with 400 INVALID_RESET_TOKEN', async () => {
    await expectError(
      api.call('POST', '/api/auth/reset-password', { token: 'made-up-token', new_password: 'N3wPassword' }),
      400,
      'INVALID_RESET_TOKEN',
    );
    const sent = mailer.sent.length;
    await api.call('POST', '/api/auth/forgot-password', { email: 'reset@state.edu' });
    const token = await mailer.tokenFor('reset@state.edu', 'reset-password', sent);
    await server.store
      .collection(ACCOUNT_TOKENS_COLLECTION)
      .updateMany({ used_at: null }, { $set: { expires_at: new Date(Date.now() - 1_000) } });
    await expectError(
      api.call('POST', '/api/auth/reset-password', { token, new_password: 'N3wPassword' }),
      400,
      'INVALID_RESET_TOKEN',
    );
  });
});

describe('POST /api/auth/change-password', () => {
  beforeAll(async () => {
    await api.register('change@state.edu');
  });

  const login = async (password: string): Promise<string> =>
    String((await api.call('POST', '/api/auth/login', { email: 'change@state.edu', password })).body['token']);

  it('refuses a wrong current password, the same password and a weak one, and changes nothing', async () => {
    const session = await login('Passw0rd!');
    const wrong = await expectError(
      api.call(
        'POST',
        '/api/auth/change-password',
        { current_password: 'Wr0ngpass', new_password: 'N3wPassword' },
        session,
      ),
      400,
      'VALIDATION_ERROR',
    );
    expect(wrong['details']).toEqual([
      { field: 'current_password', message: 'current_password is not your current password' },
    ]);
    const same = await expectError(
      api.call(
        'POST',
        '/api/auth/change-password',
        { current_password: 'Passw0rd!', new_password: 'Passw0rd!' },
        session,
      ),
      400,
      'VALIDATION_ERROR',
    );
    expect(same['details']).toEqual([
      { field: 'new_password', message: 'new_password must differ from the current password' },
    ]);
    await expectError(
      api.call('POST', '/api/auth/change-password', { current_password: 'Passw0rd!', new_password: 'weak' }, session),
      400,
      'WEAK_PASSWORD',
    );
    await expectError(
      api.call('POST', '/api/auth/change-password', { current_password: 'Passw0rd!', new_password: 'N3wPassword' }),
      401,
      'TOKEN_INVALID',
    );
    // Still the old password, and the session still works.
    expect((await api.call('GET', '/api/organization', undefined, session)).status).toBe(200);
    expect(
      (await api.call('POST', '/api/auth/login', { email: 'change@state.edu', password: 'Passw0rd!' })).status,
    ).toBe(200);
  });

  it('changes the password, ends every earlier session and answers a new one for this client', async () => {
    const here = await login('Passw0rd!');
    const elsewhere = await login('Passw0rd!');
    const changed = await api.call(
      'POST',
      '/api/auth/change-password',
      { current_password: 'Passw0rd!', new_password: 'N3wPassword' },
      here,
    );
    expect(changed.status).toBe(200);
    expect(Object.keys(changed.body).sort()).toEqual(['expires_at', 'message', 'token']);
    expect(changed.body['message']).toBe('Password changed. Other sessions have been signed out.');
    const next = String(changed.body['token']);
    const organization = await api.call('GET', '/api/organization', undefined, next);
    expect(organization.status).toBe(200);
    await expectError(api.call('GET', '/api/organization', undefined, elsewhere), 401, 'TOKEN_INVALID');
    await expectError(api.call('GET', '/api/organization', undefined, here), 401, 'TOKEN_INVALID');
    await expectError(
      api.call('POST', '/api/auth/login', { email: 'change@state.edu', password: 'Passw0rd!' }),
      401,
      'INVALID_CREDENTIALS',
    );
    expect(
      (await api.call('POST', '/api/auth/login', { email: 'change@state.edu', password: 'N3wPassword' })).status,
    ).toBe(200);
  });
});

describe('a password reset ends every session issued before it, even within the same second', () => {
  let frozen: AccountsTestServer;
  let frozenMailer: CapturingMailer;
  let frozenApi: UserApi;

  beforeAll(async () => {
    // Every request happens at one instant: issue and reset share their second (and millisecond).
    const now = new Date();
    frozenMailer = new CapturingMailer();
    frozen = await startAccountsServer({ mailer: frozenMailer, clock: () => now });
    frozenApi = new UserApi(frozen.url);
  });

  afterAll(async () => {
    await frozen?.close();
  });

  it('refuses the earlier sessions and their refreshes, and accepts a login after the reset', async () => {
    const email = 'same.second@state.edu';
    const registered = (await frozenApi.register(email, 'Same Second College')).token;
    const login = String(
      (await frozenApi.call('POST', '/api/auth/login', { email, password: 'Passw0rd!' })).body['token'],
    );
    const other = String(
      (await frozenApi.call('POST', '/api/auth/login', { email, password: 'Passw0rd!' })).body['token'],
    );
    const refreshed = await frozenApi.call('POST', '/api/auth/refresh', undefined, other);
    expect(refreshed.status).toBe(200);
    const refreshedToken = String(refreshed.body['token']);

    const sent = frozenMailer.sent.length;
    await frozenApi.call('POST', '/api/auth/forgot-password', { email });
    const resetToken = await frozenMailer.tokenFor(email, 'reset-password', sent);
    expect(
      (await frozenApi.call('POST', '/api/auth/reset-password', { token: resetToken, new_password: 'N3wPassword' }))
        .status,
    ).toBe(200);

    for (const token of [registered, login, refreshedToken]) {
      await expectError(frozenApi.call('GET', '/api/organization', undefined, token), 401, 'TOKEN_INVALID');
      await expectError(frozenApi.call('POST', '/api/auth/refresh', undefined, token), 401, 'TOKEN_INVALID');
    }

    const after = await frozenApi.call('POST', '/api/auth/login', { email, password: 'N3wPassword' });
    expect(after.status).toBe(200);
    expect((await frozenApi.call('GET', '/api/organization', undefined, String(after.body['token']))).status).toBe(200);
    const renewed = await frozenApi.call('POST', '/api/auth/refresh', undefined, String(after.body['token']));
    expect(renewed.status).toBe(200);
    expect((await frozenApi.call('GET', '/api/organization', undefined, String(renewed.body['token']))).status).toBe(
      200,
    );
  });
});

/** A POST from a given loopback address (the whole 127.0.0.0/8 is local on Linux). */
function postFrom(
  localAddress: string,
  path: string,
  body: unknown,
  base: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: JSON.parse(text) as Record<string, unknown>,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('rate limits of the authentication endpoints (10 per minute)', () => {
  let limited: AccountsTestServer;

  beforeAll(async () => {
    // A fixed instant 20 s into a window, so the test never straddles a window boundary.
    const now = new Date('2025-05-05T12:00:40.000Z');
    limited = await startAccountsServer({
      rateLimits: { authentication: 10, generalApi: 1_000, loginPerAccount: 20 },
      clock: () => now,
    });
  });

  afterAll(async () => {
    await limited?.close();
  });

  it('answers the 11th login attempt from one address with 429 and the rate-limit headers', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (
          await postFrom(
            '127.0.0.1',
            '/api/auth/login',
            { email: `user${i}@x.edu`, password: 'Passw0rd!' },
            limited.url,
          )
        ).status,
      );
    expect(statuses).toEqual(Array(10).fill(401));
    const eleventh = await postFrom(
      '127.0.0.1',
      '/api/auth/login',
      { email: 'other@x.edu', password: 'Passw0rd!' },
      limited.url,
    );
    expect(eleventh.status).toBe(429);
    expect(eleventh.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: expect.any(Number) },
    });
    expect(eleventh.body).toMatchObject({ error: { retry_after: 20 } });
    expect(eleventh.headers['retry-after']).toBe('20');
    expect(eleventh.headers['x-ratelimit-limit']).toBe('10');
    expect(eleventh.headers['x-ratelimit-remaining']).toBe('0');
    expect(eleventh.headers['x-ratelimit-reset']).toBe(String(Date.parse('2025-05-05T12:01:00.000Z') / 1000));
    // Another address is not affected.
    expect(
      (await postFrom('127.0.0.2', '/api/auth/login', { email: 'other@x.edu', password: 'Passw0rd!' }, limited.url))
        .status,
    ).toBe(401);
  });

  it('does not let wrong passwords from one address lock the account for other addresses', async () => {
    const register = {
      email: 'victim@x.edu',
      password: 'Passw0rd!',
      first_name: 'Vi',
      last_name: 'Ctim',
      organization_name: 'Victim College',
    };
    expect((await postFrom('127.0.3.1', '/api/auth/register', register, limited.url)).status).toBe(201);
    // The forms of one email that login treats as one account.
    const variants = ['victim@x.edu', 'Victim@X.edu', ' victim@x.edu', 'VICTIM@x.edu'];
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (
          await postFrom(
            '127.0.3.2',
            '/api/auth/login',
            { email: variants[i % variants.length], password: `Guess${i}abc` },
            limited.url,
          )
        ).status,
      );
    expect(statuses).toEqual(Array(10).fill(401));
    // The guessing address stays limited, whatever it sends.
    const again = await postFrom(
      '127.0.3.2',
      '/api/auth/login',
      { email: 'victim@x.edu', password: 'Passw0rd!' },
      limited.url,
    );
    expect(again.status).toBe(429);
    expect(again.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: 20 },
    });
    // The owner signs in from another address, with any form of the email.
    expect(
      (await postFrom('127.0.3.3', '/api/auth/login', { email: 'victim@x.edu', password: 'Passw0rd!' }, limited.url))
        .status,
    ).toBe(200);
    expect(
      (await postFrom('127.0.3.4', '/api/auth/login', { email: ' Victim@X.EDU', password: 'Passw0rd!' }, limited.url))
        .status,
    ).toBe(200);
  });

  it('limits attempts on one account from many addresses at the per-account backstop (20 per 15 minutes here)', async () => {
    const register = {
      email: 'target@x.edu',
      password: 'Passw0rd!',
      first_name: 'Ta',
      last_name: 'Rget',
      organization_name: 'Target College',
    };
    expect((await postFrom('127.0.3.5', '/api/auth/register', register, limited.url)).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push(
        (
          await postFrom(
            `127.0.1.${i + 1}`,
            '/api/auth/login',
            { email: i % 2 ? 'Target@x.edu' : ' target@x.edu', password: `Guess${i}abc` },
            limited.url,
          )
        ).status,
      );
    expect(statuses).toEqual(Array(20).fill(401));
    // Past the backstop even the right password from a fresh address waits for the 15-minute window to end.
    const blocked = await postFrom(
      '127.0.1.200',
      '/api/auth/login',
      { email: 'target@x.edu', password: 'Passw0rd!' },
      limited.url,
    );
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded', retry_after: 860 },
    });
    expect(blocked.headers['retry-after']).toBe('860');
    expect(blocked.headers['x-ratelimit-limit']).toBe('20');
    expect(blocked.headers['x-ratelimit-reset']).toBe(String(Date.parse('2025-05-05T12:15:00.000Z') / 1000));
  });

  it('limits forgot-password per account from many addresses', async () => {
    const forgot: number[] = [];
    for (let i = 0; i < 11; i++)
      forgot.push(
        (await postFrom(`127.0.2.${i + 1}`, '/api/auth/forgot-password', { email: 'target@x.edu' }, limited.url))
          .status,
      );
    expect(forgot.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(forgot[10]).toBe(429);
  });
});
