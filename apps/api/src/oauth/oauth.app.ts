import type { DocumentStore } from '@leadstream/ports';
import type Koa from 'koa';
import type { AccountsContext } from '../accounts/accounts.context';
import { oauthAuthorizeRouter } from './oauth-authorize.routes';
import { oauthClientsRouter } from './oauth-clients.routes';
import { createOAuthContext } from './oauth.context';
import { oauthTokenRouter } from './oauth-token.routes';

/** The endpoints that take HTML forms (RFC 6749 token requests, the sign-in and consent pages); every other body must be JSON. */
export const OAUTH_FORM_PATHS = [
  '/api/oauth/token',
  '/oauth/token',
  '/oauth/authorize/login',
  '/oauth/authorize/decision',
] as const;

/** Mounts OAuth 2.0 (docs/decisions.md "OAuth 2.0"): client registration, the authorize page and the token endpoint. */
export function mountOAuth(app: Koa, store: DocumentStore, accounts: AccountsContext): void {
  const context = createOAuthContext(store, accounts);
  for (const router of [oauthClientsRouter(context), oauthTokenRouter(context), oauthAuthorizeRouter(context)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
