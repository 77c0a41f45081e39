/**
 * The checks of an authorization request shared by the three authorize endpoints (RFC 6749
 * 4.1.2.1: client and redirect URI first; an error after those goes back to the redirect URI).
 */
import type { OAuthClient, OAuthClientRepository } from '@leadstream/dal';
import { isWellFormedCodeChallenge, OAuthError, parseScope, type OAuthScope } from '@leadstream/domain';
import type { HiddenFields } from '../oauth-pages';

/** The parameters of an authorization request that the forms carry along. */
const REQUEST_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  scopes: OAuthScope[];
  state: string | null;
  codeChallenge: string | null;
  /** The parameters as received, for the forms' hidden fields. */
  fields: HiddenFields;
}

export type CheckedRequest =
  | { kind: 'fatal'; message: string }
  | { kind: 'redirect'; redirectUri: string; state: string | null; error: OAuthError }
  | { kind: 'ok'; request: AuthorizationRequest };

/** The request's parameters: the query of GET, the form of the POSTs. */
export type AuthorizationParameters = Record<string, unknown>;

export interface CheckAuthorizationRequestDeps {
  clients: Pick<OAuthClientRepository, 'findByClientId'>;
}

/** A parameter sent at most once (RFC 6749 3.1): its value, undefined when absent, 'repeated' when sent twice. */
function single(params: AuthorizationParameters, name: string): string | undefined | typeof REPEATED {
  const value = params[name];
  if (Array.isArray(value)) return REPEATED;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
const REPEATED = Symbol('repeated');

/** Checks an authorization request in the order of RFC 6749 4.1.2.1: client and redirect URI first. */
export async function checkAuthorizationRequest(
  deps: CheckAuthorizationRequestDeps,
  params: AuthorizationParameters,
): Promise<CheckedRequest> {
  const clientId = single(params, 'client_id');
  if (clientId === REPEATED || clientId === undefined)
    return { kind: 'fatal', message: 'The request has no client_id (or more than one).' };
  const client = clientId.length <= 100 ? await deps.clients.findByClientId(clientId) : null;
  if (!client) return { kind: 'fatal', message: 'The application (client_id) is not registered with LeadStream.' };
  const redirectUri = single(params, 'redirect_uri');
  if (redirectUri === REPEATED || redirectUri === undefined)
    return { kind: 'fatal', message: 'The request has no redirect_uri (or more than one).' };
  if (!client.redirect_uris.includes(redirectUri))
    return { kind: 'fatal', message: 'The redirect_uri is not one of the addresses registered for this application.' };

  const rawState = single(params, 'state');
  const state = typeof rawState === 'string' ? rawState : null;
  const fail = (error: OAuthError): CheckedRequest => ({ kind: 'redirect', redirectUri, state, error });
  const fields: HiddenFields = {};
  for (const name of REQUEST_PARAMETERS) {
    const value = single(params, name);
    if (value === REPEATED) return fail(new OAuthError('invalid_request', `${name} must not be repeated`));
    if (value !== undefined) fields[name] = value;
  }
  const responseType = fields['response_type'];
  if (responseType === undefined) return fail(new OAuthError('invalid_request', 'response_type is required'));
  if (responseType !== 'code')
    return fail(new OAuthError('unsupported_response_type', 'only response_type=code is supported'));
  let scopes: OAuthScope[];
  try {
    scopes = parseScope(fields['scope']);
  } catch (error) {
    if (error instanceof OAuthError) return fail(error);
    throw error;
  }
  const challenge = fields['code_challenge'] ?? null;
  const method = fields['code_challenge_method'];
  if (method !== undefined && method !== 'S256')
    return fail(new OAuthError('invalid_request', 'code_challenge_method must be S256'));
  if (challenge === null && method !== undefined)
    return fail(new OAuthError('invalid_request', 'code_challenge_method was sent without code_challenge'));
  if (challenge !== null && method === undefined)
    return fail(new OAuthError('invalid_request', 'code_challenge_method=S256 is required (plain is not supported)'));
  if (challenge !== null && !isWellFormedCodeChallenge(challenge))
    return fail(
      new OAuthError(
        'invalid_request',
        'code_challenge must be the base64url SHA-256 of the code verifier (43 characters)',
      ),
    );
  if (challenge === null && client.public)
    return fail(
      new OAuthError(
        'invalid_request',
        'PKCE (code_challenge with code_challenge_method=S256) is required for public clients',
      ),
    );
  return { kind: 'ok', request: { client, redirectUri, scopes, state, codeChallenge: challenge, fields } };
}

/** redirect_uri with the answer's parameters added to its query (RFC 6749 4.1.2). */
export function redirectWith(redirectUri: string, parameters: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) if (value !== null) url.searchParams.set(name, value);
  return url.toString();
}

export function errorRedirect(checked: { redirectUri: string; state: string | null; error: OAuthError }): string {
  return redirectWith(checked.redirectUri, {
    error: checked.error.error,
    error_description: checked.error.description,
    state: checked.state,
  });
}
