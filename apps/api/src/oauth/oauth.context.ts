/** What the OAuth routers share: the accounts context and the three OAuth repositories. */
import { OAuthClientRepository, OAuthConsentRepository, OAuthGrantRepository } from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';
import type { AccountsContext } from '../accounts/accounts.context';

export interface OAuthContext {
  accounts: AccountsContext;
  clients: OAuthClientRepository;
  grants: OAuthGrantRepository;
  consents: OAuthConsentRepository;
}

export function createOAuthContext(store: DocumentStore, accounts: AccountsContext): OAuthContext {
  return {
    accounts,
    clients: new OAuthClientRepository(store),
    grants: new OAuthGrantRepository(store),
    consents: new OAuthConsentRepository(store),
  };
}
