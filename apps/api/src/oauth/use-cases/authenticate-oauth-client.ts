/** The token endpoint's client authentication: a confidential client's secret, or a public client's id alone. */
import type { OAuthClient, OAuthClientRepository } from '@leadstream/dal';
import { hashOAuthSecret, OAuthError, sameSecret } from '@leadstream/domain';
import { mayBeIssued, type ClientCredentials } from './token-request';

export interface AuthenticateOAuthClientDeps {
  clients: Pick<OAuthClientRepository, 'findByClientId'>;
}

export type AuthenticateOAuthClientInput = ClientCredentials;

export async function authenticateOAuthClient(
  deps: AuthenticateOAuthClientDeps,
  input: AuthenticateOAuthClientInput,
): Promise<OAuthClient> {
  const { clientId } = input;
  const client = clientId.length <= 100 && mayBeIssued(clientId) ? await deps.clients.findByClientId(clientId) : null;
  if (!client) throw new OAuthError('invalid_client', 'unknown client');
  if (client.public) {
    if (input.secret) throw new OAuthError('invalid_client', 'a public client has no secret');
    return client;
  }
  if (!input.secret || !client.secret_hash || !sameSecret(hashOAuthSecret(input.secret), client.secret_hash)) {
    throw new OAuthError('invalid_client', 'client authentication failed');
  }
  return client;
}
