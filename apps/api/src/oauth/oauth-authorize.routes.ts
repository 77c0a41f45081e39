/**
 * The authorization endpoint (docs/decisions.md "OAuth 2.0", RFC 6749 4.1, RFC 7636), served by the
 * app as HTML:
 *   GET  /oauth/authorize            query client_id, redirect_uri, response_type=code, scope, state?,
 *                                    code_challenge?, code_challenge_method=S256?
 *                                    → sign-in form, or the consent screen when signed in here
 *   POST /oauth/authorize/login      form: the request's parameters + email, password
 *                                    → sets the consent cookie and 303s back to GET (the consent screen)
 *   POST /oauth/authorize/decision   form: the request's parameters + csrf_token + decision=approve|deny
 *                                    → 303 to redirect_uri?code=…&state=… or ?error=access_denied&state=…
 *
 * Errors (RFC 6749 4.1.2.1): an unknown client or a redirect_uri that is not exactly one of the
 * client's is an error page (the user is never sent to an unverified address); everything else
 * goes back to the redirect_uri as `error`, `error_description` and `state`.
 *
 * The sign-in here is for the consent step only: a random cookie (`leadstream_oauth`, HttpOnly,
 * SameSite=Lax, Secure over https, path /oauth/authorize, 10 minutes) names a server-side record
 * that holds the user and the CSRF token of the consent form; the decision ends it.
 */
import Router from '@koa/router';
import type { OAuthClient } from '@leadstream/dal';
import {
  dummyPasswordHash,
  isDomainError,
  isWellFormedCodeChallenge,
  OAUTH_CONSENT_SESSION_TTL_SECONDS,
  OAuthError,
  parseScope,
  sameSecret,
  scopesBeyondRole,
  verifyPassword,
  type OAuthScope,
  type User,
} from '@leadstream/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import { loginAttemptLimits } from '../accounts/login-limits';
import type { OAuthContext } from './oauth.context';
import { consentPage, errorPage, signInPage, type HiddenFields } from './oauth-pages';

export const CONSENT_COOKIE = 'leadstream_oauth';
const COOKIE_PATH = '/oauth/authorize';

/** The parameters of an authorization request that the forms carry along. */
const REQUEST_PARAMETERS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: OAuthScope[];
  state: string | null;
  codeChallenge: string | null;
  /** The parameters as received, for the forms' hidden fields. */
  fields: HiddenFields;
}

export type CheckedRequest =
  | { kind: 'fatal'; message: string }
  | { kind: 'redirect'; redirectUri: string; state: string | null; error: OAuthError }
  | { kind: 'ok'; request: AuthorizationRequest };

type Parameters = Record<string, unknown>;

/** A parameter sent at most once (RFC 6749 3.1): its value, undefined when absent, 'repeated' when sent twice. */
function single(params: Parameters, name: string): string | undefined | typeof REPEATED {
  const value = params[name];
  if (Array.isArray(value)) return REPEATED;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
const REPEATED = Symbol('repeated');

/** Checks an authorization request in the order of RFC 6749 4.1.2.1: client and redirect URI first. */
export async function checkAuthorizationRequest(context: OAuthContext, params: Parameters): Promise<CheckedRequest> {
  const clientId = single(params, 'client_id');
  if (clientId === REPEATED || clientId === undefined) return { kind: 'fatal', message: 'The request has no client_id (or more than one).' };
  const client = clientId.length <= 100 ? await context.clients.findByClientId(clientId) : null;
  if (!client) return { kind: 'fatal', message: 'The application (client_id) is not registered with LeadStream.' };
  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === REPEATED || redirectUri === undefined) return { kind: 'fatal', message: 'The request has no redirect_uri (or more than one).' };
  if (!client.redirect_uris.includes(redirectUri)) return { kind: 'fatal', message: 'The redirect_uri is not one of the addresses registered for this application.' };

  const rawState = single(params, 'state');
  const state = typeof rawState === 'string' ? rawState : null;
  const fail = (error: OAuthError): CheckedRequest => ({ kind: 'redirect', redirectUri, state, error });
  const fields: HiddenFields = {};
  for (const name of REQUEST_PARAMETERS) {
    const value = single(params, name);
    if (value === REPEATED) return fail(new OAuthError('invalid_request', `${name} must not be repeated`));
    if (value !== undefined) fields[name] = value;
  }
  const responseType = fields['response_type'];
  if (responseType === undefined) return fail(new OAuthError('invalid_request', 'response_type is required'));
  if (responseType !== 'code') return fail(new OAuthError('unsupported_response_type', 'only response_type=code is supported'));
  let scopes: OAuthScope[];
  try {
    scopes = parseScope(fields['scope']);
  } catch (error) {
    if (error instanceof OAuthError) return fail(error);
    throw error;
  }
  const challenge = fields['code_challenge'] ?? null;
  const method = fields['code_challenge_method'];
  if (method !== undefined && method !== 'S256') return fail(new OAuthError('invalid_request', 'code_challenge_method must be S256'));
  if (challenge === null && method !== undefined) return fail(new OAuthError('invalid_request', 'code_challenge_method was sent without code_challenge'));
  if (challenge !== null && method === undefined) return fail(new OAuthError('invalid_request', 'code_challenge_method=S256 is required (plain is not supported)'));
  if (challenge !== null && !isWellFormedCodeChallenge(challenge)) return fail(new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)'));
  if (challenge === null && client.public) return fail(new OAuthError('invalid_request', 'PKCE (code_challenge with code_challenge_method=S256) is required for public clients'));
  return { kind: 'ok', request: { client, redirectUri, scopes, state, codeChallenge: challenge, fields } };
}

