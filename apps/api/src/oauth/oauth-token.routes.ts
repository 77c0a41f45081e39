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
import type { OAuthClient, OAuthGrant } from '@leadstream/dal';
import { formatScope, hashOAuthSecret, OAUTH_ACCESS_TOKEN_TTL_SECONDS, OAuthError, parseScope, sameSecret, verifyPkce, type OAuthScope, type User } from '@leadstream/domain';
import type { ParameterizedContext } from 'koa';
import { rateLimit } from '../auth/rate-limit.middleware';
import { defineRoute, UserRouter } from '../auth/route-definition';
import type { UserSessionState } from '../auth/session.middleware';
import type { OAuthContext } from './oauth.context';

type Form = Record<string, unknown>;

/** A form field sent at most once; repeated fields are invalid_request (RFC 6749 3.2). */
function field(form: Form, name: string): string | undefined {
  const value = form[name];
  if (Array.isArray(value)) throw new OAuthError('invalid_request', `${name} must not be repeated`);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function required(form: Form, name: string): string {
  const value = field(form, name);
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

/**
 * Whether a presented identifier could be one we issued: ours never hold U+0000, and a
 * PostgreSQL-backed MongoDB server (FerretDB) fails on a query with it, so it is not looked up.
 */
const mayBeIssued = (value: string): boolean => !value.includes('\u0000');

interface ClientCredentials {
  clientId: string;
  secret: string | undefined;
}

/** RFC 6749 2.3.1: Basic with form-urlencoded id and secret, or both in the body; not both ways at once. */
function clientCredentials(ctx: ParameterizedContext, form: Form): ClientCredentials {
  const header = ctx.get('Authorization');
  const bodyId = field(form, 'client_id');
  const bodySecret = field(form, 'client_secret');
  if (header) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'the Authorization header must be HTTP Basic with client_id:client_secret');
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw new OAuthError('invalid_client', 'the Basic credentials are not form-urlencoded');
    }
    if (bodySecret !== undefined) throw new OAuthError('invalid_request', 'send the client secret either in the Authorization header or in the body, not both');
    if (bodyId !== undefined && bodyId !== clientId) throw new OAuthError('invalid_request', 'client_id differs from the Authorization header');
    return { clientId, secret };
  }
  if (bodyId === undefined) throw new OAuthError('invalid_client', 'client authentication is required (client_id)');
  return { clientId: bodyId, secret: bodySecret };
}

