/**
 * grant_type=authorization_code (RFC 6749 4.1.3, RFC 7636 4.6): a code works once within 60 s;
 * presenting it again revokes the grant, so the tokens issued from it stop working.
 */
import type { OAuthClient, OAuthGrantRepository } from '@leadstream/dal';
import { OAuthError, verifyPkce } from '@leadstream/domain';
import { issueOAuthTokens, type IssueOAuthTokensDeps } from './issue-oauth-tokens';
import { formField, mayBeIssued, requiredFormField, type TokenForm, type TokenResponse } from './token-request';

export interface ExchangeAuthorizationCodeDeps extends IssueOAuthTokensDeps {
  grants: Pick<OAuthGrantRepository, 'redeemCode' | 'revokeGrant' | 'findActiveGrant' | 'issueRefreshToken'>;
  clock: () => Date;
}

export interface ExchangeAuthorizationCodeInput {
  client: OAuthClient;
  form: TokenForm;
}

export async function exchangeAuthorizationCode(
  deps: ExchangeAuthorizationCodeDeps,
  input: ExchangeAuthorizationCodeInput,
): Promise<TokenResponse> {
  const { client, form } = input;
  const { grants } = deps;
  const code = requiredFormField(form, 'code');
  const redirectUri = requiredFormField(form, 'redirect_uri');
  const verifier = formField(form, 'code_verifier');
  const now = deps.clock();
  const redeemed = mayBeIssued(code) ? await grants.redeemCode(code, now) : ({ kind: 'unknown' } as const);
  if (redeemed.kind === 'unknown') throw new OAuthError('invalid_grant', 'the authorization code is invalid');
  if (redeemed.kind === 'reused') {
    // Only the client the code was issued to may trigger the revocation (RFC 6749 4.1.2).
    if (redeemed.record.client_id === client.id) await grants.revokeGrant(redeemed.record.grant_id, now);
    throw new OAuthError(
      'invalid_grant',
      'the authorization code has already been used; tokens issued from it are revoked',
    );
  }
  const record = redeemed.record;
  if (record.client_id !== client.id)
    throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
  if (record.expires_at.getTime() <= now.getTime())
    throw new OAuthError('invalid_grant', 'the authorization code has expired');
  if (record.redirect_uri !== redirectUri)
    throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  if (record.code_challenge !== null) {
    if (verifier === undefined)
      throw new OAuthError('invalid_grant', 'code_verifier is required (a code_challenge was sent)');
    if (!verifyPkce(verifier, record.code_challenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  } else if (verifier !== undefined) {
    throw new OAuthError('invalid_grant', 'code_verifier was sent but the authorization request had no code_challenge');
  }
  const grant = await grants.findActiveGrant(record.grant_id);
  if (!grant) throw new OAuthError('invalid_grant', 'the authorization has been revoked');
  return issueOAuthTokens(deps, { grant, scopes: grant.scopes, now });
}
