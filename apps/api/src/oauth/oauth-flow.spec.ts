/**
 * The authorization code flow over real HTTP (docs/decisions.md "OAuth 2.0"): the authorize page's
 * validation, the token endpoint's checks (client secret, redirect_uri, PKCE, expiry, reuse),
 * refresh rotation and the scopes on the user API.
 */
import { OAuthClientRepository, OAuthConsentRepository, OAuthGrantRepository } from '@leadstream/dal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, startAccountsServer, UserApi, type AccountsTestServer } from '../accounts/accounts.test-support';
import {
  authorize,
  authorizeQuery,
  csrfTokenOf,
  page,
  pkcePair,
  signIn,
  tokenRequest,
  type AuthorizeParameters,
} from './oauth.test-support';

const REDIRECT = 'http://127.0.0.1:9/callback';
let server: AccountsTestServer;
let base: string;
let now = Date.parse('2025-06-02T10:00:00.000Z');
let owner: UserApi & { userId: string; organizationId: string };
let confidential: { id: string; secret: string };
let publicClient: string;

beforeAll(async () => {
  server = await startAccountsServer({ clock: () => new Date(now) });
  base = server.url;
  await OAuthClientRepository.ensureIndexes(server.store);
  await OAuthGrantRepository.ensureIndexes(server.store);
  await OAuthConsentRepository.ensureIndexes(server.store);
  owner = await UserApi.owner(base, 'owner@flow.edu', 'Flow University');
  const created = await owner.call('POST', '/api/oauth/clients', {
    name: 'Flow CRM',
    redirect_uris: [REDIRECT, 'https://crm.example.com/cb'],
  });
  confidential = { id: String(dataOf(created)['id']), secret: String(dataOf(created)['client_secret']) };
  publicClient = String(
    dataOf(
      await owner.call('POST', '/api/oauth/clients', { name: 'Flow SPA', redirect_uris: [REDIRECT], public: true }),
    )['id'],
  );
});

afterAll(async () => {
  await server?.close();
});

const params = (extra: Partial<AuthorizeParameters> = {}): AuthorizeParameters => ({
  client_id: confidential.id,
  redirect_uri: REDIRECT,
  scope: 'vendors:read leads:read',
  state: 'st-123',
  ...extra,
});

async function codeFor(extra: Partial<AuthorizeParameters> = {}, email = 'owner@flow.edu'): Promise<string> {
  const landed = await authorize(base, params(extra), email);
  const code = landed.searchParams.get('code');
  if (!code) throw new Error(`no code: ${landed.toString()}`);
  return code;
}

const exchange = (code: string, extra: Record<string, string> = {}): ReturnType<typeof tokenRequest> =>
  tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: confidential.id,
    client_secret: confidential.secret,
    ...extra,
  });

const errorCode = (response: { body: Record<string, unknown> }): unknown =>
  (response.body['error'] as { code?: unknown } | undefined)?.code;

