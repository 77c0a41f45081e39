/**
 * The token endpoint (docs/decisions.md "OAuth 2.0", RFC 6749 3.2, 4.1.3, 6; RFC 7636 4.6):
 *   POST /api/oauth/token   (also /oauth/token), application/x-www-form-urlencoded
 *     grant_type=authorization_code: code, redirect_uri (exactly as in the authorize request),
 *       code_verifier (when a code_challenge was sent), client_id
 *     grant_type=refresh_token: refresh_token, scope? (a subset of the grant's)
 *   Client authentication: HTTP Basic, or client_id + client_secret in the body; public clients
 *   send client_id only.
 *   200 {access_token, refresh_token, token_type:'Bearer', expires_in:3600, scope}
 *   400/401 {error, error_description} (RFC 6749 5.2); every answer has Cache-Control: no-store.
 *
 * A code works once within 60 s; presenting it again revokes the grant, so the tokens issued from
 * it stop working (RFC 6749 4.1.2). Refresh tokens rotate: each use returns a new one, and
 * presenting a used one revokes the grant too (RFC 9700 4.14.2).
 */
import { OAuthError } from '@leadstream/domain';
import type { ParameterizedContext } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { UserSessionState } from '../auth/session.middleware';
import type { OAuthContext } from './oauth.context';
import { grantOAuthToken, type TokenForm } from './use-cases';

export function oauthTokenRouter(context: OAuthContext): UserRouter {
  const router = new UserRouter(context.accounts.guard);
  const { clients, grants } = context;
  const { users, tokens, dal, clock, authRateLimit } = context.accounts;
  const perAddress = rateLimit<UserSessionState>(
    'authentication',
    dal.rateLimiter,
    (ctx) => ({ subject: `oauth-token:ip:${ctx.ip}`, limit: authRateLimit }),
    { clock },
  );
  const useCaseDeps = { clients, grants, users, tokens, clock };

  const token = async (ctx: ParameterizedContext<UserSessionState>): Promise<void> => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    try {
      if (!ctx.is('application/x-www-form-urlencoded'))
        throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
      ctx.body = await grantOAuthToken(useCaseDeps, {
        authorization: ctx.get('Authorization'),
        form: (ctx.request.body ?? {}) as TokenForm,
      });
      ctx.status = 200;
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      ctx.status = error.error === 'invalid_client' ? 401 : 400;
      if (error.error === 'invalid_client') ctx.set('WWW-Authenticate', 'Basic realm="leadstream"');
      ctx.body = { error: error.error, error_description: error.description };
    }
  };

  // Public in the matrix sense: no user token; the client authenticates itself.
  defineRoute(router, { method: 'POST', path: '/api/oauth/token', permission: 'public' }, perAddress, token);
  defineRoute(router, { method: 'POST', path: '/oauth/token', permission: 'public' }, perAddress, token);
  return router;
}
