/**
 * OAuth client registration (docs/decisions.md "OAuth 2.0"; owner and admin, permissions
 * `oauth_clients:*`):
 *   POST   /api/oauth/clients      201 {id (the client_id), name, redirect_uris, public, client_secret?, created_at}
 *          body {name, redirect_uris: [absolute https URL, or http on loopback; no fragment], public?: boolean}
 *          `client_secret` is returned for confidential clients only, this once; only its hash is kept.
 *   GET    /api/oauth/clients      200 {data:[client]} without secrets, newest first
 *   DELETE /api/oauth/clients/:id  204; every grant of the client ends (its tokens stop working)
 * Another organization's client is 404, like an unknown one.
 */
import type { OAuthClient } from '@leadstream/dal';
import { DomainError, readOAuthClientRequest } from '@leadstream/domain';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { OAuthContext } from './oauth.context';

export function oauthClientResource(client: OAuthClient): Record<string, unknown> {
  return {
    id: client.id,
    name: client.name,
    redirect_uris: client.redirect_uris,
    public: client.public,
    created_at: client.created_at.toISOString(),
  };
}

export function oauthClientsRouter(context: OAuthContext): UserRouter {
  const router = new UserRouter(context.accounts.guard);
  const { clients, grants } = context;
  const { clock } = context.accounts;

  defineRoute(
    router,
    { method: 'POST', path: '/api/oauth/clients', permission: 'oauth_clients:write' },
    async (ctx) => {
      const input = readOAuthClientRequest(ctx.request.body);
      const { client, clientSecret } = await clients.create(ctx.state.tenant, input, ctx.state.user.id, clock());
      ctx.status = 201;
      ctx.body = { data: { ...oauthClientResource(client), ...(clientSecret ? { client_secret: clientSecret } : {}) } };
    },
  );

  defineRoute(router, { method: 'GET', path: '/api/oauth/clients', permission: 'oauth_clients:read' }, async (ctx) => {
    ctx.body = { data: (await clients.list(ctx.state.tenant)).map(oauthClientResource) };
  });

  defineRoute(
    router,
    { method: 'DELETE', path: '/api/oauth/clients/:id', permission: 'oauth_clients:write' },
    async (ctx) => {
      const id = ctx.params['id'] ?? '';
      if (!(await clients.delete(ctx.state.tenant, id))) throw new DomainError('NOT_FOUND', 'OAuth client not found');
      await grants.revokeGrantsOfClient(id, clock());
      ctx.status = 204;
    },
  );

  return router;
}