describe('GET /oauth/authorize', () => {
  it('shows an error page and never redirects for an unknown client or a redirect_uri not registered exactly', async () => {
    for (const query of [
      authorizeQuery(params({ client_id: 'oac_unknown' })),
      authorizeQuery(params({ redirect_uri: `${REDIRECT}/` })),
      authorizeQuery(params({ redirect_uri: 'https://evil.example.com/cb' })),
      authorizeQuery(params({ redirect_uri: `${REDIRECT}?x=1` })),
      `client_id=${confidential.id}&response_type=code&scope=leads:read`,
    ]) {
      const response = await page(`${base}/oauth/authorize?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.location).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(response.html).toContain('This authorization request cannot be completed');
    }
  });

  it.each([
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ scope: 'leads:read leads:delete' }, 'invalid_scope'],
    [{ scope: '' }, 'invalid_scope'],
    [{ code_challenge: pkcePair().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge: pkcePair().challenge }, 'invalid_request'],
    [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
  ])('redirects %j back with error=%s and the state', async (extra, error) => {
    const response = await page(`${base}/oauth/authorize?${authorizeQuery(params(extra))}`);
    expect(response.status).toBe(302);
    const location = new URL(response.location ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('st-123');
  });

  it('requires PKCE (S256) from public clients', async () => {
    const response = await page(`${base}/oauth/authorize?${authorizeQuery(params({ client_id: publicClient }))}`);
    const location = new URL(response.location ?? '');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toContain('PKCE');
  });

  it('shows the sign-in form with strict headers, and refuses a wrong password on the page', async () => {
    const response = await page(`${base}/oauth/authorize?${authorizeQuery(params())}`);
    expect(response.status).toBe(200);
    expect(response.html).toContain('Sign in to continue to Flow CRM');
    expect(response.html).toContain('action="/oauth/authorize/login"');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const wrong = await signIn(base, params(), 'owner@flow.edu', 'Wrong1Pass');
    expect(wrong.login.status).toBe(401);
    expect(wrong.cookie).toBe('');
    expect(wrong.login.html).toContain('Invalid email or password.');
  });

  it('shows the consent screen with the client, the scopes, the organization and an HttpOnly SameSite=Lax cookie', async () => {
    const { login, consent } = await signIn(base, params(), 'owner@flow.edu');
    expect(login.status).toBe(303);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/httponly/i);
    expect(setCookie).toMatch(/samesite=lax/i);
    expect(setCookie).toMatch(/path=\/oauth\/authorize/i);
    expect(setCookie).not.toMatch(/secure/i); // plain http in the test; https gets Secure
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('Flow CRM wants to access your LeadStream account');
    expect(consent.html).toContain('Flow University');
    expect(consent.html).toContain('View your lead vendors');
    expect(consent.html).toContain('View your leads and their activity');
    expect(consent.html).toMatch(/value="approve"/);
    expect(consent.html).toMatch(/value="deny"/);
  });

  it('refuses a decision without the CSRF token of the signed-in page', async () => {
    const { cookie, consent } = await signIn(base, params(), 'owner@flow.edu');
    const fields = Object.fromEntries(new URLSearchParams(authorizeQuery(params())));
    const post = (csrf: string, withCookie: string): ReturnType<typeof page> =>
      page(`${base}/oauth/authorize/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(withCookie ? { cookie: withCookie } : {}) },
        body: new URLSearchParams({ ...fields, csrf_token: csrf, decision: 'approve' }).toString(),
      });
    expect((await post('ocf_forged', cookie)).status).toBe(403);
    const other = await signIn(base, params(), 'owner@flow.edu');
    expect((await post(csrfTokenOf(other.consent.html), cookie)).status).toBe(403); // bound to its own cookie
    expect((await post(csrfTokenOf(consent.html), '')).status).toBe(401); // no cookie: sign in again
    expect((await post(csrfTokenOf(consent.html), cookie)).status).toBe(303);
  });

  it('Deny sends the client error=access_denied with the state', async () => {
    const landed = await authorize(base, params(), 'owner@flow.edu', 'deny');
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('st-123');
    expect(landed.searchParams.get('code')).toBeNull();
  });
});

describe('scopes are limited by the role', () => {
  it("answers invalid_scope when the user's role lacks a requested scope, and consents within it", async () => {
    await owner.member('viewer@flow.edu', 'viewer');
    const refused = await authorize(base, params({ scope: 'vendors:read' }), 'viewer@flow.edu');
    expect(refused.searchParams.get('error')).toBe('invalid_scope');
    expect(refused.searchParams.get('error_description')).toContain('vendors:read');
    const allowed = await authorize(base, params({ scope: 'leads:read analytics:read' }), 'viewer@flow.edu');
    expect(allowed.searchParams.get('code')).toBeTruthy();
  });

  it('refuses users of another organization (clients are private to the organization that registered them)', async () => {
    await UserApi.owner(base, 'owner@elsewhere.edu', 'Elsewhere College');
    const landed = await authorize(base, params(), 'owner@elsewhere.edu');
    expect(landed.searchParams.get('error')).toBe('access_denied');
  });

  it("a token works only on routes within its scopes, and only while the user's role still has them", async () => {
    const manager = await owner.member('manager@flow.edu', 'manager');
    const tokens = await exchange(await codeFor({ scope: 'vendors:read organization:read' }, 'manager@flow.edu'));
    expect(tokens.status).toBe(200);
    const access = String(tokens.body['access_token']);
    const oauth = new UserApi(base, access);
    expect((await oauth.call('GET', '/api/vendors')).status).toBe(200);
    expect((await oauth.call('GET', '/api/organization')).status).toBe(200);
    for (const [method, path] of [
      ['GET', '/api/users'],
      ['POST', '/api/auth/refresh'],
      ['POST', '/api/auth/logout'],
      ['GET', '/api/oauth/clients'],
    ] as const) {
      const response = await oauth.call(method, path);
      expect({ path, status: response.status, code: errorCode(response) }).toEqual({
        path,
        status: 403,
        code: 'INSUFFICIENT_PERMISSIONS',
      });
    }
    expect((await owner.call('PATCH', `/api/users/${manager.userId}`, { role: 'viewer' })).status).toBe(200);
    expect(await oauth.call('GET', '/api/vendors')).toMatchObject({
      status: 403,
      body: { error: { code: 'INSUFFICIENT_PERMISSIONS' } },
    });
    expect((await oauth.call('GET', '/api/organization')).status).toBe(200);
  });
});