/** redirect_uri with the answer's parameters added to its query (RFC 6749 4.1.2). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

function errorRedirect(checked: { redirectUri: string; state: string | null; error: OAuthError }): string {
  return redirectWith(checked.redirectUri, { error: checked.error.error, error_description: checked.error.description, state: checked.state });
}

/** Headers of every page: no caching, no framing (clickjacking of the Approve button), nothing but inline CSS. */
function html(ctx: ParameterizedContext, status: number, body: string, formTarget?: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  // form-action also governs the redirects that follow a form submission, so it names the client.
  ctx.set('Content-Security-Policy', `default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'${formTarget ? ` ${formTarget}` : ''}`);
  ctx.body = body;
}

function origin(uri: string): string {
  return new URL(uri).origin;
}

export function oauthAuthorizeRouter(context: OAuthContext): Router {
  const router = new Router();
  const { consents, grants } = context;
  const { users, dal, clock, authRateLimit } = context.accounts;

  /** The user signed in on this page, with the consent record, or null. */
  const signedIn = async (ctx: ParameterizedContext): Promise<{ user: User; cookie: string; csrfToken: string } | null> => {
    const cookie = ctx.cookies.get(CONSENT_COOKIE);
    if (!cookie || cookie.length > 100) return null;
    const session = await consents.find(cookie, clock());
    if (!session) return null;
    const user = await users.findById({ organizationId: session.organization_id, environment: 'live' }, session.user_id);
    return user && user.status === 'active' ? { user, cookie, csrfToken: session.csrf_token } : null;
  };

  const endSession = async (ctx: ParameterizedContext, cookie: string): Promise<void> => {
    await consents.end(cookie);
    ctx.cookies.set(CONSENT_COOKIE, '', { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: 0, overwrite: true });
  };

  /**
   * Why this user cannot grant the request, or null: a client is private to the organization that
   * registered it, and the user's role must hold every requested scope.
   */
  const refusal = (request: AuthorizationRequest, user: User): OAuthError | null => {
    if (user.organization_id !== request.client.organization_id) return new OAuthError('access_denied', 'the application is registered by another organization');
    const beyond = scopesBeyondRole(user.role, request.scopes);
    return beyond.length > 0 ? new OAuthError('invalid_scope', `the user's role (${user.role}) cannot grant ${beyond.join(', ')}`) : null;
  };

  /** Renders the consent screen, or answers the client with the refusal. */
  const showConsent = async (ctx: ParameterizedContext, request: AuthorizationRequest, user: User, csrfToken: string): Promise<void> => {
    const refused = refusal(request, user);
    if (refused) {
      ctx.redirect(errorRedirect({ redirectUri: request.redirectUri, state: request.state, error: refused }));
      return;
    }
    const organization = await dal.organizations.get({ organizationId: user.organization_id, environment: 'live' });
    html(
      ctx,
      200,
      consentPage({
        clientName: request.client.name,
        redirectHost: new URL(request.redirectUri).host,
        email: user.email,
        organizationName: organization?.name ?? user.organization_id,
        role: user.role,
        scopes: request.scopes,
        fields: request.fields,
        csrfToken,
      }),
      origin(request.redirectUri),
    );
  };

  /** Answers fatal and redirect outcomes; returns the request when it is valid. */
  const check = async (ctx: ParameterizedContext, params: Parameters): Promise<AuthorizationRequest | null> => {
    const checked = await checkAuthorizationRequest(context, params);
    if (checked.kind === 'fatal') {
      html(ctx, 400, errorPage({ title: 'This authorization request cannot be completed', message: checked.message }));
      return null;
    }
    if (checked.kind === 'redirect') {
      ctx.redirect(errorRedirect(checked));
      return null;
    }
    return checked.request;
  };

  /** Rate-limit refusals of the sign-in form as a page rather than JSON. */
  const pageErrors: Middleware = async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'RATE_LIMIT_EXCEEDED') throw error;
      if (typeof error.extra?.['retry_after'] === 'number') ctx.set('Retry-After', String(error.extra['retry_after']));
      html(ctx, 429, errorPage({ title: 'Too many attempts', message: 'Too many sign-in attempts. Wait a minute and try again.' }));
    }
  };
  const perAddress: Middleware = rateLimit('authentication', dal.rateLimiter, (ctx) => ({ subject: `oauth-login:ip:${ctx.ip}`, limit: authRateLimit }), { clock });
  // The same per-account limits as POST /api/auth/login, so this form is no way around them.
  const perAccount = loginAttemptLimits(context.accounts);

  router.get('/oauth/authorize', async (ctx) => {
    const request = await check(ctx, ctx.query);
    if (!request) return;
    const session = await signedIn(ctx);
    if (!session) {
      html(ctx, 200, signInPage({ clientName: request.client.name, fields: request.fields }), origin(request.redirectUri));
      return;
    }
    await showConsent(ctx, request, session.user, session.csrfToken);
  });

  router.post('/oauth/authorize/login', pageErrors, perAddress, ...perAccount, async (ctx) => {
    const body = (ctx.request.body ?? {}) as Parameters;
    const request = await check(ctx, body);
    if (!request) return;
    const email = typeof body['email'] === 'string' ? body['email'].trim().slice(0, 254) : '';
    const password = typeof body['password'] === 'string' ? body['password'].slice(0, 200) : '';
    const user = email ? await users.findByEmail(email) : null;
    // Unknown email and wrong password take the same time and answer (as POST /api/auth/login).
    const usable = user?.status === 'active' && user.password_hash ? user.password_hash : await dummyPasswordHash();
    const matches = await verifyPassword(password, usable);
    if (!user || user.status !== 'active' || !user.password_hash || !matches) {
      html(ctx, 401, signInPage({ clientName: request.client.name, fields: request.fields, email, error: 'Invalid email or password.' }), origin(request.redirectUri));
      return;
    }
    const { cookie } = await consents.start(user, clock());
    ctx.cookies.set(CONSENT_COOKIE, cookie, { path: COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: ctx.secure, maxAge: OAUTH_CONSENT_SESSION_TTL_SECONDS * 1000, overwrite: true });
    // Post/redirect/get: the consent screen is the authorize page itself, now signed in.
    ctx.status = 303;
    ctx.redirect(`/oauth/authorize?${new URLSearchParams(request.fields).toString()}`);
  });

  router.post('/oauth/authorize/decision', async (ctx) => {
    const body = (ctx.request.body ?? {}) as Parameters;
    const request = await check(ctx, body);
    if (!request) return;
    const session = await signedIn(ctx);
    if (!session) {
      html(ctx, 401, signInPage({ clientName: request.client.name, fields: request.fields, error: 'Your sign-in has expired. Sign in again to continue.' }), origin(request.redirectUri));
      return;
    }
    const csrf = body['csrf_token'];
    if (typeof csrf !== 'string' || !sameSecret(csrf, session.csrfToken)) {
      html(ctx, 403, errorPage({ title: 'This form has expired', message: 'The form was not sent from this sign-in. Go back to the application and start again.' }));
      return;
    }
    const decision = body['decision'];
    if (decision !== 'approve' && decision !== 'deny') {
      html(ctx, 400, errorPage({ title: 'This authorization request cannot be completed', message: 'Choose Approve or Deny.' }));
      return;
    }
    await endSession(ctx, session.cookie);
    ctx.status = 303;
    if (decision === 'deny') {
      ctx.redirect(errorRedirect({ redirectUri: request.redirectUri, state: request.state, error: new OAuthError('access_denied', 'the user denied the request') }));
      return;
    }
    const refused = refusal(request, session.user);
    if (refused) {
      ctx.redirect(errorRedirect({ redirectUri: request.redirectUri, state: request.state, error: refused }));
      return;
    }
    const { code } = await grants.approve(
      { clientId: request.client.id, userId: session.user.id, organizationId: session.user.organization_id, scopes: request.scopes, redirectUri: request.redirectUri, codeChallenge: request.codeChallenge },
      clock(),
    );
    ctx.redirect(redirectWith(request.redirectUri, { code, state: request.state }));
  });

  return router;
}
