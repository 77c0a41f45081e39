/**
 * The form of a token request (RFC 6749 3.2) and the client's credentials in it or in the
 * Authorization header (RFC 6749 2.3.1): what the token use cases read.
 */
import { OAuthError } from '@leadstream/domain';

/** The form fields as received (application/x-www-form-urlencoded). */
export type TokenForm = Record<string, unknown>;

/** A token response body (RFC 6749 5.1). */
export type TokenResponse = Record<string, unknown>;

/** A form field sent at most once; repeated fields are invalid_request (RFC 6749 3.2). */
export function formField(form: TokenForm, name: string): string | undefined {
  const value = form[name];
  if (Array.isArray(value)) throw new OAuthError('invalid_request', `${name} must not be repeated`);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function requiredFormField(form: TokenForm, name: string): string {
  const value = formField(form, name);
  if (value === undefined) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
}

/**
 * Whether a presented identifier could be one we issued: ours never hold U+0000, and a
 * PostgreSQL-backed MongoDB server (FerretDB) fails on a query with it, so it is not looked up.
 */
export const mayBeIssued = (value: string): boolean => !value.includes('\u0000');

export interface ClientCredentials {
  clientId: string;
  secret: string | undefined;
}

/** RFC 6749 2.3.1: Basic with form-urlencoded id and secret, or both in the body; not both ways at once. */
export function clientCredentials(authorization: string, form: TokenForm): ClientCredentials {
  const bodyId = formField(form, 'client_id');
  const bodySecret = formField(form, 'client_secret');
  if (authorization) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0)
      throw new OAuthError(
        'invalid_client',
        'the Authorization header must be HTTP Basic with client_id:client_secret',
      );
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw new OAuthError('invalid_client', 'the Basic credentials are not form-urlencoded');
    }
    if (bodySecret !== undefined)
      throw new OAuthError(
        'invalid_request',
        'send the client secret either in the Authorization header or in the body, not both',
      );
    if (bodyId !== undefined && bodyId !== clientId)
      throw new OAuthError('invalid_request', 'client_id differs from the Authorization header');
    return { clientId, secret };
  }
  if (bodyId === undefined) throw new OAuthError('invalid_client', 'client authentication is required (client_id)');
  return { clientId: bodyId, secret: bodySecret };
}
