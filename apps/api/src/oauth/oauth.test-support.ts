/**
 * Drives the OAuth authorize page over plain HTTP (no browser) for the route tests: sign in,
 * read the CSRF token of the consent form, approve or deny, and return where the user is sent.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkcePair(): Pkce {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParameters {
  client_id: string;
  redirect_uri: string;
  scope: string;
  response_type?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
}

export function authorizeQuery(params: AuthorizeParameters): string {
  return new URLSearchParams({ response_type: 'code', ...params } as Record<string, string>).toString();
}

export interface PageResponse {
  status: number;
  html: string;
  location: string | null;
  headers: Headers;
}

export async function page(url: string, init: RequestInit = {}): Promise<PageResponse> {
  const response = await fetch(url, { redirect: 'manual', ...init });
  return {
    status: response.status,
    html: await response.text(),
    location: response.headers.get('location'),
    headers: response.headers,
  };
}

function form(fields: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

/** Signs in on the authorize page: the consent cookie (name=value) and the consent page it leads to. */
export async function signIn(
  base: string,
  params: AuthorizeParameters,
  email: string,
  password = 'Passw0rd!',
): Promise<{ cookie: string; consent: PageResponse; login: PageResponse }> {
  const fields = Object.fromEntries(new URLSearchParams(authorizeQuery(params)));
  const login = await page(`${base}/oauth/authorize/login`, form({ ...fields, email, password }));
  const setCookie = login.headers.get('set-cookie') ?? '';
  const cookie = /^(leadstream_oauth=[^;]+)/.exec(setCookie)?.[1] ?? '';
  const consent =
    login.location && cookie ? await page(new URL(login.location, base).toString(), { headers: { cookie } }) : login;
  return { cookie, consent, login };
}

export function csrfTokenOf(html: string): string {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no csrf token in the page:\n${html}`);
  return token;
}

/** Signs in and decides; returns the URL the user is sent to (Location of the decision). */
export async function authorize(
  base: string,
  params: AuthorizeParameters,
  email: string,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  const { cookie, consent } = await signIn(base, params, email);
  if (consent.status !== 200) {
    if (consent.location) return new URL(consent.location, base);
    throw new Error(`consent page: ${consent.status}\n${consent.html}`);
  }
  const fields = Object.fromEntries(new URLSearchParams(authorizeQuery(params)));
  const decided = await page(`${base}/oauth/authorize/decision`, {
    ...form({ ...fields, csrf_token: csrfTokenOf(consent.html), decision }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
  });
  if (!decided.location) throw new Error(`decision: ${decided.status}\n${decided.html}`);
  return new URL(decided.location);
}

export interface TokenResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

export async function tokenRequest(
  base: string,
  fields: Record<string, string>,
  basic?: { id: string; secret: string },
  path = '/api/oauth/token',
): Promise<TokenResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic)
    headers['authorization'] =
      `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString('base64')}`;
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    headers: response.headers,
  };
}
