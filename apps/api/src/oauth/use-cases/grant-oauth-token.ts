/**
 * POST /oauth/token: the client authenticates, then the grant type's exchange. Failures are
 * OAuthErrors (RFC 6749 5.2), for the route to answer.
 */
import { OAuthError } from '@leadstream/domain';
import { authenticateOAuthClient, type AuthenticateOAuthClientDeps } from './authenticate-oauth-client';
import { exchangeAuthorizationCode, type ExchangeAuthorizationCodeDeps } from './exchange-authorization-code';
import { refreshOAuthToken, type RefreshOAuthTokenDeps } from './refresh-oauth-token';
import { clientCredentials, requiredFormField, type TokenForm, type TokenResponse } from './token-request';

export type GrantOAuthTokenDeps = AuthenticateOAuthClientDeps & ExchangeAuthorizationCodeDeps & RefreshOAuthTokenDeps;

export interface GrantOAuthTokenInput {
  /** The Authorization header, '' when absent (HTTP Basic client authentication). */
  authorization: string;
  form: TokenForm;
}

export async function grantOAuthToken(deps: GrantOAuthTokenDeps, input: GrantOAuthTokenInput): Promise<TokenResponse> {
  const { form } = input;
  const grantType = requiredFormField(form, 'grant_type');
  const client = await authenticateOAuthClient(deps, clientCredentials(input.authorization, form));
  if (grantType === 'authorization_code') return exchangeAuthorizationCode(deps, { client, form });
  if (grantType === 'refresh_token') return refreshOAuthToken(deps, { client, form });
  throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
}