describe('POST /api/oauth/token', () => {
  it('exchanges a code for a Bearer access token (JWT with scope, 3600 s) and a refresh token, with no-store', async () => {
    const response = await exchange(await codeFor());
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'leads:read vendors:read' });
    expect(String(response.body['refresh_token'])).toMatch(/^ort_/);
    const payload = JSON.parse(
      Buffer.from(String(response.body['access_token']).split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(payload).toMatchObject({
      scope: 'leads:read vendors:read',
      client_id: confidential.id,
      sub: owner.userId,
      aud: 'leadstream:oauth',
    });
    expect(Number(payload['exp']) - Number(payload['iat'])).toBe(3600);
    expect((await new UserApi(base, String(response.body['access_token'])).call('GET', '/api/vendors')).status).toBe(
      200,
    );
    expect(
      await new UserApi(base, String(response.body['access_token'])).call('POST', '/api/vendors', {
        name: 'Nope',
        type: 'inquiry',
      }),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'INSUFFICIENT_PERMISSIONS' } },
    });
  });

  it('also answers at /oauth/token and accepts HTTP Basic client authentication', async () => {
    const response = await tokenRequest(
      base,
      { grant_type: 'authorization_code', code: await codeFor(), redirect_uri: REDIRECT },
      confidential,
      '/oauth/token',
    );
    expect(response.status).toBe(200);
  });

  it('checks the confidential client secret, in the body and in Basic (401 invalid_client)', async () => {
    const code = await codeFor();
    const cases = [
      await tokenRequest(base, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: confidential.id,
        client_secret: 'ocs_wrong',
      }),
      await tokenRequest(base, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: confidential.id,
      }),
      await tokenRequest(
        base,
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        { id: confidential.id, secret: 'ocs_wrong' },
      ),
      await tokenRequest(
        base,
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
        { id: 'oac_unknown', secret: confidential.secret },
      ),
    ];
    for (const response of cases) {
      expect(response.status).toBe(401);
      expect(response.body['error']).toBe('invalid_client');
      expect(response.headers.get('www-authenticate')).toContain('Basic');
    }
    // The code was not touched by failed client authentication.
    expect((await exchange(code)).status).toBe(200);
  });

  it('requires redirect_uri exactly as in the authorization request', async () => {
    const code = await codeFor({ redirect_uri: 'https://crm.example.com/cb' });
    expect(await exchange(code, { redirect_uri: REDIRECT })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('checks the PKCE verifier (S256)', async () => {
    const pkce = pkcePair();
    const challenge = { code_challenge: pkce.challenge, code_challenge_method: 'S256' };
    expect(await exchange(await codeFor(challenge), { code_verifier: pkcePair().verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await exchange(await codeFor(challenge))).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(await codeFor(), { code_verifier: pkce.verifier })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect((await exchange(await codeFor(challenge), { code_verifier: pkce.verifier })).status).toBe(200);
  });

  it('lets a public client exchange its code with PKCE and no secret', async () => {
    const pkce = pkcePair();
    const code = await codeFor({
      client_id: publicClient,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    });
    const response = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: publicClient,
      code_verifier: pkce.verifier,
    });
    expect(response.status).toBe(200);
    // A code is bound to its client.
    const stolen = await exchange(
      await codeFor({ client_id: publicClient, code_challenge: pkce.challenge, code_challenge_method: 'S256' }),
      { code_verifier: pkce.verifier },
    );
    expect(stolen).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('expires codes after 60 seconds', async () => {
    const code = await codeFor();
    now += 61_000;
    expect(await exchange(code)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'the authorization code has expired' },
    });
  });

  it('uses a code once; a second use fails and revokes the tokens issued from it', async () => {
    const code = await codeFor();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    const api = new UserApi(base, String(first.body['access_token']));
    expect((await api.call('GET', '/api/vendors')).status).toBe(200);
    expect(await exchange(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(errorCode(await api.call('GET', '/api/vendors'))).toBe('TOKEN_INVALID');
    expect(
      await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: String(first.body['refresh_token']),
        client_id: confidential.id,
        client_secret: confidential.secret,
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('rotates refresh tokens; a used one fails and ends the authorization', async () => {
    const first = await exchange(await codeFor());
    const refresh = (token: string, extra: Record<string, string> = {}): ReturnType<typeof tokenRequest> =>
      tokenRequest(base, { grant_type: 'refresh_token', refresh_token: token, ...extra }, confidential);
    const second = await refresh(String(first.body['refresh_token']));
    expect(second.status).toBe(200);
    expect(second.body['refresh_token']).not.toBe(first.body['refresh_token']);
    const narrowed = await refresh(String(second.body['refresh_token']), { scope: 'leads:read' });
    expect(narrowed).toMatchObject({ status: 200, body: { scope: 'leads:read' } });
    expect((await new UserApi(base, String(narrowed.body['access_token'])).call('GET', '/api/vendors')).status).toBe(
      403,
    );
    expect(await refresh(String(narrowed.body['refresh_token']), { scope: 'leads:read leads:write' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope' },
    });

    // Replaying a rotated refresh token: refused, and everything of the grant stops working.
    const latest = await refresh(String(narrowed.body['refresh_token']));
    expect(latest.status).toBe(200);
    expect(await refresh(String(first.body['refresh_token']))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(await refresh(String(latest.body['refresh_token']))).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    expect(errorCode(await new UserApi(base, String(latest.body['access_token'])).call('GET', '/api/vendors'))).toBe(
      'TOKEN_INVALID',
    );
  });

  it('answers RFC 6749 errors for bad requests', async () => {
    const json = await fetch(`${base}/api/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    expect(
      await tokenRequest(base, { grant_type: 'password', username: 'a', password: 'b' }, confidential),
    ).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
    expect(await tokenRequest(base, { code: 'x' }, confidential)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(
      await tokenRequest(base, { grant_type: 'authorization_code', redirect_uri: REDIRECT }, confidential),
    ).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(
      await tokenRequest(
        base,
        { grant_type: 'authorization_code', code: 'occ_nope', redirect_uri: REDIRECT },
        confidential,
      ),
    ).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('deleting the client ends its grants: tokens stop working and its credentials are refused', async () => {
    const created = await owner.call('POST', '/api/oauth/clients', { name: 'Short Lived', redirect_uris: [REDIRECT] });
    const client = { id: String(dataOf(created)['id']), secret: String(dataOf(created)['client_secret']) };
    const landed = await authorize(base, params({ client_id: client.id }), 'owner@flow.edu');
    const tokens = await tokenRequest(
      base,
      { grant_type: 'authorization_code', code: landed.searchParams.get('code') ?? '', redirect_uri: REDIRECT },
      client,
    );
    const api = new UserApi(base, String(tokens.body['access_token']));
    expect((await api.call('GET', '/api/vendors')).status).toBe(200);
    expect((await owner.call('DELETE', `/api/oauth/clients/${client.id}`)).status).toBe(204);
    expect(errorCode(await api.call('GET', '/api/vendors'))).toBe('TOKEN_INVALID');
    expect(
      await tokenRequest(
        base,
        { grant_type: 'refresh_token', refresh_token: String(tokens.body['refresh_token']) },
        client,
      ),
    ).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});