export function oauthTokenRouter(context: OAuthContext): UserRouter {
  const router = new UserRouter(context.accounts.guard);
  const { clients, grants } = context;
  const { users, tokens, dal, clock, authRateLimit } = context.accounts;
  const perAddress = rateLimit<UserSessionState>('authentication', dal.rateLimiter, (ctx) => ({ subject: `oauth-token:ip:${ctx.ip}`, limit: authRateLimit }), { clock });

  const authenticateClient = async (credentials: ClientCredentials): Promise<OAuthClient> => {
    const { clientId } = credentials;
    const client = clientId.length <= 100 && mayBeIssued(clientId) ? await clients.findByClientId(clientId) : null;
    if (!client) throw new OAuthError('invalid_client', 'unknown client');
    if (client.public) {
      if (credentials.secret) throw new OAuthError('invalid_client', 'a public client has no secret');
      return client;
    }
    if (!credentials.secret || !client.secret_hash || !sameSecret(hashOAuthSecret(credentials.secret), client.secret_hash)) {
      throw new OAuthError('invalid_client', 'client authentication failed');
    }
    return client;
  };

  /** A fresh access and refresh token for the grant; the grant must still hold and its user be active. */
  const issueTokens = async (grant: OAuthGrant, scopes: OAuthScope[], now: Date): Promise<Record<string, unknown>> => {
    const user: User | null = await users.findById({ organizationId: grant.organization_id, environment: 'live' }, grant.user_id);
    if (!user || user.status !== 'active') {
      await grants.revokeGrant(grant._id, now);
      throw new OAuthError('invalid_grant', 'the user who granted access no longer exists');
    }
    const access = await tokens.issueOAuthAccess(user, { scopes, clientId: grant.client_id, grantId: grant._id });
    const refresh = await grants.issueRefreshToken(grant, grant.scopes, now);
    return { access_token: access.token, token_type: 'Bearer', expires_in: OAUTH_ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh.token, scope: formatScope(scopes) };
  };

  const authorizationCode = async (client: OAuthClient, form: Form): Promise<Record<string, unknown>> => {
    const code = required(form, 'code');
    const redirectUri = required(form, 'redirect_uri');
    const verifier = field(form, 'code_verifier');
    const now = clock();
    const redeemed = mayBeIssued(code) ? await grants.redeemCode(code, now) : ({ kind: 'unknown' } as const);
    if (redeemed.kind === 'unknown') throw new OAuthError('invalid_grant', 'the authorization code is invalid');
    if (redeemed.kind === 'reused') {
      // Only the client the code was issued to may trigger the revocation (RFC 6749 4.1.2).
      if (redeemed.record.client_id === client.id) await grants.revokeGrant(redeemed.record.grant_id, now);
      throw new OAuthError('invalid_grant', 'the authorization code has already been used; tokens issued from it are revoked');
    }
    const record = redeemed.record;
    if (record.client_id !== client.id) throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
    if (record.expires_at.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'the authorization code has expired');
    if (record.redirect_uri !== redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
    if (record.code_challenge !== null) {
      if (verifier === undefined) throw new OAuthError('invalid_grant', 'code_verifier is required (a code_challenge was sent)');
      if (!verifyPkce(verifier, record.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    } else if (verifier !== undefined) {
      throw new OAuthError('invalid_grant', 'code_verifier was sent but the authorization request had no code_challenge');
    }
    const grant = await grants.findActiveGrant(record.grant_id);
    if (!grant) throw new OAuthError('invalid_grant', 'the authorization has been revoked');
    return issueTokens(grant, grant.scopes, now);
  };

  const refreshToken = async (client: OAuthClient, form: Form): Promise<Record<string, unknown>> => {
    const presented = required(form, 'refresh_token');
    if (!mayBeIssued(presented)) throw new OAuthError('invalid_grant', 'the refresh token is invalid');
    const requestedScope = field(form, 'scope');
    // A scope beyond the grant is refused before the token is spent, so the client can retry.
    const requested = requestedScope === undefined ? null : parseScope(requestedScope);
    const known = requested ? await grants.findRefreshToken(presented) : null;
    const extra = requested && known ? requested.filter((scope) => !known.scopes.includes(scope)) : [];
    if (extra.length > 0) throw new OAuthError('invalid_scope', `not granted: ${extra.join(', ')}`);
    const now = clock();
    const redeemed = await grants.redeemRefreshToken(presented, now);
    if (redeemed.kind === 'unknown') throw new OAuthError('invalid_grant', 'the refresh token is invalid');
    if (redeemed.kind === 'reused') {
      if (redeemed.record.client_id === client.id) await grants.revokeGrant(redeemed.record.grant_id, now);
      throw new OAuthError('invalid_grant', 'the refresh token has already been used; the authorization is revoked');
    }
    const record = redeemed.record;
    if (record.client_id !== client.id) throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
    if (record.expires_at.getTime() <= now.getTime()) throw new OAuthError('invalid_grant', 'the refresh token has expired');
    const grant = await grants.findActiveGrant(record.grant_id);
    if (!grant) throw new OAuthError('invalid_grant', 'the authorization has been revoked');
    const scopes = requested ?? grant.scopes;
    const beyond = scopes.filter((scope) => !grant.scopes.includes(scope));
    if (beyond.length > 0) throw new OAuthError('invalid_scope', `not granted: ${beyond.join(', ')}`);
    return issueTokens(grant, scopes, now);
  };

  const token = async (ctx: ParameterizedContext<UserSessionState>): Promise<void> => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Pragma', 'no-cache');
    try {
      if (!ctx.is('application/x-www-form-urlencoded')) throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
      const form = (ctx.request.body ?? {}) as Form;
      const grantType = required(form, 'grant_type');
      const client = await authenticateClient(clientCredentials(ctx, form));
      if (grantType === 'authorization_code') ctx.body = await authorizationCode(client, form);
      else if (grantType === 'refresh_token') ctx.body = await refreshToken(client, form);
      else throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
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
