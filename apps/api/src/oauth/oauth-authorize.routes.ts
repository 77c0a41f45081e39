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
import { isDomainError, OAUTH_CONSENT_SESSION_TTL_SECONDS, sameSecret, type User } from '@leadstream/domain';
import type { Middleware, ParameterizedContext } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import { loginAttemptLimits } from '../accounts/login-limits';
import type { OAuthContext } from './oauth.context';
import { consentPage, errorPage, signInPage } from './oauth-pages';
import {
  authorizeOAuthClient,
  checkAuthorizationRequest,
  errorRedirect,
  findConsentSession,
  prepareConsent,
  signInForConsent,
  type AuthorizationParameters,
  type AuthorizationRequest,
  type CheckAuthorizationRequestDeps,
  type PrepareConsentDeps,
} from './use-cases';

export { checkAuthorizationRequest, redirectWith, type AuthorizationRequest, type CheckedRequest } from './use-cases';

export const CONSENT_COOKIE = 'leadstream_oauth';
const COOKIE_PATH = '/oauth/authorize';

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
  ctx.set(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'${formTarget ? ` ${formTarget}` : ''}`,
  );
  ctx.body = body;
}

function origin(uri: string): string {
  return new URL(uri).origin;
}

/** Renders the consent screen, or answers the client with the refusal. */
async function showConsent(
  deps: PrepareConsentDeps,
  ctx: ParameterizedContext,
  request: AuthorizationRequest,
  session: { user: User; csrfToken: string },
): Promise<void> {
  const prepared = await prepareConsent(deps, { request, user: session.user });
  if (prepared.kind === 'refused') {
    ctx.redirect(prepared.redirectTo);
    return;
  }
  html(
    ctx,
    200,
    consentPage({
      clientName: request.client.name,
      redirectHost: new URL(request.redirectUri).host,
      email: session.user.email,
      organizationName: prepared.organizationName,
      role: session.user.role,
      scopes: request.scopes,
      fields: request.fields,
      csrfToken: session.csrfToken,
    }),
    origin(request.redirectUri),
  );
}

/** Answers fatal and redirect outcomes; returns the request when it is valid. */
async function check(
  deps: CheckAuthorizationRequestDeps,
  ctx: ParameterizedContext,
  params: AuthorizationParameters,
): Promise<AuthorizationRequest | null> {
  const checked = await checkAuthorizationRequest(deps, params);
  if (checked.kind === 'fatal') {
    html(ctx, 400, errorPage({ title: 'This authorization request cannot be completed', message: checked.message }));
    return null;
  }
  if (checked.kind === 'redirect') {
    ctx.redirect(errorRedirect(checked));
    return null;
  }
  return checked.request;
}

/** Rate-limit refusals of the sign-in form as a page rather than JSON. */
const pageErrors: Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (error) {
    if (!isDomainError(error) || error.code !== 'RATE_LIMIT_EXCEEDED') throw error;
    if (typeof error.extra?.['retry_after'] === 'number') ctx.set('Retry-After', String(error.extra['retry_after']));
    html(
      ctx,
      429,
      errorPage({ title: 'Too many attempts', message: 'Too many sign-in attempts. Wait a minute and try again.' }),
    );
  }
};

export function oauthAuthorizeRouter(context: OAuthContext): Router {
  const router = new Router();
  const { consents, grants } = context;
  const { users, dal, clock, authRateLimit } = context.accounts;
  const useCaseDeps = { clients: context.clients, consents, grants, users, organizations: dal.organizations, clock };

  const signedIn = (ctx: ParameterizedContext) =>
    findConsentSession(useCaseDeps, { cookie: ctx.cookies.get(CONSENT_COOKIE) });

  const clearConsentCookie = (ctx: ParameterizedContext): void => {
    ctx.cookies.set(CONSENT_COOKIE, '', {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      maxAge: 0,
      overwrite: true,
    });
  };

  const perAddress: Middleware = rateLimit(
    'authentication',
    dal.rateLimiter,
    (ctx) => ({ subject: `oauth-login:ip:${ctx.ip}`, limit: authRateLimit }),
    { clock },
  );
  // The same per-account limits as POST /api/auth/login, so this form is no way around them.
  const perAccount = loginAttemptLimits(context.accounts);

  router.get('/oauth/authorize', async (ctx) => {
    const request = await check(useCaseDeps, ctx, ctx.query);
    if (!request) return;
    const session = await signedIn(ctx);
    if (!session) {
      html(
        ctx,
        200,
        signInPage({ clientName: request.client.name, fields: request.fields }),
        origin(request.redirectUri),
      );
      return;
    }
    await showConsent(useCaseDeps, ctx, request, session);
  });

  router.post('/oauth/authorize/login', pageErrors, perAddress, ...perAccount, async (ctx) => {
    const body = (ctx.request.body ?? {}) as AuthorizationParameters;
    const request = await check(useCaseDeps, ctx, body);
    if (!request) return;
    const email = typeof body['email'] === 'string' ? body['email'].trim().slice(0, 254) : '';
    const password = typeof body['password'] === 'string' ? body['password'].slice(0, 200) : '';
    const signIn = await signInForConsent(useCaseDeps, { email, password });
    if (signIn.kind === 'invalid') {
      html(
        ctx,
        401,
        signInPage({
          clientName: request.client.name,
          fields: request.fields,
          email,
          error: 'Invalid email or password.',
        }),
        origin(request.redirectUri),
      );
      return;
    }
    ctx.cookies.set(CONSENT_COOKIE, signIn.cookie, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.secure,
      maxAge: OAUTH_CONSENT_SESSION_TTL_SECONDS * 1000,
      overwrite: true,
    });
    // Post/redirect/get: the consent screen is the authorize page itself, now signed in.
    ctx.status = 303;
    ctx.redirect(`/oauth/authorize?${new URLSearchParams(request.fields).toString()}`);
  });

  router.post('/oauth/authorize/decision', async (ctx) => {
    const body = (ctx.request.body ?? {}) as AuthorizationParameters;
    const request = await check(useCaseDeps, ctx, body);
    if (!request) return;
    const session = await signedIn(ctx);
    if (!session) {
      html(
        ctx,
        401,
        signInPage({
          clientName: request.client.name,
          fields: request.fields,
          error: 'Your sign-in has expired. Sign in again to continue.',
        }),
        origin(request.redirectUri),
      );
      return;
    }
    const csrf = body['csrf_token'];
    if (typeof csrf !== 'string' || !sameSecret(csrf, session.csrfToken)) {
      html(
        ctx,
        403,
        errorPage({
          title: 'This form has expired',
          message: 'The form was not sent from this sign-in. Go back to the application and start again.',
        }),
      );
      return;
    }
    const decision = body['decision'];
    if (decision !== 'approve' && decision !== 'deny') {
      html(
        ctx,
        400,
        errorPage({ title: 'This authorization request cannot be completed', message: 'Choose Approve or Deny.' }),
      );
      return;
    }
    const { redirectTo } = await authorizeOAuthClient(useCaseDeps, {
      request,
      user: session.user,
      consentCookie: session.cookie,
      decision,
    });
    clearConsentCookie(ctx);
    ctx.status = 303;
    ctx.redirect(redirectTo);
  });

  return router;
}
