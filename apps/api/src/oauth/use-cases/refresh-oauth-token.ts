/**
 * grant_type=refresh_token (RFC 6749 6): refresh tokens rotate; each use returns a new one, and
 * presenting a used one revokes the grant (RFC 9700 4.14.2). `scope` may narrow the grant's.
 */
import type { OAuthClient, OAuthGrantRepository } from '@leadstream/dal';
import { OAuthError, parseScope } from '@leadstream/domain';
import { issueOAuthTokens, type IssueOAuthTokensDeps } from './issue-oauth-tokens';
import { formField, mayBeIssued, requiredFormField, type TokenForm, type TokenResponse } from './token-request';

export interface RefreshOAuthTokenDeps extends IssueOAuthTokensDeps {
  grants: Pick<
    OAuthGrantRepository,
    'findRefreshToken' | 'redeemRefreshToken' | 'revokeGrant' | 'findActiveGrant' | 'issueRefreshToken'
  >;
  clock: () => Date;
}

export interface RefreshOAuthTokenInput {
  client: OAuthClient;
  form: TokenForm;
}

export async function refreshOAuthToken(
  deps: RefreshOAuthTokenDeps,
  input: RefreshOAuthTokenInput,
): Promise<TokenResponse> {
  const { client, form } = input;
  const { grants } = deps;
  const presented = requiredFormField(form, 'refresh_token');
  if (!mayBeIssued(presented)) throw new OAuthError('invalid_grant', 'the refresh token is invalid');
  const requestedScope = formField(form, 'scope');
  // A scope beyond the grant is refused before the token is spent, so the client can retry.
  const requested = requestedScope === undefined ? null : parseScope(requestedScope);
  const known = requested ? await grants.findRefreshToken(presented) : null;
  const extra = requested && known ? requested.filter((scope) => !known.scopes.includes(scope)) : [];
  if (extra.length > 0) throw new OAuthError('invalid_scope', `not granted: ${extra.join(', ')}`);
  const now = deps.clock();
  const redeemed = await grants.redeemRefreshToken(presented, now);
  if (redeemed.kind === 'unknown') throw new OAuthError('invalid_grant', 'the refresh token is invalid');
  if (redeemed.kind === 'reused') {
    if (redeemed.record.client_id === client.id) await grants.revokeGrant(redeemed.record.grant_id, now);
    throw new OAuthError('invalid_grant', 'the refresh token has already been used; the authorization is revoked');
  }
  const record = redeemed.record;
  if (record.client_id !== client.id)
    throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
  if (record.expires_at.getTime() <= now.getTime())
    throw new OAuthError('invalid_grant', 'the refresh token has expired');
  const grant = await grants.findActiveGrant(record.grant_id);
  if (!grant) throw new OAuthError('invalid_grant', 'the authorization has been revoked');
  const scopes = requested ?? grant.scopes;
  const beyond = scopes.filter((scope) => !grant.scopes.includes(scope));
  if (beyond.length > 0) throw new OAuthError('invalid_scope', `not granted: ${beyond.join(', ')}`);
  return issueOAuthTokens(deps, { grant, scopes, now });
}
