/** A fresh access and refresh token for a grant; the grant must still hold and its user be active. */
import type { OAuthGrant, OAuthGrantRepository, UserRepository } from '@leadstream/dal';
import { formatScope, OAUTH_ACCESS_TOKEN_TTL_SECONDS, OAuthError, type OAuthScope } from '@leadstream/domain';
import type { SessionTokens } from '../../auth/session-tokens';
import type { TokenResponse } from './token-request';

export interface IssueOAuthTokensDeps {
  users: Pick<UserRepository, 'findById'>;
  tokens: Pick<SessionTokens, 'issueOAuthAccess'>;
  grants: Pick<OAuthGrantRepository, 'revokeGrant' | 'issueRefreshToken'>;
}

export interface IssueOAuthTokensInput {
  grant: OAuthGrant;
  /** The access token's scopes: the grant's, or fewer on a refresh. */
  scopes: OAuthScope[];
  now: Date;
}

export async function issueOAuthTokens(
  deps: IssueOAuthTokensDeps,
  input: IssueOAuthTokensInput,
): Promise<TokenResponse> {
  const { grant, scopes, now } = input;
  const user = await deps.users.findById({ organizationId: grant.organization_id, environment: 'live' }, grant.user_id);
  if (!user || user.status !== 'active') {
    await deps.grants.revokeGrant(grant._id, now);
    throw new OAuthError('invalid_grant', 'the user who granted access no longer exists');
  }
  const access = await deps.tokens.issueOAuthAccess(user, { scopes, clientId: grant.client_id, grantId: grant._id });
  const refresh = await deps.grants.issueRefreshToken(grant, grant.scopes, now);
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refresh.token,
    scope: formatScope(scopes),
  };
}
