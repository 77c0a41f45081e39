/**
 * The consent step: whether a signed-in user may grant an authorization request (GET
 * /oauth/authorize shows the consent screen or sends the refusal back), and the user's decision
 * (POST /oauth/authorize/decision ends the consent record and answers the client with a code or an
 * error).
 */
import type { Dal, OAuthConsentRepository, OAuthGrantRepository } from '@leadstream/dal';
import { OAuthError, scopesBeyondRole, type User } from '@leadstream/domain';
import { errorRedirect, redirectWith, type AuthorizationRequest } from './check-authorization-request';

/**
 * Why this user cannot grant the request, or null: a client is private to the organization that
 * registered it, and the user's role must hold every requested scope.
 */
export function consentRefusal(request: AuthorizationRequest, user: User): OAuthError | null {
  if (user.organization_id !== request.client.organization_id)
    return new OAuthError('access_denied', 'the application is registered by another organization');
  const beyond = scopesBeyondRole(user.role, request.scopes);
  return beyond.length > 0
    ? new OAuthError('invalid_scope', `the user's role (${user.role}) cannot grant ${beyond.join(', ')}`)
    : null;
}

export interface PrepareConsentDeps {
  organizations: Pick<Dal['organizations'], 'get'>;
}

export interface PrepareConsentInput {
  request: AuthorizationRequest;
  user: User;
}

/** The consent screen's organization name, or where to send the refusal. */
export type PrepareConsentResult =
  { kind: 'consent'; organizationName: string } | { kind: 'refused'; redirectTo: string };

export async function prepareConsent(
  deps: PrepareConsentDeps,
  input: PrepareConsentInput,
): Promise<PrepareConsentResult> {
  const { request, user } = input;
  const refused = consentRefusal(request, user);
  if (refused)
    return {
      kind: 'refused',
      redirectTo: errorRedirect({ redirectUri: request.redirectUri, state: request.state, error: refused }),
    };
  const organization = await deps.organizations.get({ organizationId: user.organization_id, environment: 'live' });
  return { kind: 'consent', organizationName: organization?.name ?? user.organization_id };
}

export interface AuthorizeOAuthClientDeps {
  consents: Pick<OAuthConsentRepository, 'end'>;
  grants: Pick<OAuthGrantRepository, 'approve'>;
  clock: () => Date;
}

export interface AuthorizeOAuthClientInput {
  request: AuthorizationRequest;
  user: User;
  /** The consent record the decision ends. */
  consentCookie: string;
  decision: 'approve' | 'deny';
}

/** Where the user goes next: the redirect URI with a code, or with the error. */
export async function authorizeOAuthClient(
  deps: AuthorizeOAuthClientDeps,
  input: AuthorizeOAuthClientInput,
): Promise<{ redirectTo: string }> {
  const { request, user } = input;
  await deps.consents.end(input.consentCookie);
  if (input.decision === 'deny')
    return {
      redirectTo: errorRedirect({
        redirectUri: request.redirectUri,
        state: request.state,
        error: new OAuthError('access_denied', 'the user denied the request'),
      }),
    };
  const refused = consentRefusal(request, user);
  if (refused)
    return { redirectTo: errorRedirect({ redirectUri: request.redirectUri, state: request.state, error: refused }) };
  const { code } = await deps.grants.approve(
    {
      clientId: request.client.id,
      userId: user.id,
      organizationId: user.organization_id,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
    },
    deps.clock(),
  );
  return { redirectTo: redirectWith(request.redirectUri, { code, state: request.state }) };
}
